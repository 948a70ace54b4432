// The rendered scripts executed for real, as root, in a network namespace with a veth pair: the
// RDMA side comes from a copy of the mlx5-roce fixture tree (ROCEWATCH_SYSFS) whose mlx5_0
// netdev is renamed to the veth, while `ip`, `dcb` and `ethtool` act on the real veth.
//   - the MTU step changes the veth's MTU from 1500 to 9000; a second run changes nothing;
//   - the DCB steps report that the veth has no DCB (dcbnl answers EOPNOTSUPP) and the script
//     exits 1 instead of claiming success;
//   - the precheck fails cleanly on a device missing from the tree and changes nothing;
//   - apply then --rollback takes the veth back to MTU 1500 and the tree's ECN and DCQCN files
//     back to their bytes.
// Skipped (with the reason) when not root or without iproute2.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "common/test_dir.h"
#include "fix_test_util.h"
#include "netns/netns.h"

namespace rocewatch::fix_testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kVeth = "rwfix0";

class ScriptInNamespace : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = rocewatch::testing::KernelTestSkipReason(); !why.empty()) GTEST_SKIP() << why;
    if (rocewatch::testing::FindProgram("dcb").empty()) GTEST_SKIP() << "needs iproute2's dcb";
    auto ns = rocewatch::testing::NetNamespace::Create("rwfix-" + std::to_string(::getpid()));
    ASSERT_TRUE(ns.ok()) << ns.error().message;
    ns_ = std::move(*ns);
    ASSERT_TRUE(ns_->Ip({"link", "add", kVeth, "type", "veth", "peer", "name", "rwfix1"}).ok());
    ASSERT_EQ(Mtu(), 1500);
    CopyFixtureTree(root_);
    RenameNetdev(root_, "ens1f0np0", kVeth);
  }

  int Mtu() {
    auto r = rocewatch::testing::RunCommand(
        {"ip", "-n", ns_->name(), "-o", "link", "show", "dev", kVeth});
    auto at = r.output.find(" mtu ");
    return at == std::string::npos ? -1 : std::atoi(r.output.c_str() + at + 5);
  }

  // The script of a one-NIC plan (mlx5_0 on the veth) with `profile`'s settings.
  std::string Render(const std::string& profile, const std::string& ib_dev = "mlx5_0") {
    WriteText(dir_ / "plan.json", R"({"cluster": "netns", "profiles": {"p": )" + profile + R"(},
      "nodes": [{"name": "veth-node", "management_ip": "10.0.0.1", "nics": [
        {"ib_dev": ")" + ib_dev + R"(", "netdev": ")" +
                                      kVeth +
                                      R"(", "profile": "p", "roce_ip": "10.1.0.1/24"}]}]})");
    RunResult r = Sh(RoceLint() + " fix plan.json > script.sh", dir_);
    EXPECT_EQ(r.code, 0) << r.err;
    return (dir_ / "script.sh").string();
  }

  RunResult RunInNamespace(const std::string& script, const std::string& args = "") {
    return Sh(
        "ip netns exec " + ns_->name() + " sh " + Q(script) + (args.empty() ? "" : " " + args),
        dir_,
        {{"ROCEWATCH_SYSFS", (root_ / "sys").string()},
         {"ROCEWATCH_CONFIGFS", (root_ / "configfs").string()},
         {"ROCEWATCH_STATE", BackupDir(root_).string()}});
  }

  std::unique_ptr<rocewatch::testing::NetNamespace> ns_;
  rocewatch::testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
  fs::path root_ = dir_ / "tree";
};

TEST_F(ScriptInNamespace, MtuStepChangesTheVethOnceThenNothing) {
  const std::string script =
      Render(R"({"netdev_mtu": 9000, "firmware": "28.39.2048", "driver": "mlx5_core"})");
  RunResult first = RunInNamespace(script);
  EXPECT_EQ(first.code, 0) << first.out << first.err;
  EXPECT_THAT(first.out, HasSubstr("precheck passed"));
  EXPECT_THAT(first.out, HasSubstr("rwfix0: mtu 9000 -> set (was: 1500)"));
  EXPECT_THAT(first.out,
              HasSubstr("rocewatch: node=veth-node mode=apply changed=1 unchanged=0 failed=0"));
  EXPECT_EQ(Mtu(), 9000);

  RunResult second = RunInNamespace(script);
  EXPECT_EQ(second.code, 0) << second.out << second.err;
  EXPECT_THAT(second.out, HasSubstr("rwfix0: mtu 9000: unchanged"));
  EXPECT_THAT(second.out,
              HasSubstr("rocewatch: node=veth-node mode=apply changed=0 unchanged=1 failed=0"));
  EXPECT_EQ(Mtu(), 9000);
}

