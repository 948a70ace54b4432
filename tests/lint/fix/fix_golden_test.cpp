// Golden tests of what `roce-lint fix` renders: the scripts of three profiles (the example plan's
// roce-400g; PFC on 3 and 4 without a DCQCN section; trust pcp) with both tool sets, the
// --persist files, and --only-findings scripts of a cluster with seeded faults.
// ROCEWATCH_UPDATE_GOLDEN=1 rewrites the files under tests/lint/fix/golden instead of comparing;
// CMake runs shellcheck on every golden script, assembled with its templates
// (tests/lint/fix/CMakeLists.txt).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "common/test_dir.h"
#include "fix_test_util.h"
#include "lint/fix/templates.h"
#include "lint/check_test_util.h"

namespace rocewatch::fix_testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

fs::path GoldenDir() { return fs::path(ROCEWATCH_TEST_DATA) / "lint/fix/golden"; }
bool Updating() { return std::getenv("ROCEWATCH_UPDATE_GOLDEN") != nullptr; }

// A script's shared parts (lint/fix/templates/: library, one tool set's readers, rollback,
// main) are the same in every script: the golden keeps the plan's part (header, precheck,
// configure) and one line "# @template NAME" where each shared part stands, so an edit of
// library.sh changes no golden. The shared parts are tested as files (fix_shellcheck_templates),
// the assembled goldens by fix_shellcheck_* (tests/lint/fix/assemble_golden.sh).
std::string MarkTemplates(std::string script) {
  namespace t = lint::fix::templates;
  std::size_t toolsets = 0;
  for (auto [name, text] : {std::pair{"library.sh", t::kLibrary}, std::pair{"upstream.sh", t::kUpstream},
                            std::pair{"mlnx.sh", t::kMlnx}, std::pair{"rollback.sh", t::kRollback},
                            std::pair{"main.sh", t::kMain}}) {
    const std::size_t at = script.find(text);
    const bool toolset = std::string_view(name) == "upstream.sh" || std::string_view(name) == "mlnx.sh";
    if (at == std::string::npos) {
      EXPECT_TRUE(toolset) << "the script does not carry " << name << " as it is";
      continue;
    }
    toolsets += toolset ? 1 : 0;
    EXPECT_EQ(script.find(text, at + 1), std::string::npos) << name << " is in the script twice";
    script.replace(at, text.size(), std::string("# @template ") + name + "\n");
  }
  EXPECT_EQ(toolsets, 1u) << "the script carries not exactly one tool set's readers";
  return script;
}

void ExpectGolden(std::string got, const std::string& name) {
  const fs::path path = GoldenDir() / name;
  if (name.ends_with(".sh") && name.rfind("persist/", 0) != 0) got = MarkTemplates(std::move(got));
  if (Updating()) {
    WriteText(path, got);
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing: run with ROCEWATCH_UPDATE_GOLDEN=1";
  EXPECT_EQ(Slurp(path), got) << name << " differs from what roce-lint fix renders now "
                              << "(if the change is intended: ROCEWATCH_UPDATE_GOLDEN=1 "
                                 "tests/lint/fix/fix_test in the build directory)";
}

struct Case {
  const char* golden;
  const char* plan;  // under tests/lint/fix/data, or "example" for lint/plan/example-plan.json
  const char* node;
  const char* tool;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.golden; }

class Golden : public ::testing::TestWithParam<Case> {};

TEST_P(Golden, ScriptMatches) {
  const Case& c = GetParam();
  const fs::path plan =
      std::string(c.plan) == "example" ? fs::path(ExamplePlan()) : fs::path(FixData(c.plan));
  RunResult r = Sh(
      RoceLint() + " fix " + plan.filename().string() + " --node " + c.node + " --tool " + c.tool,
      plan.parent_path());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(std::string(c.node) + ": "));
  ExpectGolden(r.out, c.golden);
}

