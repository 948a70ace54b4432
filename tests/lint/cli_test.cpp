// The roce-lint binary: subcommands, output and exit codes (0 clean, 1 findings at or above
// --fail-on, 2 unusable input).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lint_process.h"
#include "rocewatch/version.h"

namespace {

namespace fs = std::filesystem;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

using rocewatch::lint::testing::RunResult;
using rocewatch::lint::testing::Slurp;

class RoceLintCli : public rocewatch::lint::testing::LintProcessTest {
 protected:
  fs::path Write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

const std::string kExample = ROCEWATCH_SOURCE_DIR "/lint/plan/example-plan.json";

constexpr const char* kWarningOnly = R"({"cluster": "c", "profiles": {}, "nodes": []})";
constexpr const char* kTwoErrors = R"({
  "cluster": "c",
  "profiles": {"p": {"roce_dscp": 26, "cnp_dscp": 26}},
  "nodes": [
    {"name": "a", "management_ip": "10.0.0.1", "nics": [
      {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.1.0.1"}]}
  ]
})";

TEST_F(RoceLintCli, CleanPlanExitsZero) {
  RunResult r = Run("plan " + kExample);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, kExample + ": no findings (6 nodes, 12 NICs, 1 profile)\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(RoceLintCli, FindingsPrintOneLineEachAndExitOne) {
  fs::path plan = Write("plan.json", kTwoErrors);
  RunResult r = Run("plan " + plan.string());
  EXPECT_EQ(r.code, 1);
  const std::string p = plan.string();
  EXPECT_EQ(r.out,
            p +
                ":3:51 /profiles/p/cnp_dscp: error: CNPs of profile \"p\" use DSCP 26, the RoCE "
                "data DSCP, so switches cannot queue them apart from the data "
                "[plan.cnp-dscp-equals-roce-dscp]\n" +
                p +
                ":6:71 /nodes/0/nics/0/roce_ip: error: roce_ip of mlx5_0 of node \"a\": "
                "\"10.1.0.1\" has no prefix length; write it as address/length, e.g. "
                "10.1.0.11/24 [plan.invalid-ip]\n" +
                p + ": 2 errors (1 node, 1 NIC, 1 profile)\n");
}

TEST_F(RoceLintCli, FailOnSetsTheThreshold) {
  fs::path plan = Write("plan.json", kWarningOnly);
  EXPECT_EQ(Run("plan " + plan.string()).code, 1);
  EXPECT_EQ(Run("plan --fail-on warning " + plan.string()).code, 1);
  EXPECT_EQ(Run("plan --fail-on=error " + plan.string()).code, 0);
  EXPECT_EQ(Run("plan " + plan.string() + " --fail-on critical").code, 0);
  EXPECT_EQ(Run("plan --fail-on ERROR " + plan.string()).code, 0);
  RunResult bad = Run("plan --fail-on warn " + plan.string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err,
            "roce-lint plan: --fail-on \"warn\" is not one of: info, warning, error, critical; did "
            "you mean warning?\n");
  bad = Run("plan --fail-on errr " + plan.string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err,
            "roce-lint plan: --fail-on \"errr\" is not one of: info, warning, error, critical; did "
            "you mean error?\n");
}

TEST_F(RoceLintCli, JsonFormat) {
  fs::path plan = Write("plan.json", kTwoErrors);
  RunResult r = Run("plan --format json " + plan.string());
  EXPECT_EQ(r.code, 1);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["command"], "plan");
  EXPECT_EQ(j["input"], plan.string());
  EXPECT_EQ(j["summary"]["total"], 2);
  EXPECT_EQ(j["summary"]["error"], 2);
  EXPECT_EQ(j["summary"]["failed"], true);
  EXPECT_EQ(j["findings"][1]["check"], "plan.invalid-ip");
  EXPECT_EQ(j["findings"][1]["node"], "a");
  EXPECT_EQ(j["findings"][1]["device"], "mlx5_0");
  EXPECT_EQ(j["findings"][1]["netdev"], "e0");
  EXPECT_EQ(j["findings"][1]["fix"],
            "write the RoCE address with its prefix length, e.g. 10.1.0.11/24");
  EXPECT_EQ(Run("plan --format yaml " + plan.string()).code, 2);
}

TEST_F(RoceLintCli, UnusableInputExitsTwo) {
  RunResult missing = Run("plan " + (dir_ / "nope.json").string());
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "roce-lint plan: cannot open " + (dir_ / "nope.json").string() +
                             ": No such file or directory\n");
  EXPECT_EQ(missing.out, "");

  fs::path broken = Write("broken.json", "{\n  \"cluster\": \"c\",\n}\n");
  RunResult invalid = Run("plan " + broken.string());
  EXPECT_EQ(invalid.code, 2);
  EXPECT_EQ(invalid.err, "roce-lint plan: " + broken.string() +
                             ":3:1: invalid JSON: syntax error while parsing object key - "
                             "unexpected '}'; expected string literal\n");

