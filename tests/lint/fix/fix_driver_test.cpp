// `roce-lint fix` per driver (lint/fix/drivers.h): on a Broadcom (bnxt_en) and an Intel (ice)
// NIC the script uses the generic kernel interfaces (iproute2 dcb, ip, ethtool, rdma, configfs
// rdma_cm) whatever --tool says, never MLNX_OFED's tools or mlx5's sysfs ecn files; ECN and the
// CNP's marking go to bnxt_re's configfs cc group, and are "not exposed by this driver" on ice.
// The scripts run on copies of the mlx5-roce fixture tree whose PCI devices are bound to the
// other driver, with the stand-in tools (tests/lint/fix/fake-tools); the rollback leaves every byte
// as it was. The driver comes from the profile here, and from the node's metrics
// (roce_device_info's driver label) with --only-findings.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/test_dir.h"
#include "fix_test_util.h"
#include "lint/check_test_util.h"

namespace rocewatch::fix_testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The plan's part of a script: precheck() and configure() (the shared parts name every tool).
std::string PlanPart(const std::string& script) {
  const auto at = script.find("\nprecheck() {");
  return at == std::string::npos ? std::string() : script.substr(at);
}

std::string Render(const std::string& node, const std::string& tool) {
  RunResult r = Sh(RoceLint() + " fix drivers-plan.json --node " + node + " --tool " + tool, FixData(""));
  EXPECT_EQ(r.code, 0) << r.err;
  return r.out;
}

// What no script may run on a NIC that is not mlx5's.
void ExpectNoMlx5Tools(const std::string& part) {
  for (const char* mlx5_only : {"mlnx_qos", "cma_roce_mode", "cma_roce_tos", "mlxfwmanager", "/ecn/roce_",
                                "check_ecn_sysfs", "mlnx_pfc", "mlnx_trust", "mlnx_dscp"})
    EXPECT_THAT(part, Not(HasSubstr(mlx5_only))) << mlx5_only;
}

TEST(FixDriver, BroadcomGetsDcbConfigfsAndBnxtReCcWhateverTheToolSet) {
  for (const char* tool : {"upstream", "mlnx"}) {
    SCOPED_TRACE(tool);
    const std::string part = PlanPart(Render("bcm-01", tool));
    ASSERT_FALSE(part.empty());
    ExpectNoMlx5Tools(part);
    EXPECT_THAT(part, HasSubstr("need_tool dcb 'iproute2: trust, PFC and DSCP settings'"));
    EXPECT_THAT(part, HasSubstr("check_rdma_cm_configfs"));
    EXPECT_THAT(part, HasSubstr("check_driver mlx5_0 bnxt_en"));
    EXPECT_THAT(part, HasSubstr("check_bnxt_cc mlx5_0"));
    EXPECT_THAT(part, HasSubstr("'dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off'"));
    EXPECT_THAT(part, HasSubstr("step mlx5_0 'bnxt_re cc ecn_enable (every priority)' 1 \\\n"
                                "    'bnxt_cc_value mlx5_0 ecn_enable' \\\n"
                                "    'bnxt_cc_write mlx5_0 ecn_enable 1' \\\n"
                                "    '_w=$(bnxt_cc_read mlx5_0 ecn_enable) && backup bnxt_cc mlx5_0 ecn_enable \"$_w\"'"));
    EXPECT_THAT(part, HasSubstr("'bnxt_cc_write mlx5_0 cnp_dscp 48'"));
    EXPECT_THAT(part, HasSubstr("'bnxt_cc_write mlx5_0 cnp_prio 6'"));
    EXPECT_THAT(part, HasSubstr("not_exposed ens1f0np0 'dcqcn rp.rpg_gd' 11 'bnxt_re'\\''s cc has no rpg_gd'"));
    EXPECT_THAT(part, HasSubstr("default_roce_mode"));  // configfs rdma_cm
  }
}

TEST(FixDriver, IntelGetsDcbAndSaysEcnIsNotExposed) {
  for (const char* tool : {"upstream", "mlnx"}) {
    SCOPED_TRACE(tool);
    const std::string part = PlanPart(Render("e810-01", tool));
    ASSERT_FALSE(part.empty());
    ExpectNoMlx5Tools(part);
    EXPECT_THAT(part, Not(HasSubstr("bnxt_cc")));
    EXPECT_THAT(part, HasSubstr("check_driver mlx5_0 ice"));
    EXPECT_THAT(part, HasSubstr("'dcb app replace dev ens1f0np0 dscp-prio 26:3'"));
    EXPECT_THAT(part, HasSubstr("not_exposed ens1f0np0 'ecn np priorities' 3 'ice has no ECN/DCQCN file'"));
    EXPECT_THAT(part, HasSubstr("not_exposed ens1f0np0 'dcqcn np.cnp_dscp' 48 'ice has no ECN/DCQCN file'"));
  }
}

