// The reports of `roce-lint check` for a three-node cluster (one passing, one with findings, one
// unreachable): the text report in English and Chinese, JUnit parsed back by Python's
// xml.etree, SARIF parsed back as JSON.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check_test_util.h"
#include "lint/report/formats.h"
#include "lint/report/node_report.h"

namespace rocewatch::lint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// gpu-01 passes; gpu-02 has PFC off on ens1f0np0 and MTU 1500 on ens2f0np0; gpu-03's exporter
// answers with an error page (characters XML must escape).
class CheckReport : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.Set(2, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="3"})", "0");
    cluster_.Set(2, R"(roce_netdev_mtu_bytes{netdev="ens2f0np0"})", "1500");
    cluster_.Set(2, R"(roce_port_active_mtu_bytes{device="mlx5_1",port="1"})", "1024");
    cluster_.Unreachable(3, "scrape http://10.0.0.13:9879/metrics: HTTP 503 <html> & \"busy\"");
    run_.findings = cluster_.Run();
    run_.plan = &cluster_.plan;
    run_.input = "metrics/";
    run_.counters_checked = false;
    ASSERT_EQ(run_.findings.size(), 4u) << Describe(run_.findings);
  }

  std::string Text(report::Language lang) {
    std::ostringstream out;
    report::WriteNodeReport(out, run_, lang);
    return out.str();
  }

  Cluster cluster_{3, 2};
  report::CheckRun run_;
};

// The --format table: each row writes what its writer writes, and only the listed names are found.
TEST_F(CheckReport, EveryFormatOfTheTableWritesItsReport) {
  const std::string plan_path = "plan.json";
  auto written = [&](std::string_view name) {
    const report::ReportFormat* format = report::FindCheckReportFormat(name);
    EXPECT_NE(format, nullptr) << name;
    if (format == nullptr) return std::string();
    std::ostringstream out;
    format->write(out, {run_, plan_path, report::Language::kChinese, Severity::kWarning});
    return out.str();
  };
  EXPECT_EQ(report::CheckReportFormatNames("|"), "text|json|junit|sarif|html");
  EXPECT_EQ(report::CheckReportFormats().front().name, "text");
  EXPECT_EQ(written("text"), Text(report::Language::kChinese));
  auto json = nlohmann::json::parse(written("json"));
  EXPECT_EQ(json["command"], "check");
  EXPECT_EQ(json["input"], "plan.json @ metrics/");
  EXPECT_EQ(json["findings"].size(), 4u);
  EXPECT_THAT(written("junit"), StartsWith("<?xml"));
  EXPECT_EQ(nlohmann::json::parse(written("sarif"))["version"], "2.1.0");
  EXPECT_THAT(written("html"), HasSubstr("<html"));
  EXPECT_EQ(report::FindCheckReportFormat("xml"), nullptr);
  EXPECT_EQ(report::FindCheckReportFormat("TEXT"), nullptr);
}

TEST_F(CheckReport, NodeStates) {
  EXPECT_EQ(report::StateOf(run_, cluster_.plan.nodes[0]), report::NodeState::kPassed);
  EXPECT_EQ(report::StateOf(run_, cluster_.plan.nodes[1]), report::NodeState::kFailed);
  EXPECT_EQ(report::StateOf(run_, cluster_.plan.nodes[2]), report::NodeState::kUnreachable);
}

TEST_F(CheckReport, TextLeadsWithOneLinePerNodeThenDetailsThenTheSummary) {
  auto lines = Lines(Text(report::Language::kEnglish));
  ASSERT_GE(lines.size(), 20u);
  EXPECT_EQ(lines[0], "gpu-01: passed (2 NICs)");
  EXPECT_EQ(lines[1],
            "gpu-02: FAILED  qos.pfc-priorities (ens1f0np0), link.netdev-mtu (ens2f0np0), "
            "link.roce-mtu (ens2f0np0)");
  EXPECT_EQ(
      lines[2],
      "gpu-03: UNREACHABLE  scrape http://10.0.0.13:9879/metrics: HTTP 503 <html> & \"busy\"");
  EXPECT_EQ(lines[3], "");
  EXPECT_EQ(lines[4], "Details:");
  EXPECT_EQ(lines[5],
            "gpu-02 mlx5_0 ens1f0np0: critical: ens1f0np0 has PFC on none, the profile wants 3. "
            "[qos.pfc-priorities]");
  EXPECT_EQ(lines[6], "    expected: 3; found: none");
  EXPECT_EQ(
      lines[7],
      "    fix: dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off");
  EXPECT_EQ(lines[8],
            "gpu-02 mlx5_1 ens2f0np0: error: ens2f0np0 has MTU 1500, the profile wants 9000. "
            "[link.netdev-mtu]");
  EXPECT_EQ(lines[9], "    expected: 9000; found: 1500");
  EXPECT_EQ(lines[10], "    fix: ip link set dev ens2f0np0 mtu 9000");
  EXPECT_THAT(
      lines[11],
      StartsWith("gpu-02 mlx5_1 ens2f0np0: error: mlx5_1 port 1 has an active RoCE MTU of 1024"));
  EXPECT_THAT(
      lines[14],
      StartsWith("gpu-03: critical: Cannot read the node's metrics: scrape http://10.0.0.13"));
  EXPECT_EQ(lines[15],
            "    expected: metrics from http://10.0.0.13:9879/metrics; found: scrape "
            "http://10.0.0.13:9879/metrics: HTTP 503 <html> & \"busy\"");
  EXPECT_THAT(lines[16], StartsWith("    fix: systemctl status roce_exporter on gpu-03"));
  EXPECT_EQ(lines[17], "");
  EXPECT_EQ(lines[18], "3 nodes, 6 NICs: 1 passed, 1 failed, 1 unreachable; 2 critical, 2 errors");
  EXPECT_EQ(lines[19],
            "Counter checks skipped: no observation window (use --counter-window, "
            "--previous-metrics-dir, or --prometheus).");
  EXPECT_EQ(lines.size(), 20u);
}

