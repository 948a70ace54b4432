// `roce-lint check` as a process on saved /metrics files: exit codes (0 clean, 1 findings at or
// above --fail-on, 2 unusable input), the report formats and languages end to end.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check_test_util.h"
#include "lint_process.h"

namespace rocewatch::lint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class CheckCommand : public LintProcessTest {
 protected:
  // Writes the plan and one metrics file per node under `metrics`.
  void Write(const Cluster& c, const std::string& metrics = "metrics") {
    std::ofstream(dir_ / "plan.json", std::ios::binary) << c.plan_json;
    fs::create_directories(dir_ / metrics);
    for (std::size_t i = 0; i < c.text.size(); ++i)
      std::ofstream(dir_ / metrics / (NodeName(static_cast<int>(i) + 1) + ".prom"),
                    std::ios::binary)
          << c.text[i];
  }

  // roce-lint in the scratch directory: ARGS name plan.json and metrics/ as written.
  RunResult Run(const std::string& args) { return LintProcessTest::Run(args, "/dev/null", true); }
};

TEST_F(CheckCommand, CleanClusterExitsZero) {
  Cluster c(2, 2);
  Write(c);
  RunResult r = Run("check plan.json --metrics-dir metrics");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, StartsWith("gpu-01: passed (2 NICs)\ngpu-02: passed (2 NICs)\n"));
  EXPECT_THAT(r.out, HasSubstr("2 nodes, 4 NICs: 2 passed, 0 failed, 0 unreachable; no findings"));
  EXPECT_EQ(r.err, "");
}

TEST_F(CheckCommand, FindingsAtOrAboveFailOnExitOne) {
  Cluster c(2, 2);
  c.Set(2, R"(roce_cm_default_tos{device="mlx5_0",port="1"})", "0");  // a warning
  Write(c);
  RunResult r = Run("check plan.json --metrics-dir metrics");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("gpu-02: FAILED  qos.cm-tos (ens1f0np0)\n"));
  EXPECT_THAT(r.out,
              HasSubstr("    fix: mkdir -p /sys/kernel/config/rdma_cm/mlx5_0 && echo 106 > "));
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics --fail-on warning").code, 1);
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics --fail-on error").code, 0);
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics --fail-on critical").code, 0);
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics --fail-on info").code, 1);
}

TEST_F(CheckCommand, MissingMetricsFileMakesTheNodeUnreachableNotTheInputUnusable) {
  Cluster c(2, 2);
  Write(c);
  fs::remove(dir_ / "metrics" / "gpu-02.prom");
  RunResult r = Run("check plan.json --metrics-dir metrics");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("gpu-01: passed (2 NICs)\n"));
  EXPECT_THAT(r.out, HasSubstr("gpu-02: UNREACHABLE  no metrics file metrics/gpu-02.prom\n"));
  EXPECT_THAT(r.out, HasSubstr("1 passed, 0 failed, 1 unreachable; 1 critical"));
}

TEST_F(CheckCommand, TxtFilesAreReadToo) {
  Cluster c(1, 2);
  Write(c);
  fs::rename(dir_ / "metrics" / "gpu-01.prom", dir_ / "metrics" / "gpu-01.txt");
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics").code, 0);
}

TEST_F(CheckCommand, UnusableInputExitsTwo) {
  Cluster c(1, 2);
  Write(c);
  RunResult r = Run("check missing.json --metrics-dir metrics");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing.json"));
  r = Run("check plan.json --metrics-dir metrics --format xml");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--format \"xml\" is not one of: text, json, junit, sarif"));
  r = Run("check plan.json --metrics-dir metrics --lang fr");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--lang \"fr\" is not one of: en, zh"));
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics --fail-on fatal").code, 2);
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics --no-such-flag").code, 2);
  EXPECT_EQ(Run("check --metrics-dir metrics").code, 2);
  EXPECT_EQ(Run("check plan.json plan.json --metrics-dir metrics").code, 2);
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics --prometheus http://127.0.0.1:1").code, 2);
  EXPECT_EQ(Run("check plan.json --previous-metrics-dir metrics").code, 2);
  // A --metrics-dir that does not exist is a typo, not a cluster of unreachable exporters.
  r = Run("check plan.json --metrics-dir metricz");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_THAT(r.err, HasSubstr("metricz"));
}