// The mlx5 NICs of the same cluster keep MLNX_OFED's tools with --tool mlnx.
TEST(FixDriver, Mlx5KeepsMlnxTools) {
  RunResult r = Sh(RoceLint() + " fix " + Q(ExamplePlan()) + " --node gpu-01 --tool mlnx", FixData(""));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(PlanPart(r.out), HasSubstr("mlnx_qos -i ens1f0np0 --pfc"));
  EXPECT_THAT(PlanPart(r.out), HasSubstr("check_ecn_sysfs ens1f0np0"));
}

// A copy of the mlx5-roce tree whose PCI devices are bound to `driver`, without mlx5's sysfs ecn
// files; for bnxt_en, bnxt_re's configfs cc group of each device, as Broadcom's driver shows it
// ("%#x").
class DriverTree : public ::testing::Test {
 protected:
  void Make(const std::string& driver) {
    if (!IsRoot()) GTEST_SKIP() << "applying needs root (the script's precheck asks for it)";
    CopyFixtureTree(root_);
    for (const char* dev : {"mlx5_0", "mlx5_1"}) {
      const fs::path link = fs::canonical(root_ / "sys/class/infiniband" / dev / "device") / "driver";
      const fs::path target = fs::read_symlink(link);
      fs::remove(link);
      fs::create_directory_symlink(target.parent_path() / driver, link);
      fs::create_directories((link.parent_path() / target.parent_path() / driver).lexically_normal());
    }
    for (const char* nd : {"ens1f0np0", "ens2f0np0"}) fs::remove_all(fs::canonical(root_ / "sys/class/net" / nd) / "ecn");
    if (driver == "bnxt_en")
      for (const char* dev : {"mlx5_0", "mlx5_1"}) {
        const fs::path cc = root_ / "configfs/bnxt_re" / dev / "ports/1/cc";
        WriteText(cc / "ecn_enable", "0\n");
        WriteText(cc / "cnp_dscp", "0x2e\n");  // 46
        WriteText(cc / "cnp_prio", "0x6\n");
      }
    WriteFakeNetdev(state_, "ens1f0np0", {});
    FakeNetdev other;
    other.pfc = "0 0 0 1 0 0 0 0";
    WriteFakeNetdev(state_, "ens2f0np0", other);
  }
  std::string Script(const std::string& node, const std::string& tool) {
    const fs::path script = dir_ / (node + "." + tool + ".sh");
    WriteText(script, Render(node, tool));
    return script.string();
  }
  RunResult Run(const std::string& script, const std::string& args = "") {
    return Sh("sh " + Q(script) + (args.empty() ? "" : " " + args), dir_, FakeEnv(root_, state_));
  }
  std::map<std::string, std::string> Node() {
    std::map<std::string, std::string> out;
    for (const char* part : {"sys", "configfs"})
      for (auto it = fs::recursive_directory_iterator(root_ / part); it != fs::recursive_directory_iterator(); ++it) {
        const std::string rel = fs::relative(it->path(), root_).string();
        if (it->is_symlink()) out[rel] = "-> " + fs::read_symlink(it->path()).string();
        else if (it->is_regular_file()) out[rel] = Slurp(it->path());
        else out[rel + "/"] = "";
      }
    for (auto it = fs::directory_iterator(state_); it != fs::directory_iterator(); ++it)
      if (it->path().filename() != "calls") out["tools/" + it->path().filename().string()] = Slurp(it->path());
    return out;
  }
  // Apply, then roll back: every byte of the tree and the tools' state as it was.
  RunResult ApplyThenRollBack(const std::string& node, const std::string& tool) {
    const auto before = Node();
    const std::string script = Script(node, tool);
    RunResult apply = Run(script);
    EXPECT_EQ(apply.code, 0) << apply.out << apply.err;
    EXPECT_THAT(apply.out, HasSubstr(" failed=0"));
    EXPECT_NE(Node(), before);
    RunResult back = Run(script, "--rollback");
    EXPECT_EQ(back.code, 0) << back.out << back.err;
    EXPECT_THAT(back.out, HasSubstr(" failed=0"));
    EXPECT_EQ(Node(), before);
    if (!fs::exists(state_ / "calls")) return apply;
    const std::string calls = Slurp(state_ / "calls");
    EXPECT_THAT(calls, Not(HasSubstr("mlnx_qos"))) << calls;
    EXPECT_THAT(calls, Not(HasSubstr("cma_roce"))) << calls;
    return apply;
  }

  testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
  fs::path root_ = dir_ / "tree";
  fs::path state_ = dir_ / "state";
};

TEST_F(DriverTree, BroadcomApplyWritesBnxtReCcInHexAndRollsBackEveryByte) {
  Make("bnxt_en");
  for (const char* tool : {"mlnx", "upstream"}) {
    SCOPED_TRACE(tool);
    RunResult apply = ApplyThenRollBack("bcm-01", tool);
    EXPECT_THAT(apply.out, HasSubstr("mlx5_0: bnxt_re cc ecn_enable (every priority) 1 -> "));
    EXPECT_THAT(apply.out, HasSubstr("mlx5_0: bnxt_re cc cnp_dscp 48 -> "));
    EXPECT_THAT(apply.out, HasSubstr("mlx5_0: bnxt_re cc cnp_prio 6: unchanged"));
    EXPECT_THAT(apply.out, HasSubstr("ens1f0np0: dcqcn rp.rpg_gd 11 -> not exposed by this driver"));
  }
  // Applied, the files hold what Broadcom's driver reads back: hex.
  RunResult apply = Run(Script("bcm-01", "upstream"));
  ASSERT_EQ(apply.code, 0) << apply.out;
  EXPECT_EQ(Slurp(root_ / "configfs/bnxt_re/mlx5_0/ports/1/cc/cnp_dscp"), "0x30\n");
  EXPECT_EQ(Slurp(root_ / "configfs/bnxt_re/mlx5_0/ports/1/cc/ecn_enable"), "0x1\n");
}

TEST_F(DriverTree, IntelApplySetsDcbAndLeavesEcnAlone) {
  Make("ice");
  for (const char* tool : {"mlnx", "upstream"}) {
    SCOPED_TRACE(tool);
    RunResult apply = ApplyThenRollBack("e810-01", tool);
    EXPECT_THAT(apply.out, HasSubstr("ens1f0np0: ecn np priorities 3 -> not exposed by this driver (ice has no "
                                     "ECN/DCQCN file): left alone"));
    EXPECT_THAT(apply.out, HasSubstr("ens1f0np0: pfc 3 -> "));
  }
}

// A script written for one driver does not run on a NIC of another: the precheck says so.
TEST_F(DriverTree, TheBroadcomScriptRefusesAnIntelNic) {
  Make("ice");
  RunResult r = Run(Script("bcm-01", "upstream"));
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("precheck: "));
  EXPECT_THAT(r.out, HasSubstr("bnxt_en"));
}

// With --only-findings the driver is what the node's metrics say (roce_device_info's driver
// label), not the profile's: a Broadcom NIC under a profile that names no driver.
TEST(FixDriverFromMetrics, OnlyFindingsTakesTheDriverTheMetricsReport) {
  using lint::testing::Cluster;
  Cluster c(1, 2);
  c.EditPlan("\"driver\": \"mlx5_core\",", "");  // the profile names no driver
  for (std::string& text : c.text)
    for (std::size_t at = 0; (at = text.find("driver=\"mlx5_core\"", at)) != std::string::npos;)
      text.replace(at, 18, "driver=\"bnxt_en\"");
  c.Set(1, "roce_pfc_enabled{netdev=\"ens2f0np0\",priority=\"3\"}", "0");
  c.Set(1, "roce_ecn_enabled{netdev=\"ens1f0np0\",point=\"np\",priority=\"3\"}", "0");
  testing::TestDir tmp;
  const fs::path dir = tmp.path();
  WriteText(dir / "plan.json", c.plan_json);
  WriteText(dir / "metrics" / (lint::testing::NodeName(1) + ".prom"), c.text[0]);
  RunResult r = Sh(RoceLint() + " fix plan.json --only-findings --metrics-dir metrics --tool mlnx --node " +
                       lint::testing::NodeName(1),
                   dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string part = PlanPart(r.out);
  ExpectNoMlx5Tools(part);
  EXPECT_THAT(part, HasSubstr("check_driver mlx5_1 bnxt_en"));
  EXPECT_THAT(part, HasSubstr("dcb pfc set dev ens2f0np0"));
  EXPECT_THAT(part, HasSubstr("bnxt_cc_write mlx5_0 ecn_enable 1"));
}

}  // namespace
}  // namespace rocewatch::fix_testing
