// The rendered scripts run against a writable copy of the mlx5-roce fixture tree
// (ROCEWATCH_SYSFS / ROCEWATCH_CONFIGFS) with stand-in tools (tests/lint/fix/fake-tools: dcb, ip,
// ethtool, mlnx_qos, cma_roce_*) that keep their state in files: every step reads first, changes
// only what differs, a second run changes nothing, --dry-run changes nothing, a failed precheck
// changes nothing. Applying needs root (the scripts' precheck asks for it); --dry-run does not.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/test_dir.h"
#include "fix_test_util.h"

namespace rocewatch::fix_testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ScriptOnFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    CopyFixtureTree(root_);
    WriteText(root_ / "sys/module/mlx5_core/version", "24.04-0.6.6\n");
  }

  // Renders PLAN's script for NODE with TOOL into the test directory.
  std::string Render(const std::string& plan, const std::string& node, const std::string& tool) {
    const std::string script = (dir_ / (node + "." + tool + ".sh")).string();
    RunResult r = Sh(
        RoceLint() + " fix " + Q(plan) + " --node " + node + " --tool " + tool + " > " + Q(script),
        dir_);
    EXPECT_EQ(r.code, 0) << r.err;
    return script;
  }
  RunResult RunScript(const std::string& script, const std::string& args = "") {
    return Sh("sh " + Q(script) + (args.empty() ? "" : " " + args), dir_, FakeEnv(root_, state_));
  }
  std::string Sys(const std::string& rel) { return Slurp(root_ / "sys" / rel); }
  std::string Cfg(const std::string& rel) { return Slurp(root_ / "configfs" / rel); }
  std::string State(const std::string& rel) { return Slurp(state_ / rel); }

  void SeedFaults() { fix_testing::SeedFaults(root_, state_); }

  testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
  fs::path root_ = dir_ / "tree";
  fs::path state_ = dir_ / "state";
};

TEST_F(ScriptOnFixture, UpstreamScriptBringsTheNodeToThePlanOnce) {
  if (!IsRoot()) GTEST_SKIP() << "applying needs root (the script's precheck asks for it)";
  SeedFaults();
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");

  // --dry-run changes nothing, so it also counts the DSCP entries that the trust step would add.
  RunResult dry = RunScript(script, "--dry-run");
  EXPECT_EQ(dry.code, 0) << dry.out;
  EXPECT_THAT(
      dry.out,
      HasSubstr("ens1f0np0: pfc 3 -> would set (now: none): dcb pfc set dev ens1f0np0 prio-pfc"));
  EXPECT_THAT(
      dry.out,
      HasSubstr("rocewatch: node=gpu-01 mode=dry-run would_change=12 unchanged=46 failed=0"));
  EXPECT_EQ(State("ens1f0np0.pfc"), "0 0 0 0 0 0 0 0\n");  // nothing changed
  EXPECT_EQ(Sys("class/net/ens2f0np0/ecn/roce_rp/rpg_gd"), "12\n");

  RunResult first = RunScript(script);
  EXPECT_EQ(first.code, 0) << first.out;
  for (const char* line : {
           "ens1f0np0: trust dscp -> set (was: pcp)",
           "ens1f0np0: pfc 3 -> set (was: none)",
           "ens1f0np0: dscp 26 priority 3: unchanged",  // the trust step added it
           "ens1f0np0: ecn np priorities 3 -> set (was: none)",
           "ens1f0np0: ecn rp priorities 3 -> set (was: 3,5)",
           "ens1f0np0: global pause rx off, tx off -> set (was: rx on, tx on)",
           "ens1f0np0: mtu 9000 -> set (was: 1500)",
           "ens2f0np0: pfc 3: unchanged",
           "ens2f0np0: dcqcn np.cnp_dscp 48 -> set (was: 46)",
           "ens2f0np0: dcqcn rp.rpg_gd 11 -> set (was: 12)",
           "mlx5_1 port 1: rdma_cm default_roce_mode RoCE v2 -> set (was: IB/RoCE v1)",
           "mlx5_1 port 1: rdma_cm default_roce_tos dscp 26 -> set (was: 0)",
           "rocewatch: node=gpu-01 mode=apply changed=10 unchanged=48 failed=0",
       })
    EXPECT_THAT(first.out, HasSubstr(line));
  EXPECT_EQ(State("ens1f0np0.pfc"), "0 0 0 1 0 0 0 0\n");
  EXPECT_EQ(State("ens1f0np0.app"), "26 3\n48 6\n");
  EXPECT_EQ(State("ens1f0np0.mtu"), "9000\n");
  EXPECT_EQ(State("ens1f0np0.pause"), "off off off\n");
  EXPECT_EQ(Sys("class/net/ens1f0np0/ecn/roce_np/enable/3"), "1\n");
  EXPECT_EQ(Sys("class/net/ens1f0np0/ecn/roce_rp/enable/5"), "0\n");
  EXPECT_EQ(Sys("class/net/ens2f0np0/ecn/roce_rp/rpg_gd"), "11\n");
  EXPECT_EQ(Cfg("rdma_cm/mlx5_1/ports/1/default_roce_mode"), "RoCE v2\n");
  EXPECT_EQ(Cfg("rdma_cm/mlx5_1/ports/1/default_roce_tos"), "106\n");

  fs::remove(state_ / "calls");
  RunResult second = RunScript(script);
  EXPECT_EQ(second.code, 0) << second.out;
  EXPECT_THAT(second.out,
              HasSubstr("rocewatch: node=gpu-01 mode=apply changed=0 unchanged=58 failed=0"));
  EXPECT_EQ(CountLines(second.out, ": unchanged"), 58);
  // The second run only read: no dcb set/add/replace, no ip link set, no ethtool -A.
  const std::string calls = State("calls");
  EXPECT_THAT(calls, Not(HasSubstr(" set ")));
  EXPECT_THAT(calls, Not(HasSubstr("app add")));
  EXPECT_THAT(calls, Not(HasSubstr("app replace")));
  EXPECT_THAT(calls, Not(HasSubstr("ethtool -A")));
}

