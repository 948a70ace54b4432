// The message catalogue (lint/i18n/): every translation has every English message with the same
// placeholders, the Chinese table is Chinese, and the reports of check, plan, verify and apply
// in --lang zh carry no English sentence outside values, identifiers and commands.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include "check_test_util.h"
#include "plan_test_util.h"
#include "english_runs.h"
#include "lint/fix/batch.h"
#include "lint/i18n/catalogue.h"
#include "lint/i18n/display_width.h"
#include "lint/i18n/zh.h"
#include "lint/report/json_report.h"
#include "lint/report/node_report.h"
#include "lint/verify/report.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using i18n::Language;
using rocewatch::testing::EnglishRuns;

// `text` without every occurrence of each of `values` (what stays as written in every language:
// names, values, commands and what a node printed).
std::string Without(std::string text, std::vector<std::string> values) {
  // The longest first: removing "3" before "the profile wants 3" would miss the sentence.
  std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const auto& v : values) {
    if (v.empty()) continue;
    for (std::size_t at = text.find(v); at != std::string::npos; at = text.find(v, at))
      text.replace(at, v.size(), " ");
  }
  return text;
}

TEST(EnglishRuns, FindsTheSentenceOfTheIssueAndPassesChinese) {
  EXPECT_THAT(EnglishRuns("gpu-02 mlx5_1 ens2f0np0: 错误: ECN 通知点（NP）使能的优先级与规划不符。"
                          "ens2f0np0 has ECN (np) on none, the profile wants 3. [ecn.np-priorities]"),
              ElementsAre("on none", "the profile wants"));
  EXPECT_THAT(EnglishRuns("未检查计数器：1 node not observed"), ElementsAre("node not observed"));
  EXPECT_THAT(EnglishRuns("gpu-02 mlx5_1 ens2f0np0: 错误: 无损队列 3 的 PFC 未使能，"
                          "`dcb pfc set dev ens2f0np0 prio-pfc 3:on` RoCE v2 \"no such file\" "
                          "roce_pfc_enabled{priority=\"3\"} 400 Gb/s [qos.pfc-priorities]"),
              ElementsAre());
}

TEST(Catalogue, EveryTranslationHasEveryMessageWithItsPlaceholders) {
  EXPECT_EQ(i18n::TableMismatch(i18n::kEnglishMessages, i18n::kChineseMessages, "zh"), "");
  // The check can fail: a table without one entry, or with a placeholder renamed.
  std::vector<i18n::Message> missing(std::begin(i18n::kChineseMessages), std::end(i18n::kChineseMessages));
  missing.erase(missing.begin() + 5);
  EXPECT_THAT(i18n::TableMismatch(i18n::kEnglishMessages, missing, "zh"),
              HasSubstr("(\"" + std::string(i18n::kEnglishMessages[5].id) + "\")"));
  std::vector<i18n::Message> renamed(std::begin(i18n::kChineseMessages), std::end(i18n::kChineseMessages));
  for (auto& m : renamed)
    if (m.id == "report.fix") m.text = "修复：{command}";
  EXPECT_THAT(i18n::TableMismatch(i18n::kEnglishMessages, renamed, "zh"),
              HasSubstr("\"report.fix\"): placeholders differ"));
}

TEST(Catalogue, TheChineseTableHasNoEnglishProse) {
  for (const i18n::Message& m : i18n::Messages(Language::kChinese)) {
    std::string text(m.text);
    for (auto name : i18n::Placeholders(m.text)) text = Without(text, {"{" + std::string(name) + "}"});
    EXPECT_THAT(EnglishRuns(text), ElementsAre()) << m.id << ": " << m.text;
  }
}

TEST(Catalogue, RenderInsertsValuesAsTheyAre) {
  EXPECT_EQ(i18n::Render(Language::kEnglish, "report.fix", {{"fix", "echo {fix} {found}"}}),
            "fix: echo {fix} {found}");
  EXPECT_EQ(i18n::Render(Language::kChinese, "report.fix", {{"fix", "echo"}}), "修复：echo");
  EXPECT_EQ(i18n::RenderStored(Language::kChinese, "report.input.scrapes", {{"count", "10"}}),
            "抓取 10 个 exporter");
  EXPECT_EQ(i18n::RenderStored(Language::kChinese, "no.such.message", {}), std::nullopt);
  EXPECT_EQ(i18n::ParseLanguage("zh"), Language::kChinese);
  EXPECT_EQ(i18n::ParseLanguage("fr"), std::nullopt);
  EXPECT_EQ(i18n::DisplayWidth("节点 a"), 6u);
  EXPECT_EQ(i18n::PadToWidth("节点", 6), "节点  ");
}