TEST_F(CheckReport, CleanRunHasNoDetailsAndNoCounterNoteWithAWindow) {
  Cluster clean(2, 2);
  report::CheckRun run;
  run.findings = clean.Run();
  run.plan = &clean.plan;
  run.counters_checked = true;
  std::ostringstream out;
  report::WriteNodeReport(out, run, report::Language::kEnglish);
  EXPECT_THAT(Lines(out.str()),
              ElementsAre("gpu-01: passed (2 NICs)", "gpu-02: passed (2 NICs)", "",
                          "2 nodes, 4 NICs: 2 passed, 0 failed, 0 unreachable; no findings"));
}

TEST_F(CheckReport, ChineseReportUsesTheChineseTitles) {
  auto lines = Lines(Text(report::Language::kChinese));
  ASSERT_GE(lines.size(), 20u);
  EXPECT_EQ(lines[0], "gpu-01: 通过 (2 块网卡)");
  EXPECT_EQ(
      lines[1],
      "gpu-02: 未通过  PFC 使能的优先级与规划不符 (ens1f0np0), 网口 MTU 与规划不符 (ens2f0np0), "
      "RoCE 活动 MTU 与规划不符 (ens2f0np0)");
  EXPECT_THAT(lines[2], StartsWith("gpu-03: 不可达  scrape"));
  EXPECT_EQ(lines[4], "详情：");
  EXPECT_EQ(lines[5],
            "gpu-02 mlx5_0 ens1f0np0: 严重: PFC 使能的优先级与规划不符。ens1f0np0 的 PFC 优先级流控使能在 "
            "none 上，规划要求 3。 [qos.pfc-priorities]");
  EXPECT_EQ(lines[6], "    期望：3; 实际：none");
  EXPECT_THAT(lines[7], StartsWith("    修复：dcb pfc set dev ens1f0np0"));
  EXPECT_THAT(lines[14], StartsWith("gpu-03: 严重: 无法获取节点指标（导出器不可达）。"));
  EXPECT_THAT(lines[18], StartsWith("3 个节点，6 块网卡：1 通过，1 未通过，1 不可达"));
  EXPECT_THAT(lines[19], StartsWith("未检查计数器"));
  for (const auto* spec : lint::AllCheckSpecs())
    EXPECT_EQ(report::CheckTitle(std::string(spec->id), report::Language::kChinese),
              spec->title_zh);
  EXPECT_EQ(report::CheckTitle("plan.no-nodes", report::Language::kChinese), "plan.no-nodes");
}