TEST_F(ScriptOnFixture, MlnxScriptBringsTheNodeToThePlanOnce) {
  if (!IsRoot()) GTEST_SKIP() << "applying needs root (the script's precheck asks for it)";
  SeedFaults();
  WriteText(state_ / "ens2f0np0.trust", "dscp\n");
  const std::string script = Render(ExamplePlan(), "gpu-01", "mlnx");
  RunResult first = RunScript(script);
  EXPECT_EQ(first.code, 0) << first.out;
  for (const char* line : {
           "ens1f0np0: trust dscp -> set (was: pcp)",
           "ens1f0np0: pfc 3 -> set (was: none)",
           "ens1f0np0: dscp 26 priority 3: unchanged",  // mlnx_qos's default map has 26 on 3
           "ens1f0np0: dscp 48 priority 6: unchanged",
           "ens2f0np0: trust dscp: unchanged",
           "mlx5_1 port 1: rdma_cm default_roce_mode RoCE v2 -> set (was: IB/RoCE v1)",
           "mlx5_1 port 1: rdma_cm default_roce_tos dscp 26 -> set (was: 0)",
       })
    EXPECT_THAT(first.out, HasSubstr(line));
  EXPECT_THAT(State("calls"), HasSubstr("mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0"));
  EXPECT_THAT(State("calls"), HasSubstr("cma_roce_mode -d mlx5_1 -p 1 -m 2"));
  RunResult second = RunScript(script);
  EXPECT_EQ(second.code, 0) << second.out;
  EXPECT_THAT(second.out, HasSubstr("changed=0 unchanged=58 failed=0"));
}