INSTANTIATE_TEST_SUITE_P(
    Fix, Golden,
    ::testing::Values(Case{"roce-400g.upstream.sh", "example", "gpu-01", "upstream"},
                      Case{"roce-400g.mlnx.sh", "example", "gpu-01", "mlnx"},
                      Case{"pfc34.upstream.sh", "pfc34-plan.json", "gpu-21", "upstream"},
                      Case{"pfc34.mlnx.sh", "pfc34-plan.json", "gpu-21", "mlnx"},
                      Case{"trust-pcp.upstream.sh", "trust-pcp-plan.json", "gpu-31", "upstream"},
                      Case{"trust-pcp.mlnx.sh", "trust-pcp-plan.json", "gpu-31", "mlnx"}),
    [](const ::testing::TestParamInfo<Case>& param_info) {
      std::string name = param_info.param.golden;
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

// What each profile's script sets and leaves alone.
TEST(FixScriptContent, Pfc34HasNoDcqcnParametersButTheCnpMarking) {
  RunResult r = Sh(RoceLint() + " fix pfc34-plan.json --node gpu-21", FixData(""));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(
      r.out,
      HasSubstr(
          "dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:on 5:off 6:off 7:off"));
  EXPECT_THAT(r.out, HasSubstr("step ens1f0np0 'ecn np priorities' 3,4"));
  EXPECT_THAT(r.out, HasSubstr("step ens1f0np0 'dcqcn np.cnp_dscp' 48"));
  EXPECT_THAT(r.out, HasSubstr("step ens1f0np0 'dcqcn np.cnp_802p_prio' 6"));
  EXPECT_THAT(r.out, Not(HasSubstr("rpg_")));
  EXPECT_THAT(r.out, Not(HasSubstr("  check_driver_version mlx5_0")));  // the profile names none
  EXPECT_THAT(r.out, HasSubstr("check_firmware mlx5_0 28.39.2048"));
  // Exactly the planned optional counters, sorted, on the NIC's RDMA port.
  EXPECT_THAT(r.out, HasSubstr("need_tool rdma 'iproute2: optional RDMA counters'"));
  EXPECT_THAT(r.out, HasSubstr("  step 'mlx5_1 port 1' 'optional counters' "
                               "cc_rx_ce_pkts,cc_rx_cnp_pkts \\\n"
                               "    'optional_counters mlx5_1 1 cc_rx_ce_pkts,cc_rx_cnp_pkts' \\\n"
                               "    'rdma statistic set link mlx5_1/1 optional-counters "
                               "cc_rx_ce_pkts,cc_rx_cnp_pkts' \\\n"
                               "    'backup optional_counters mlx5_1 1 \"$_have\"'\n"));
}

TEST(FixScriptContent, TrustPcpFlushesDscpEntriesAndMapsNoDscp) {
  RunResult up = Sh(RoceLint() + " fix trust-pcp-plan.json", FixData(""));
  ASSERT_EQ(up.code, 0) << up.err;
  EXPECT_THAT(up.out, HasSubstr("'dcb app flush dev ens1f0np0 dscp-prio'"));
  EXPECT_THAT(up.out, Not(HasSubstr("dcb app replace")));
  EXPECT_THAT(up.out, Not(HasSubstr("'ecn rp priorities'")));  // the profile states only np
  EXPECT_THAT(up.out, HasSubstr("'dcqcn rp.rpg_ai_rate' 10"));
  RunResult mlnx = Sh(RoceLint() + " fix trust-pcp-plan.json --tool mlnx", FixData(""));
  ASSERT_EQ(mlnx.code, 0) << mlnx.err;
  EXPECT_THAT(mlnx.out, HasSubstr("'mlnx_qos -i ens1f0np0 --trust pcp'"));
  EXPECT_THAT(mlnx.out, HasSubstr("'cma_roce_tos -d mlx5_0 -p 1 -t 106'"));
  EXPECT_THAT(mlnx.out, HasSubstr("need_tool cma_roce_mode"));
  EXPECT_THAT(mlnx.out, Not(HasSubstr("need_tool dcb")));
}

TEST(FixPersist, FilesMatch) {
  testing::TestDir tmp;
  RunResult r =
      Sh(RoceLint() + " fix " + Q(ExamplePlan()) + " --node gpu-01 --persist --output-dir out",
         tmp.path());
  ASSERT_EQ(r.code, 0) << r.err;
  const fs::path dir = fs::path(tmp.path()) / "out/gpu-01";
  for (const char* name :
       {"rocewatch-roce-config.service", "99-rocewatch-roce-config.rules", "install.sh"}) {
    ASSERT_TRUE(fs::exists(dir / name)) << name;
    ExpectGolden(Slurp(dir / name), std::string("persist/") + name);
  }
  // The script written next to them is the one standard output gets.
  if (!Updating()) {
    EXPECT_EQ(MarkTemplates(Slurp(dir / "rocewatch-roce-config.sh")),
              Slurp(GoldenDir() / "roce-400g.upstream.sh"));
  }
  EXPECT_TRUE((fs::status(dir / "rocewatch-roce-config.sh").permissions() &
               fs::perms::owner_exec) != fs::perms::none);
  EXPECT_TRUE((fs::status(dir / "install.sh").permissions() & fs::perms::owner_exec) !=
              fs::perms::none);
  EXPECT_THAT(r.out, HasSubstr("gpu-01: out/gpu-01/rocewatch-roce-config.service, "
                               "99-rocewatch-roce-config.rules, install.sh"));
}

TEST(FixPersist, InstallScriptPutsTheFilesInPlace) {
  testing::TestDir tmp;
  RunResult r =
      Sh(RoceLint() + " fix " + Q(ExamplePlan()) + " --node gpu-02 --persist --output-dir out",
         tmp.path());
  ASSERT_EQ(r.code, 0) << r.err;
  const fs::path stage = fs::path(tmp.path()) / "stage";
  RunResult inst = Sh("DESTDIR=" + Q(stage.string()) + " sh out/gpu-02/install.sh", tmp.path());
  ASSERT_EQ(inst.code, 0) << inst.out << inst.err;
  EXPECT_THAT(inst.out, HasSubstr("systemd and udev left alone"));
  EXPECT_EQ(Slurp(stage / "usr/local/sbin/rocewatch-roce-config"),
            Slurp(fs::path(tmp.path()) / "out/gpu-02/rocewatch-roce-config.sh"));
  EXPECT_TRUE((fs::status(stage / "usr/local/sbin/rocewatch-roce-config").permissions() &
               fs::perms::others_exec) != fs::perms::none);
  EXPECT_THAT(Slurp(stage / "etc/systemd/system/rocewatch-roce-config.service"),
              HasSubstr("Type=oneshot"));
  EXPECT_THAT(Slurp(stage / "etc/udev/rules.d/99-rocewatch-roce-config.rules"),
              HasSubstr("SUBSYSTEM==\"infiniband\", KERNEL==\"mlx5_0|mlx5_1\""));
  // systemd itself accepts the unit (when systemd-analyze is installed): nothing to say about it
  // but that the script it runs is not installed here.
  RunResult have = Sh("command -v systemd-analyze", tmp.path());
  if (have.code == 0) {
    RunResult verify =
        Sh("systemd-analyze verify etc/systemd/system/rocewatch-roce-config.service", stage);
    std::istringstream lines(verify.err);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("rocewatch-roce-config") == std::string::npos) continue;
      EXPECT_THAT(line, HasSubstr("/usr/local/sbin/rocewatch-roce-config is not executable"))
          << verify.err;
    }
  }
}