// Runs python3 on `script` with `file` and returns what it printed.
std::string Python(const std::string& script, const fs::path& file) {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("roce-lint-report-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path py = dir / "check.py", out = dir / "out.txt";
  std::ofstream(py) << script;
  std::string cmd = std::string(PYTHON3_BIN) + " " + py.string() + " " + file.string() + " >" +
                    out.string() + " 2>&1";
  int status = std::system(cmd.c_str());
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << ss.str();
  return ss.str();
}

TEST_F(CheckReport, JUnitParsesBackAsXmlWithTheRightCounts) {
  std::ostringstream xml;
  report::WriteJUnitReport(xml, run_);
  const fs::path file =
      fs::path(::testing::TempDir()) / ("junit-" + std::to_string(::getpid()) + ".xml");
  std::ofstream(file, std::ios::binary) << xml.str();
  std::string printed = Python(R"(import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(root.tag, root.get("name"), root.get("tests"), root.get("failures"))
for suite in root.findall("testsuite"):
    cases = suite.findall("testcase")
    failed = [c for c in cases if c.find("failure") is not None]
    print(suite.get("name"), suite.get("tests"), suite.get("failures"), len(cases), len(failed))
    for c in failed:
        f = c.find("failure")
        print(" ", c.get("classname"), c.get("name"), f.get("type"), f.get("message"))
        print(" ", f.text.splitlines()[0])
)",
                               file);
  EXPECT_EQ(printed,
            "testsuites roce-lint 9 3\n"
            "gpu-01 3 0 3 0\n"
            "gpu-02 3 2 3 2\n"
            "  gpu-02 nic mlx5_0 ens1f0np0 critical qos.pfc-priorities\n"
            "  critical [qos.pfc-priorities] ens1f0np0 has PFC on none, the profile wants 3.\n"
            "  gpu-02 nic mlx5_1 ens2f0np0 error link.netdev-mtu; link.roce-mtu\n"
            "  error [link.netdev-mtu] ens2f0np0 has MTU 1500, the profile wants 9000.\n"
            "gpu-03 3 1 3 1\n"
            "  gpu-03 node gpu-03 critical inventory.exporter-unreachable\n"
            "  critical [inventory.exporter-unreachable] Cannot read the node's metrics: scrape "
            "http://10.0.0.13:9879/metrics: HTTP 503 <html> & \"busy\".\n");
  fs::remove(file);
}

// Line and column (1-based) of the first `needle` after `after` in `text`.
std::pair<int, int> LineColumn(const std::string& text, const std::string& after,
                               const std::string& needle) {
  std::size_t at = text.find(needle, text.find(after));
  int line =
      1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  std::size_t line_start = text.rfind('\n', at);
  int column = static_cast<int>(at - (line_start == std::string::npos ? 0 : line_start + 1)) + 1;
  return {line, column};
}

TEST_F(CheckReport, SarifParsesBackWithRulesAndPlanLocations) {
  std::ostringstream out;
  report::WriteSarifReport(out, run_, "plan.json");
  auto doc = nlohmann::json::parse(out.str());
  EXPECT_EQ(doc["version"], "2.1.0");
  EXPECT_EQ(doc["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(doc["runs"].size(), 1u);
  const auto& run = doc["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "roce-lint");
  const auto& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), lint::AllCheckSpecs().size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto* spec = lint::AllCheckSpecs()[i];
    EXPECT_EQ(rules[i]["id"], spec->id);
    EXPECT_EQ(rules[i]["shortDescription"]["text"], spec->title);
    EXPECT_EQ(rules[i]["helpUri"], "docs/checks.md#" + std::string(spec->id));
  }
  const auto& results = run["results"];
  ASSERT_EQ(results.size(), 4u);
  std::vector<std::string> got;
  for (const auto& r : results)
    got.push_back(r["ruleId"].get<std::string>() + " " + r["level"].get<std::string>());
  EXPECT_THAT(got, ElementsAre("qos.pfc-priorities error", "link.netdev-mtu error",
                               "link.roce-mtu error", "inventory.exporter-unreachable error"));
  const std::string& plan = cluster_.plan_json;
  auto [nic_line, nic_column] = LineColumn(plan, "\"name\": \"gpu-02\"", "{\"ib_dev\": \"mlx5_0\"");
  const auto& loc = results[0]["locations"][0];
  EXPECT_EQ(loc["physicalLocation"]["artifactLocation"]["uri"], "plan.json");
  EXPECT_EQ(loc["physicalLocation"]["region"]["startLine"], nic_line);
  EXPECT_EQ(loc["physicalLocation"]["region"]["startColumn"], nic_column);
  EXPECT_EQ(loc["logicalLocations"][0]["fullyQualifiedName"], "gpu-02/mlx5_0/ens1f0np0");
  auto [nic1_line, nic1_column] =
      LineColumn(plan, "\"name\": \"gpu-02\"", "{\"ib_dev\": \"mlx5_1\"");
  EXPECT_EQ(results[1]["locations"][0]["physicalLocation"]["region"]["startLine"], nic1_line);
  auto [node_line, node_column] = LineColumn(plan, "\"name\": \"gpu-03\"", "");
  (void)node_column;
  EXPECT_EQ(results[3]["locations"][0]["physicalLocation"]["region"]["startLine"], node_line);
  EXPECT_EQ(results[0]["properties"]["fix"],
            "dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off");
  EXPECT_EQ(results[0]["properties"]["severity"], "critical");
  EXPECT_EQ(results[0]["message"]["text"], "ens1f0np0 has PFC on none, the profile wants 3.");
}

}  // namespace
}  // namespace rocewatch::lint::testing