// gpu-02 has findings, gpu-03 is unreachable; one node joined inside the counter window and one
// NIC has no switch source: every report-level sentence is printed.
class ChineseCheckReport : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.Set(2, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="3"})", "0");
    cluster_.Set(2, R"(roce_netdev_mtu_bytes{netdev="ens2f0np0"})", "1500");
    cluster_.Unreachable(3, "scrape http://10.0.0.13:9879/metrics: HTTP 503");
    run_.findings = cluster_.Run();
    run_.plan = &cluster_.plan;
    run_.input = "scrapes of 3 exporters";
    run_.input_id = "report.input.scrapes";
    run_.input_args = {{"count", "3"}};
    run_.counters_checked = true;
    for (int i = 0; i < 12; ++i) run_.counters_unobserved.push_back("gpu-x" + std::to_string(i));
    run_.switch_side_unchecked = {"gpu-01 ens1f0np0"};
  }

  // The text of the finding fields this part of the work does not translate yet: the finding's
  // own sentence and values (lint/checks/ owns them), and the node names and notes' lists.
  std::vector<std::string> Values() const {
    std::vector<std::string> out = {"gpu-01 ens1f0np0"};
    for (const auto& f : run_.findings)
      for (const std::string* s : {&f.message, &f.expected, &f.found, &f.fix}) out.push_back(*s);
    return out;
  }

  Cluster cluster_{3, 2};
  report::CheckRun run_;
};

TEST_F(ChineseCheckReport, TextReportLinesAreChinese) {
  std::ostringstream zh;
  report::WriteNodeReport(zh, run_, Language::kChinese);
  EXPECT_THAT(EnglishRuns(Without(zh.str(), Values())), ElementsAre()) << zh.str();
  EXPECT_THAT(zh.str(), HasSubstr("未检查计数器：12 个节点在计数窗口开始时尚未被观测到（它们在窗口内才加入）："
                                  "gpu-x0, gpu-x1, gpu-x2, gpu-x3, gpu-x4, gpu-x5, gpu-x6, gpu-x7, gpu-x8, "
                                  "gpu-x9 等另外 2 个。\n"));
  EXPECT_THAT(zh.str(), HasSubstr("3 个节点，6 块网卡：1 通过，1 未通过，1 不可达；2 个严重问题，1 个错误\n"));
  // The same report in English is as it was.
  std::ostringstream en;
  report::WriteNodeReport(en, run_, Language::kEnglish);
  EXPECT_THAT(en.str(), HasSubstr("Counter checks skipped on 12 nodes not observed at the counter window's "
                                  "start (they joined inside the window): gpu-x0, gpu-x1, gpu-x2, gpu-x3, "
                                  "gpu-x4, gpu-x5, gpu-x6, gpu-x7, gpu-x8, gpu-x9 and 2 more.\n"));
  EXPECT_THAT(en.str(), HasSubstr("3 nodes, 6 NICs: 1 passed, 1 failed, 1 unreachable; 2 critical, 1 error\n"));
  EXPECT_FALSE(EnglishRuns(Without(en.str(), Values())).empty());  // the detector sees English
}