TEST(FixPersist, SystemdDeviceUnitsAreEscaped) {
  testing::TestDir tmp;
  WriteText(fs::path(tmp.path()) / "plan.json",
            R"({"cluster": "c", "profiles": {"p": {"netdev_mtu": 9000}},
    "nodes": [{"name": "n1", "management_ip": "10.0.0.1", "nics": [
      {"ib_dev": "rocep23s0", "netdev": "enp23s0-1", "profile": "p", "roce_ip": "10.1.0.1/24"}]}]})");
  RunResult r = Sh(RoceLint() + " fix plan.json --persist --output-dir out", tmp.path());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(Slurp(fs::path(tmp.path()) / "out/n1/rocewatch-roce-config.service"),
              HasSubstr("After=sys-subsystem-net-devices-enp23s0\\x2d1.device"));
}

// A cluster of three nodes, two NICs each, observed through saved /metrics files.
class OnlyFindings : public ::testing::Test {
 protected:
  void SetUp() override {
    using lint::testing::Cluster;
    Cluster c(3, 2);
    // gpu-02: PFC off on ens2f0np0, ECN (np) off on priority 3 of ens1f0np0.
    c.Set(2, "roce_pfc_enabled{netdev=\"ens2f0np0\",priority=\"3\"}", "0");
    c.Set(2, "roce_ecn_enabled{netdev=\"ens1f0np0\",point=\"np\",priority=\"3\"}", "0");
    // gpu-03: rpg_gd (not in the profile) differs from its five peers; MTU 1500 on
    // ens2f0np0; old firmware on mlx5_0 (no script can fix that).
    c.Set(3,
          "roce_dcqcn_parameter{netdev=\"ens1f0np0\",point=\"rp\",parameter=\"rpg_gd\",source="
          "\"sysfs\"}",
          "12");
    c.Set(3, "roce_netdev_mtu_bytes{netdev=\"ens2f0np0\"}", "1500");
    std::string& t = c.text[2];
    auto at = t.find("fw_version=\"28.39.2048\"");
    ASSERT_NE(at, std::string::npos);
    t.replace(at, 23, "fw_version=\"28.35.1012\"");
    WriteText(dir_ / "plan.json", c.plan_json);
    for (int n = 1; n <= 3; ++n)
      WriteText(dir_ / "metrics" / (lint::testing::NodeName(n) + ".prom"), c.text[n - 1]);
  }
  testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
};