TEST_F(ScriptInNamespace, RollbackRestoresTheVethAndTheTree) {
  const fs::path ecn = root_ / "sys/class/net" / kVeth / "ecn";
  WriteText(ecn / "roce_rp/rpg_gd", "12\n");
  WriteText(ecn / "roce_np/enable/3", "0\n");
  const std::string rpg_gd = Slurp(ecn / "roce_rp/rpg_gd");
  std::map<int, std::string> np;
  for (int p = 0; p < 8; ++p) np[p] = Slurp(ecn / "roce_np/enable" / std::to_string(p));
  const std::string script = Render(
      R"({"netdev_mtu": 9000, "ecn": {"np_priorities": [3]}, "dcqcn": {"rp": {"rpg_gd": 11}}})");
  RunResult apply = RunInNamespace(script);
  ASSERT_EQ(apply.code, 0) << apply.out << apply.err;
  EXPECT_EQ(Mtu(), 9000);
  EXPECT_EQ(Slurp(ecn / "roce_rp/rpg_gd"), "11\n");

  RunResult dry = RunInNamespace(script, "--rollback --dry-run");
  EXPECT_EQ(dry.code, 0) << dry.out;
  EXPECT_THAT(dry.out, HasSubstr("rwfix0: mtu 1500 -> would restore (now: 9000)"));
  EXPECT_EQ(Mtu(), 9000);

  RunResult back = RunInNamespace(script, "--rollback");
  EXPECT_EQ(back.code, 0) << back.out << back.err;
  EXPECT_THAT(back.out, HasSubstr("rwfix0: mtu 1500 -> restored (was: 9000)"));
  EXPECT_THAT(back.out, HasSubstr("rwfix0: ecn np priorities none -> restored (was: 3)"));
  EXPECT_THAT(back.out, HasSubstr("rwfix0: dcqcn rp.rpg_gd 12 -> restored (was: 11)"));
  EXPECT_THAT(back.out,
              HasSubstr("rocewatch: node=veth-node mode=rollback restored=3 unchanged=0 failed=0"));
  EXPECT_EQ(Mtu(), 1500);  // the kernel's answer
  EXPECT_EQ(Slurp(ecn / "roce_rp/rpg_gd"), rpg_gd);
  for (int p = 0; p < 8; ++p) EXPECT_EQ(Slurp(ecn / "roce_np/enable" / std::to_string(p)), np[p]);

  RunResult again = RunInNamespace(script, "--rollback");
  EXPECT_EQ(again.code, 0) << again.out;
  EXPECT_THAT(again.out, HasSubstr("backup=none"));
  EXPECT_EQ(Mtu(), 1500);
}

TEST_F(ScriptInNamespace, DryRunLeavesTheVethAlone) {
  const std::string script = Render(R"({"netdev_mtu": 9000})");
  RunResult r = RunInNamespace(script, "--dry-run");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_THAT(
      r.out,
      HasSubstr("rwfix0: mtu 9000 -> would set (now: 1500): ip link set dev rwfix0 mtu 9000"));
  EXPECT_EQ(Mtu(), 1500);
}

TEST_F(ScriptInNamespace, DcbStepsReportTheVethHasNoDcb) {
  const std::string script = Render(R"({"netdev_mtu": 9000, "trust": "dscp", "pfc_priorities": [3],
    "roce_dscp": 26, "roce_priority": 3})");
  RunResult r = RunInNamespace(script);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const std::string unsupported =
      "Operation not supported (rwfix0 does not support this setting: no DCB or driver support)";
  EXPECT_THAT(r.out, HasSubstr("rwfix0: trust dscp -> FAILED: cannot read it: Attribute read: " +
                               unsupported));
  EXPECT_THAT(r.out,
              HasSubstr("rwfix0: pfc 3 -> FAILED: cannot read it: Attribute read: " + unsupported));
  EXPECT_THAT(r.out,
              HasSubstr("rwfix0: dscp 26 priority 3 -> FAILED: cannot read it: Attribute read: " +
                        unsupported));
  // 802.3x pause: veth has no pause parameters either.
  EXPECT_THAT(r.out, HasSubstr("rwfix0: global pause rx off, tx off -> FAILED"));
  // The MTU is still set (and the rdma_cm ToS of the tree was right); the summary does not
  // claim success.
  EXPECT_THAT(r.out, HasSubstr("rwfix0: mtu 9000 -> set (was: 1500)"));
  EXPECT_THAT(r.out,
              HasSubstr("rocewatch: node=veth-node mode=apply changed=1 unchanged=1 failed=4"));
  EXPECT_THAT(r.out, Not(HasSubstr("-> set (was: pcp)")));
}

TEST_F(ScriptInNamespace, PrecheckFailsOnAMissingDeviceAndChangesNothing) {
  const std::string script = Render(R"({"netdev_mtu": 9000})", "mlx5_7");
  RunResult r = RunInNamespace(script);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("precheck: mlx5_7 not in " + (root_ / "sys").string() +
                               "/class/infiniband; present: mlx5_0 mlx5_1 mlx5_2 mlx5_3"));
  EXPECT_THAT(r.out, HasSubstr("precheck failed: 1 problem; nothing was changed"));
  EXPECT_THAT(r.out, Not(HasSubstr("mtu")));
  EXPECT_EQ(Mtu(), 1500);
}

TEST_F(ScriptInNamespace, PrecheckFailsWhenTheNetdevIsNotTheDevicesOwn) {
  // mlx5_1's netdev in the tree is ens2f0np0, not the veth.
  const std::string script = Render(R"({"netdev_mtu": 9000})", "mlx5_1");
  RunResult r = RunInNamespace(script);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_THAT(r.out, HasSubstr("precheck: mlx5_1 maps to netdev ens2f0np0, not rwfix0 as planned"));
  EXPECT_EQ(Mtu(), 1500);
}

}  // namespace
}  // namespace rocewatch::fix_testing