TEST_F(ChineseCheckReport, HtmlReportLinesAreChinese) {
  std::ostringstream zh;
  report::WriteHtmlReport(zh, run_, Language::kChinese);
  std::string page = zh.str();
  // Only the page's text: the markup, style and script are code.
  std::string body = page.substr(page.find("<body>"));
  body = body.substr(0, body.find("<script>"));
  std::string text;
  bool tag = false;
  for (char c : body) {
    if (c == '<') tag = true;
    if (!tag) text += c;
    if (c == '>') tag = false, text += ' ';
  }
  for (auto [entity, c] : {std::pair{"&#39;", "'"}, {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
    for (std::size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at))
      text.replace(at, std::string_view(entity).size(), c);
  std::vector<std::string> values = Values();
  for (const auto& f : run_.findings) values.push_back(f.check);
  EXPECT_THAT(EnglishRuns(Without(text, values)), ElementsAre()) << text;
  EXPECT_THAT(page, HasSubstr("指标来源：抓取 3 个 exporter<br>3 个节点：1 个通过，1 个未通过，1 个不可达；共 3 个问题"));
}

TEST(ChineseReports, VerifyTextReport) {
  std::vector<verify::PairResult> results(3);
  results[0].name = "n2/mlx5_0 -> n1/mlx5_0";
  results[0].status = verify::PairStatus::kPass;
  results[0].bandwidth_gbps = 392.34;
  results[0].line_rate_gbps = 400;
  results[1].name = "n4/mlx5_0 -> n3/mlx5_0";
  results[1].status = verify::PairStatus::kFail;
  results[1].verdicts.push_back({"verify.discards", false, "n4/mlx5_0 (e0)", "out_of_buffer", "<= 0", "30",
                                 "n4 discarded 30"});
  results[2].name = "n5/mlx5_0 -> n1/mlx5_0";
  results[2].status = verify::PairStatus::kUnreachable;
  results[2].detail = "n5: ssh: connect to host 127.0.0.5 port 22: No route to host";
  verify::VerifyRunInfo info{"plan.json", "ib_write_bw", 60, {"n6/mlx5_0: no partner"}};
  std::ostringstream zh;
  verify::WriteVerifyText(zh, results, info, Language::kChinese);
  // The verdict's sentence and an unreachable node's ssh error are not this table's words.
  EXPECT_THAT(EnglishRuns(Without(zh.str(), {"n4 discarded 30", results[2].detail, "n6/mlx5_0: no partner"})),
              ElementsAre())
      << zh.str();
  EXPECT_THAT(zh.str(), HasSubstr("3 对：1 通过，1 失败，0 错误，1 不可达（ib_write_bw，60 s）\n"));
  EXPECT_THAT(zh.str(), HasSubstr("      计数器：out_of_buffer  期望：<= 0  实际：30\n"));
  std::ostringstream en;
  verify::WriteVerifyText(en, results, info, Language::kEnglish);
  EXPECT_THAT(en.str(), HasSubstr("3 pairs: 1 PASS, 1 FAIL, 0 ERROR, 1 UNREACHABLE (ib_write_bw, 60 s)\n"));
  EXPECT_THAT(en.str(), HasSubstr("      counter: out_of_buffer  expected: <= 0  found: 30\n"));
}

TEST(ChineseReports, ApplyResultTable) {
  std::vector<fix::NodeResult> results(6);
  results[0] = {"gpu-01", "10.0.0.11", fix::Outcome::kChanged, 3, 0, "", ""};
  results[1] = {"gpu-02", "10.0.0.12", fix::Outcome::kPassed, 0, 0, "", ""};
  results[2] = {"gpu-03", "10.0.0.13", fix::Outcome::kWouldChange, 1, 0, "", ""};
  results[3] = {"gpu-04", "10.0.0.14", fix::Outcome::kRestored, 0, 0, "", ""};
  results[4] = {"gpu-05", "10.0.0.15", fix::Outcome::kNoBackup, 0, 0, "", ""};
  results[5] = {"gpu-11", "10.0.0.21", fix::Outcome::kUnreachable, 0, 255,
                "ssh: connect to host 10.0.0.21 port 22: No route to host", ""};
  std::ostringstream zh;
  fix::WriteSummaryTable(zh, results, Language::kChinese);
  EXPECT_THAT(EnglishRuns(Without(zh.str(), {results[5].detail})), ElementsAre()) << zh.str();
  EXPECT_THAT(zh.str(), HasSubstr("节点    主机       结果\ngpu-01  10.0.0.11  已修改 3 项设置\n"));
  EXPECT_THAT(zh.str(), HasSubstr("6 个节点：1 个已修改，1 个通过，1 个将修改，1 个已回滚，1 个没有备份，"
                                  "0 个已跳过，0 个失败，1 个不可达\n"));
}

// A finding's four texts in `lang`.
std::string Texts(const Finding& f, Language lang) {
  return i18n::RenderOr(lang, f.message_text, f.message) + "\n" +
         i18n::RenderOr(lang, f.expected_text, f.expected) + "\n" +
         i18n::RenderOr(lang, f.found_text, f.found) + "\n" + i18n::RenderOr(lang, f.fix_text, f.fix);
}

// Every plan check of node_checks.cpp and profile_checks.cpp at once: each finding's sentence,
// expectation and fix in Chinese have no English run, and in English are what they were.
TEST(ChineseFindings, PlanChecks) {
  std::string plan = PlanJson(3, 2);
  plan = ReplaceOnce(plan, "\"name\": \"gpu-02\"", "\"name\": \"gpu-01\"");               // duplicate name
  plan = ReplaceOnce(plan, "\"management_ip\": \"10.0.0.13\"", "\"management_ip\": \"10.0.0.300\"");
  plan = ReplaceOnce(plan, "\"roce_ip\": \"10.1.0.11/24\"", "\"roce_ip\": \"10.1.0.0/24\"");  // network
  plan = ReplaceOnce(plan, "\"roce_ip\": \"10.1.1.11/24\"", "\"roce_ip\": \"10.1.0.12/24\"");  // duplicate
  plan = ReplaceOnce(plan, "\"ib_dev\": \"mlx5_1\", \"netdev\": \"ens2f0np0\", \"profile\": \"roce-400g\", "
                           "\"roce_ip\": \"10.1.1.13/24\", \"rail\": 1",
                     "\"ib_dev\": \"mlx5_0\", \"netdev\": \"ens1f0np0\", \"profile\": \"roce-400G\", "
                     "\"roce_ip\": \"10.1.1.13/24\", \"rail\": 0");  // duplicate ib_dev, netdev, rail; unknown profile
  plan = ReplaceOnce(plan, "\"pfc_priorities\": [3],", "\"pfc_priorities\": [4],");  // RoCE, ECN not lossless
  plan = ReplaceOnce(plan, "\"cnp_dscp\": 48,\n", "\"cnp_dscp\": 26,\n");              // equals roce_dscp
  plan = ReplaceOnce(plan, "\"cnp_priority\": 6,", "\"cnp_priority\": 9,");            // range
  plan = ReplaceOnce(plan, "\"netdev_mtu\": 9000,", "\"netdev_mtu\": 4000,");          // below roce_mtu
  plan = ReplaceOnce(plan, "\"width\": 16", "\"width\": 3");
  plan = ReplaceOnce(plan, "\"tx_power_dbm_min\": -6.0", "\"tx_power_dbm_min\": -6.0, \"tx_power_dbm_max\": -9.0");
  plan = ReplaceOnce(plan, "\"firmware\"", "\"verify\": {\"min_bandwidth_fraction\": 2}, \"firmware\"");
  plan = ReplaceOnce(plan, "\"profiles\": {\n    ", "\"profiles\": {\n    \"spare\": {\"roce_mtu\": 1000},\n    ");
  std::vector<Finding> findings = AllFindings(plan);
  std::set<std::string> ids;
  for (const auto& f : findings) {
    ids.insert(f.check);
    SCOPED_TRACE(f.check + ": " + f.message);
    EXPECT_FALSE(f.message_text.id.empty());  // every plan check finding has its catalogue form
    EXPECT_EQ(Texts(f, Language::kEnglish), f.message + "\n" + f.expected + "\n" + f.found + "\n" + f.fix);
    // The address parser's own reason ({error}: lint/plan/address.cpp) is not in the catalogue yet.
    std::vector<std::string> parser_errors;
    for (const auto& [name, value] : f.message_text.args)
      if (name == "error") parser_errors.push_back(value);
    EXPECT_THAT(EnglishRuns(Without(Texts(f, Language::kChinese), parser_errors)), ElementsAre())
        << Texts(f, Language::kChinese);
  }
  EXPECT_THAT(ids, ::testing::IsSupersetOf({"plan.duplicate-node-name", "plan.invalid-ip", "plan.roce-ip-not-host",
                                           "plan.duplicate-roce-ip", "plan.duplicate-ib-dev", "plan.duplicate-netdev",
                                           "plan.duplicate-rail", "plan.unknown-profile", "plan.unused-profile",
                                           "plan.roce-priority-not-lossless", "plan.ecn-not-lossless",
                                           "plan.cnp-dscp-equals-roce-dscp", "plan.priority-range",
                                           "plan.roce-mtu-exceeds-netdev-mtu", "plan.value-range",
                                           "plan.roce-mtu-invalid"}));
  // The text report of `roce-lint plan --lang zh` and its JSON's message_zh.
  std::ostringstream zh;
  report::WriteTextFindings(zh, findings, Language::kChinese);
  std::vector<std::string> locations;
  for (const auto& f : findings) locations.push_back(f.location);
  for (const auto& f : findings)
    for (const auto& [name, value] : f.message_text.args)
      if (name == "error") locations.push_back(value);
  EXPECT_THAT(EnglishRuns(Without(zh.str(), locations)), ElementsAre()) << zh.str();
  auto json = report::JsonReport(findings, {"plan", "plan.json", Severity::kWarning, Language::kChinese});
  EXPECT_EQ(json["findings"][0]["message"], findings[0].message);
  EXPECT_EQ(json["findings"][0]["message_zh"], i18n::RenderOr(Language::kChinese, findings[0].message_text, ""));
  EXPECT_FALSE(report::JsonReport(findings, {"plan", "plan.json"})["findings"][0].contains("message_zh"));
}

// The node checks whose findings are in the catalogue so far: in zh no English run; the port
// states are named next to their numbers.
TEST(ChineseFindings, NodeChecksInTheCatalogue) {
  Cluster c(3, 2);
  c.Set(2, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="3"})", "0");
  c.Set(2, R"(roce_ecn_enabled{netdev="ens1f0np0",point="np",priority="3"})", "0");
  c.Set(2, R"(roce_netdev_mtu_bytes{netdev="ens2f0np0"})", "1500");
  c.Set(1, R"(roce_port_state{device="mlx5_1",port="1"})", "1");
  c.Set(1, R"(roce_port_physical_state{device="mlx5_1",port="1"})", "3");
  c.Unreachable(3, "scrape http://10.0.0.13:9879/metrics: HTTP 503");
  std::vector<Finding> findings = c.Run();
  std::set<std::string> translated = {"qos.pfc-priorities", "ecn.np-priorities", "link.netdev-mtu",
                                      "link.port-down", "inventory.exporter-unreachable"};
  std::set<std::string> seen;
  for (const auto& f : findings) {
    if (!translated.count(f.check)) continue;
    seen.insert(f.check);
    SCOPED_TRACE(f.check + ": " + f.message);
    EXPECT_EQ(Texts(f, Language::kEnglish), f.message + "\n" + f.expected + "\n" + f.found + "\n" + f.fix);
    // What the exporter said stays as it said it; a fix without a catalogue form is a command.
    EXPECT_THAT(EnglishRuns(Without(Texts(f, Language::kChinese),
                                    {"scrape http://10.0.0.13:9879/metrics: HTTP 503",
                                     f.fix_text.id.empty() ? f.fix : std::string()})),
                ElementsAre())
        << Texts(f, Language::kChinese);
  }
  EXPECT_EQ(seen, translated);
  auto down = WithId(findings, "link.port-down");
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(down[0].found, "state DOWN (1), physical state Disabled (3)");
  EXPECT_EQ(i18n::RenderOr(Language::kChinese, down[0].message_text, ""),
            "mlx5_1 端口 1 未处于 up 状态：端口状态 DOWN (1)，物理状态 Disabled (3)。");
  auto ecn = WithId(findings, "ecn.np-priorities");
  ASSERT_EQ(ecn.size(), 1u);
  EXPECT_EQ(i18n::RenderOr(Language::kChinese, ecn[0].message_text, ""),
            "ens1f0np0 的 ECN 通知点（np）使能在 none 上，规划要求 3。");
}

}  // namespace
}  // namespace rocewatch::lint::testing