TEST_F(OnlyFindings, ScriptsHoldOnlyWhatTheChecksFoundWrong) {
  RunResult r = Sh(
      RoceLint() + " fix plan.json --only-findings --metrics-dir metrics --output-dir out", dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("gpu-01: no script: no finding the script can fix"));
  EXPECT_FALSE(fs::exists(dir_ / "out/gpu-01/rocewatch-roce-config.sh"));
  EXPECT_THAT(
      r.out,
      HasSubstr(
          "gpu-02: out/gpu-02/rocewatch-roce-config.sh (2 NICs, 2 settings, upstream tools)"));
  EXPECT_THAT(
      r.out,
      HasSubstr(
          "gpu-03: out/gpu-03/rocewatch-roce-config.sh (2 NICs, 2 settings, upstream tools)"));
  EXPECT_THAT(
      r.out,
      HasSubstr("versions.firmware mlx5_0: install the firmware or driver the profile accepts"));
  ExpectGolden(Slurp(dir_ / "out/gpu-02/rocewatch-roce-config.sh"), "only-findings.gpu-02.sh");
  ExpectGolden(Slurp(dir_ / "out/gpu-03/rocewatch-roce-config.sh"), "only-findings.gpu-03.sh");
  const std::string s3 = Slurp(dir_ / "out/gpu-03/rocewatch-roce-config.sh");
  EXPECT_THAT(s3, HasSubstr("step ens1f0np0 'dcqcn rp.rpg_gd' 11"));  // the peers' value
  EXPECT_THAT(s3, HasSubstr("step ens2f0np0 mtu 9000"));
  EXPECT_THAT(s3, Not(HasSubstr("step ens1f0np0 pfc")));
  // The precheck still checks the versions, so gpu-03 would be skipped until its firmware is fixed.
  EXPECT_THAT(s3, HasSubstr("check_firmware mlx5_0 28.39.1002 28.39.2048"));
}