TEST_F(ScriptOnFixture, MlnxDscpMapIsRepaired) {
  if (!IsRoot()) GTEST_SKIP() << "applying needs root (the script's precheck asks for it)";
  SeedFaults();
  std::string map;
  for (int d = 0; d < 64; ++d)
    map += std::to_string(d) + " " + std::to_string(d == 26 ? 0 : d / 8) + "\n";
  WriteText(state_ / "ens2f0np0.dscp2prio", map);
  WriteText(state_ / "ens2f0np0.trust", "dscp\n");
  const std::string script = Render(ExamplePlan(), "gpu-01", "mlnx");
  RunResult r = RunScript(script);
  EXPECT_THAT(r.out, HasSubstr("ens2f0np0: dscp 26 priority 3 -> set (was: 0)"));
  EXPECT_THAT(State("calls"), HasSubstr("mlnx_qos -i ens2f0np0 --dscp2prio set,26,3"));
}

TEST_F(ScriptOnFixture, TrustPcpFlushesTheDscpEntries) {
  if (!IsRoot()) GTEST_SKIP() << "applying needs root (the script's precheck asks for it)";
  FakeNetdev n;
  n.pfc = "0 0 0 1 0 0 0 0";
  n.app = "26 3\n48 6\n";
  n.mtu = "4200";
  n.pause = "off off off";
  WriteFakeNetdev(state_, "ens1f0np0", n);
  const std::string script = Render(FixData("trust-pcp-plan.json"), "gpu-31", "upstream");
  RunResult r = RunScript(script);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("ens1f0np0: trust pcp -> set (was: dscp)"));
  EXPECT_THAT(r.out, HasSubstr("ens1f0np0: dcqcn rp.rpg_ai_rate 10 -> set (was: 5)"));
  EXPECT_EQ(State("ens1f0np0.app"), "");
  EXPECT_THAT(RunScript(script).out, HasSubstr("changed=0"));
}

TEST_F(ScriptOnFixture, UnsupportedDcbFailsClearlyAndTheRestIsStillApplied) {
  if (!IsRoot()) GTEST_SKIP() << "applying needs root (the script's precheck asks for it)";
  SeedFaults();
  FakeNetdev veth_like;
  veth_like.dcb = false;
  WriteFakeNetdev(state_, "ens1f0np0", veth_like);
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");
  RunResult r = RunScript(script);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(
      r.out,
      HasSubstr(
          "ens1f0np0: pfc 3 -> FAILED: cannot read it: Attribute read: Operation not supported "
          "(ens1f0np0 does not support this setting: no DCB or driver support)"));
  EXPECT_EQ(CountLines(r.out, "ens1f0np0: ") - CountLines(r.out, "ens1f0np0: dcqcn") -
                CountLines(r.out, "ens1f0np0: ecn") - CountLines(r.out, "ens1f0np0: global") -
                CountLines(r.out, "ens1f0np0: mtu"),
            4);  // trust, pfc and the two DSCP entries
  EXPECT_EQ(CountLines(r.out, "FAILED"), 4);
  EXPECT_THAT(r.out, HasSubstr("ens1f0np0: mtu 9000 -> set (was: 1500)"));
  EXPECT_THAT(r.out, HasSubstr("failed=4"));
  EXPECT_THAT(r.out, Not(HasSubstr("failed=0")));
}