namespace rocewatch::lint::testing {
namespace {

// chinese_findings.h, which every check test's run goes through, fails on a finding whose
// sentence is left English, whose argument carries English words, or whose fix is English prose
// without a catalogue form; a command line is a fix as it is.
TEST(ChineseFindings, EveryCheckRunFailsOnAnEnglishSentence) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_netdev_mtu_bytes{netdev="ens2f0np0"})", "1500");
  auto mtu = WithId(c.Run(), "link.netdev-mtu");
  ASSERT_EQ(mtu.size(), 1u);
  EXPECT_THAT(EnglishInFinding(mtu[0]), ElementsAre());
  Finding untranslated = mtu[0];
  untranslated.message_text = {};
  EXPECT_THAT(EnglishInFinding(untranslated),
              ElementsAre("message: not in the catalogue: ens2f0np0 has MTU 1500, the profile wants 9000."));
  Finding english_arg = mtu[0];
  for (auto& [name, value] : english_arg.message_text.args)
    if (name == "found") value = "far too small";
  EXPECT_THAT(EnglishInFinding(english_arg),
              ::testing::Contains(HasSubstr("argument found of check.link.netdev_mtu.message is English")));
  Finding prose_fix = mtu[0];
  prose_fix.fix = "raise the MTU of ens2f0np0";
  EXPECT_THAT(EnglishInFinding(prose_fix), ElementsAre(HasSubstr("fix: English text without a catalogue form")));
  EXPECT_TRUE(IsCommandLine("ip link set dev ens2f0np0 mtu 9000"));
  EXPECT_TRUE(IsCommandLine("dcb pfc set dev ens1f0np0 prio-pfc 3:on; mlnx_qos -i ens1f0np0"));
  EXPECT_FALSE(IsCommandLine("ip link set dev ens2f0np0 up; check the cable"));
  // A Chinese finding of another check: its fix's commands are code spans, its values as they are.
  c.Set(1, R"(roce_port_state{device="mlx5_1",port="1"})", "1");
  auto down = WithId(c.Run(), "link.port-down");
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(i18n::RenderOr(Language::kChinese, down[0].fix_text, ""),
            "`ip link set dev ens2f0np0 up`；检查线缆和交换机端口 leaf-1:Ethernet8；`ethtool ens2f0np0`");
}

}  // namespace
}  // namespace rocewatch::lint::testing