  RunResult directory = Run("plan " + dir_.string());
  EXPECT_EQ(directory.code, 2);
  EXPECT_THAT(directory.err, HasSubstr("Is a directory"));

  EXPECT_EQ(Run("plan").code, 2);
  EXPECT_EQ(Run("plan a.json b.json").code, 2);
}

TEST_F(RoceLintCli, StdinPlan) {
  fs::path plan = Write("plan.json", kWarningOnly);
  RunResult r = Run("plan --fail-on error -", plan.string());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "-:1:43 /nodes: warning: the plan lists no nodes, so nothing will be checked "
            "[plan.no-nodes]\n-: 1 warning (0 nodes, 0 NICs, 0 profiles)\n");
}

TEST_F(RoceLintCli, UnknownFlagsAndCommands) {
  RunResult flag = Run("plan --formt json " + kExample);
  EXPECT_EQ(flag.code, 2);
  EXPECT_THAT(flag.err,
              StartsWith("roce-lint plan: unknown flag --formt (did you mean --format?)\n"));
  RunResult cmd = Run("plam " + kExample);
  EXPECT_EQ(cmd.code, 2);
  EXPECT_EQ(
      cmd.err,
      "roce-lint: unknown command \"plam\"; did you mean \"plan\"?\nRun `roce-lint --help` for "
      "the list of commands.\n");
  RunResult none = Run("");
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, StartsWith("usage: roce-lint"));
}

TEST_F(RoceLintCli, HelpAndVersion) {
  RunResult help = Run("--help");
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.out, HasSubstr("  plan        validate a cluster plan (for CI)\n"));
  EXPECT_THAT(help.out, HasSubstr("  import-csv  "));
  RunResult plan_help = Run("plan --help");
  EXPECT_EQ(plan_help.code, 0);
  EXPECT_THAT(plan_help.out, StartsWith("usage: roce-lint plan FILE"));
  EXPECT_EQ(Run("import-csv -h").code, 0);
  RunResult version = Run("--version");
  EXPECT_EQ(version.code, 0);
  EXPECT_THAT(version.out,
              StartsWith(std::string("roce-lint ") + rocewatch::kVersion + " (revision "));
}

TEST_F(RoceLintCli, ImportCsvWritesAPlanThatValidates) {
  const std::string csv = ROCEWATCH_TEST_DATA "/lint/data/nics.csv";
  const std::string profiles = ROCEWATCH_TEST_DATA "/lint/data/profiles.json";
  const fs::path out = dir_ / "plan.json";
  RunResult r = Run("import-csv " + csv + " --profiles " + profiles + " -o " + out.string());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, out.string() + ": 2 nodes, 4 NICs imported from " + csv + "; no findings\n");
  ASSERT_TRUE(fs::exists(out));
  auto plan = nlohmann::json::parse(Slurp(out));
  EXPECT_EQ(plan["nodes"][1]["nics"][1]["roce_ip"], "10.1.1.12/24");

  RunResult check = Run("plan " + out.string());
  EXPECT_EQ(check.code, 0) << check.out;

  RunResult to_stdout = Run("import-csv " + csv + " --profiles " + profiles + " --cluster prod");
  EXPECT_EQ(to_stdout.code, 0);
  EXPECT_EQ(nlohmann::json::parse(to_stdout.out)["cluster"], "prod");
}

TEST_F(RoceLintCli, ImportCsvErrorsExitTwoAndWriteNothing) {
  fs::path csv = Write("nics.csv", "node,mgmt_ip,ib_dev\n");
  const std::string profiles = ROCEWATCH_TEST_DATA "/lint/data/profiles.json";
  const fs::path out = dir_ / "plan.json";
  RunResult r =
      Run("import-csv " + csv.string() + " --profiles " + profiles + " -o " + out.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("roce-lint import-csv: " + csv.string() +
                               " row 1, column B: unknown column \"mgmt_ip\""));
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(Run("import-csv " + csv.string()).code, 2);  // --profiles is required
}

TEST_F(RoceLintCli, ImportCsvWithPlanFindingsExitsOneButWritesThePlan) {
  fs::path csv = Write("nics.csv",
                       "node,management_ip,ib_dev,netdev,profile,roce_ip\n"
                       "a,10.0.0.1,mlx5_0,e0,roce-400g,10.1.0.1/24\n"
                       "b,10.0.0.2,mlx5_0,e0,roce-400g,10.1.0.1/24\n");
  const std::string profiles = ROCEWATCH_TEST_DATA "/lint/data/profiles.json";
  const fs::path out = dir_ / "plan.json";
  RunResult r =
      Run("import-csv " + csv.string() + " --profiles " + profiles + " -o " + out.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("[plan.duplicate-roce-ip]"));
  EXPECT_THAT(r.err, EndsWith("; 1 error\n"));
  EXPECT_TRUE(fs::exists(out));
}

}  // namespace