TEST_F(OnlyFindings, AStaleScriptIsRemovedWhenNothingIsLeftToFix) {
  WriteText(dir_ / "out/gpu-01/rocewatch-roce-config.sh", "#!/bin/sh\nexit 0\n");
  RunResult r = Sh(
      RoceLint() + " fix plan.json --only-findings --metrics-dir metrics --output-dir out", dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out/gpu-01/rocewatch-roce-config.sh"));
}

TEST_F(OnlyFindings, AnUnobservedNodeGetsNoScript) {
  fs::remove(dir_ / "metrics/gpu-02.prom");
  RunResult r = Sh(
      RoceLint() + " fix plan.json --only-findings --metrics-dir metrics --output-dir out", dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("gpu-02: no script: the node could not be observed"));
}

// counters.optional-disabled through --only-findings: mlx5_0's planned counters are off (after
// a reboot), mlx5_1's driver lacks one of them: a step for mlx5_0 only, mlx5_1 left to the
// operator with the reason.
TEST(OnlyFindingsOptionalCounters, DisabledCountersGetAStepACounterTheDriverLacksDoesNot) {
  using lint::testing::Cluster;
  Cluster c(1, 2);
  c.EditPlan(R"("pcie": {"speed_gts": 32, "width": 16},)",
             R"("pcie": {"speed_gts": 32, "width": 16},
      "optional_counters": ["cc_rx_cnp_pkts", "cc_rx_ce_pkts"],)");
  for (const char* dev : {"mlx5_0", "mlx5_1"}) {
    const std::string at = std::string("device=\"") + dev + "\",port=\"1\"";
    const bool first = std::string(dev) == "mlx5_0";
    c.Add(1, "roce_hw_optional_counter_enabled{" + at + ",counter=\"cc_rx_ce_pkts\"} " +
                 (first ? "0" : "1"));
    if (first) c.Add(1, "roce_hw_optional_counter_enabled{" + at + ",counter=\"cc_rx_cnp_pkts\"} 0");
    c.Add(1, "roce_hw_optional_counter_enabled{" + at + ",counter=\"cc_tx_cnp_pkts\"} 1");
  }
  testing::TestDir tmp;
  const fs::path dir = tmp.path();
  WriteText(dir / "plan.json", c.plan_json);
  WriteText(dir / "metrics" / (lint::testing::NodeName(1) + ".prom"), c.text[0]);
  RunResult r = Sh(
      RoceLint() + " fix plan.json --only-findings --metrics-dir metrics --output-dir out", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("gpu-01: out/gpu-01/rocewatch-roce-config.sh (1 NIC, 1 setting, "
                               "upstream tools)"));
  EXPECT_THAT(r.out, HasSubstr("counters.optional-disabled mlx5_1: the driver has no such optional "
                               "counter: upgrade the driver or firmware, or drop it from the "
                               "profile"));
  const std::string script = Slurp(dir / "out/gpu-01/rocewatch-roce-config.sh");
  EXPECT_THAT(script, HasSubstr("  step 'mlx5_0 port 1' 'optional counters' "
                                "cc_rx_ce_pkts,cc_rx_cnp_pkts \\\n"));
  EXPECT_THAT(script, Not(HasSubstr("'mlx5_1 port 1'")));
  EXPECT_THAT(script, HasSubstr("need_tool rdma"));
}

// Flag and plan errors exit 2 with a message.
TEST(FixCli, UnusableInput) {
  testing::TestDir tmp;
  const std::string example = Q(ExamplePlan());
  struct {
    std::string args;
    std::string message;
  } cases[] = {
      {"fix " + example,
       "6 nodes: give --node NAME for one script on standard output, or --output-dir DIR"},
      {"fix " + example + " --node gpu-1", "no node \"gpu-1\""},
      {"fix " + example + " --node gpu-01 --persist", "--persist writes several files per node"},
      {"fix " + example + " --tool ofed --node gpu-01",
       "--tool \"ofed\" is not one of: upstream, mlnx"},
      {"fix " + example + " --metrics-dir x --node gpu-01",
       "the metrics and switch flags go with --only-findings"},
      {"fix " + example + " --switch-config sw.json --node gpu-01",
       "the metrics and switch flags go with --only-findings"},
      {"fix " + example + " --only-findings --persist --output-dir o",
       "render it without --only-findings"},
      {"fix " + example + " --only-findings --metrics-dir nowhere --output-dir o",
       "no such directory: nowhere"},
  };
  for (const auto& c : cases) {
    RunResult r = Sh(RoceLint() + " " + c.args, tmp.path());
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
  }
  WriteText(fs::path(tmp.path()) / "bad.json",
            R"({"cluster": "c", "profiles": {"p": {"roce_priority": 3, "pfc_priorities": [4]}},
    "nodes": [{"name": "n1", "management_ip": "10.0.0.1", "nics": [
      {"ib_dev": "mlx5_0", "netdev": "eth0", "profile": "p", "roce_ip": "10.1.0.1/24"}]}]})");
  RunResult bad = Sh(RoceLint() + " fix bad.json", tmp.path());
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("the plan has errors; fix them first"));
  WriteText(fs::path(tmp.path()) / "odd.json",
            R"({"cluster": "c", "profiles": {"p": {"netdev_mtu": 9000}},
    "nodes": [{"name": "n1", "management_ip": "10.0.0.1", "nics": [
      {"ib_dev": "mlx5_0", "netdev": "eth0;reboot", "profile": "p", "roce_ip": "10.1.0.1/24"}]}]})");
  RunResult odd = Sh(RoceLint() + " fix odd.json", tmp.path());
  EXPECT_EQ(odd.code, 2);
  EXPECT_THAT(odd.err, HasSubstr("\"eth0;reboot\" cannot be used in a script"));
}

}  // namespace
}  // namespace rocewatch::fix_testing