TEST_F(CheckCommand, PlanWithErrorsExitsTwo) {
  Cluster c(1, 2);
  c.EditPlan("\"cnp_dscp\": 48,", "\"cnp_dscp\": 26,");
  Write(c);
  RunResult r = Run("check plan.json --metrics-dir metrics");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_THAT(r.err, HasSubstr("the plan has errors; fix them first (roce-lint plan plan.json)"));
  EXPECT_THAT(r.err, HasSubstr("plan.json:"));
  EXPECT_EQ(r.out, "");
  c.EditPlan("\"cnp_dscp\": 26,", "\"cnp_dscp\": 48,\n\"roce_pfc\": [3],");  // unknown key
  Write(c);
  EXPECT_EQ(Run("check plan.json --metrics-dir metrics").code, 2);
}

// A plan whose path carries terminal controls is refused by every command that loads it in
// the same words, and its path reaches the terminal escaped (lint/cli/usable_plan.cpp).
TEST_F(CheckCommand, EveryCommandRefusesAPlanWithErrorsAndEscapesItsPath) {
  Cluster c(1, 2);
  c.EditPlan("\"cnp_dscp\": 48,", "\"cnp_dscp\": 26,");
  Write(c);
  const std::string hostile = "plan\x1b[2J.json";
  std::filesystem::copy_file(dir_ / "plan.json", dir_ / hostile);
  const std::string quoted = "'" + hostile + "'";
  for (const std::string& command : {"check " + quoted + " --metrics-dir metrics", "fix " + quoted,
                                     "targets " + quoted}) {
    RunResult r = Run(command);
    EXPECT_EQ(r.code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("the plan has errors; fix them first (roce-lint plan plan\\x1b[2J.json)"))
        << command;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << command;
  }
}

TEST_F(CheckCommand, CounterChecksFromAPreviousMetricsDir) {
  Cluster c(2, 2);
  Write(c, "before");
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_1",port="1",counter="out_of_sequence"})", "1402");
  Write(c, "after");
  RunResult r =
      Run("check plan.json --metrics-dir after --previous-metrics-dir before --window 60s");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("gpu-01: FAILED  counters.transport-errors (ens2f0np0)\n"));
  EXPECT_THAT(
      r.out,
      HasSubstr(
          "    expected: no retransmissions or sequence errors; found: out_of_sequence +1000\n"));
  EXPECT_THAT(r.out, HasSubstr("in 60 s"));
  EXPECT_THAT(r.out, Not(HasSubstr("Counter checks skipped")));
  // The same files without a window: no counter checks.
  r = Run("check plan.json --metrics-dir after");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Counter checks skipped"));
}

TEST_F(CheckCommand, ChineseReport) {
  Cluster c(2, 2);
  c.Set(2, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="3"})", "0");
  Write(c);
  RunResult r = Run("check plan.json --metrics-dir metrics --lang zh");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(
      r.out,
      StartsWith(
          "gpu-01: 通过 (2 块网卡)\ngpu-02: 未通过  PFC 使能的优先级与规划不符 (ens2f0np0)\n"));
  EXPECT_THAT(r.out, HasSubstr("    修复：dcb pfc set dev ens2f0np0 prio-pfc"));
}

TEST_F(CheckCommand, MachineFormatsToAFile) {
  Cluster c(2, 2);
  c.Set(2, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="3"})", "0");
  Write(c);
  RunResult r = Run("check plan.json --metrics-dir metrics --format json --output report.json");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  auto json = nlohmann::json::parse(Slurp(dir_ / "report.json"));
  EXPECT_EQ(json["command"], "check");
  EXPECT_EQ(json["summary"]["critical"], 1);
  EXPECT_EQ(json["findings"][0]["check"], "qos.pfc-priorities");
  EXPECT_EQ(json["findings"][0]["node"], "gpu-02");
  EXPECT_EQ(json["findings"][0]["port"], "1");

  r = Run("check plan.json --metrics-dir metrics --format sarif -o report.sarif");
  EXPECT_EQ(r.code, 1);
  auto sarif = nlohmann::json::parse(Slurp(dir_ / "report.sarif"));
  EXPECT_EQ(sarif["version"], "2.1.0");
  const auto& result = sarif["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleId"], "qos.pfc-priorities");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "plan.json");
  EXPECT_GT(result["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>(), 1);

  r = Run("check plan.json --metrics-dir metrics --format junit");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(
      r.out,
      StartsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"roce-lint\" "
                 "tests=\"6\" failures=\"1\">"));
}

}  // namespace
}  // namespace rocewatch::lint::testing