TEST_F(ScriptOnFixture, PrecheckNamesWhatIsMissingAndChangesNothing) {
  SeedFaults();
  testing::TestDir plans;
  WriteText(fs::path(plans.path()) / "plan.json", R"({"cluster": "c",
    "profiles": {"p": {"netdev_mtu": 9000, "pfc_priorities": [3], "roce_priority": 3,
                       "firmware": ["28.40.1000"], "driver": "mlx5_core"}},
    "nodes": [{"name": "gpu-01", "management_ip": "10.0.0.1", "nics": [
      {"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "p", "roce_ip": "10.1.0.1/24"},
      {"ib_dev": "mlx5_10", "netdev": "ens10f0np0", "profile": "p", "roce_ip": "10.1.1.1/24"},
      {"ib_dev": "mlx5_2", "netdev": "ens4f0np0", "profile": "p", "roce_ip": "10.1.2.1/24"}]}]})");
  const std::string script =
      Render((fs::path(plans.path()) / "plan.json").string(), "gpu-01", "upstream");
  for (const char* mode : {"", "--precheck", "--dry-run"}) {
    RunResult r = RunScript(script, mode);
    EXPECT_EQ(r.code, 3) << mode << "\n" << r.out;
    const std::string ib = (root_ / "sys/class/infiniband").string();
    EXPECT_THAT(r.out, HasSubstr("precheck: mlx5_10 not in " + ib +
                                 "; present: mlx5_0 mlx5_1 mlx5_2 mlx5_3"));
    EXPECT_THAT(r.out,
                HasSubstr("precheck: mlx5_2 maps to netdev ens3f0np0, not ens4f0np0 as planned"));
    EXPECT_THAT(
        r.out,
        HasSubstr("precheck: mlx5_0 firmware is 28.39.2048, the profile accepts 28.40.1000"));
    EXPECT_THAT(
        r.out,
        HasSubstr("precheck: mlx5_2 firmware is 28.39.2048, the profile accepts 28.40.1000"));
    EXPECT_THAT(r.out, HasSubstr("precheck failed: 4 problems; nothing was changed"));
    EXPECT_THAT(r.out, Not(HasSubstr("->")));
  }
  EXPECT_EQ(State("ens1f0np0.mtu"), "1500\n");
  EXPECT_EQ(State("calls").find(" set "), std::string::npos);
}

TEST_F(ScriptOnFixture, PrecheckNamesMissingToolsAndDriverFiles) {
  const std::string script = Render(ExamplePlan(), "gpu-01", "mlnx");
  fs::remove_all(root_ / "sys/devices/pci0000:3c/0000:3c:01.0/0000:3d:00.0/net/ens2f0np0/ecn");
  WriteText(root_ / "sys/module/mlx5_core/version", "23.10-1.1.9\n");
  // Without the stand-ins in PATH (and no MLNX_OFED here): mlnx_qos and cma_roce_* are missing.
  auto env = FakeEnv(root_, state_);
  env["PATH"] = "/usr/bin:/bin";
  RunResult r = Sh("sh " + Q(script) + " --dry-run", dir_, env);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_THAT(
      r.out,
      HasSubstr("precheck: mlnx_qos not found in PATH (MLNX_OFED: trust, PFC and DSCP settings)"));
  EXPECT_THAT(r.out, HasSubstr("precheck: cma_roce_mode not found in PATH"));
  EXPECT_THAT(r.out, HasSubstr("precheck: mlx5_1 driver mlx5_core version is 23.10-1.1.9, the "
                               "profile accepts 24.04-0.6.6"));
  EXPECT_THAT(r.out, HasSubstr("precheck: ens2f0np0 has no " + (root_ / "sys").string() +
                               "/class/net/ens2f0np0/ecn: its driver offers no ECN/DCQCN files"));
}

TEST_F(ScriptOnFixture, DryRunNeedsNoRootAndChangesNothing) {
  SeedFaults();
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");
  RunResult r = RunScript(script, "--dry-run");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("would_change=12"));
  EXPECT_EQ(State("ens1f0np0.mtu"), "1500\n");
  EXPECT_EQ(Cfg("rdma_cm/mlx5_1/ports/1/default_roce_mode"), "IB/RoCE v1\n");
}

TEST_F(ScriptOnFixture, BadArgumentsExitTwo) {
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");
  RunResult r = RunScript(script, "--apply");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("usage: rocewatch-roce-config.sh [--dry-run | --precheck | --force "
                               "| --rollback [--dry-run]]"));
  EXPECT_EQ(RunScript(script, "--dry-run --precheck").code, 2);
  EXPECT_EQ(RunScript(script, "--help").code, 0);
}

TEST_F(ScriptOnFixture, PrecheckOnlyChecks) {
  if (!IsRoot()) GTEST_SKIP() << "the precheck asks for root";
  SeedFaults();
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");
  RunResult r = RunScript(script, "--precheck");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("precheck passed (node gpu-01"));
  EXPECT_THAT(r.out, Not(HasSubstr("->")));
  EXPECT_THAT(r.out, Not(HasSubstr("rocewatch: node=")));
}

}  // namespace
}  // namespace rocewatch::fix_testing
