// Drift: a NIC whose setting differs from a clear majority of the NICs of its profile, on
// settings the plan does not fix (those have their own checks).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::ElementsAre;
using namespace checks;

TEST(CheckDrift, PfcOnHereOffThereWhileThePlanIsSilent) {
  Cluster c(2, 2);  // four NICs of profile roce-400g
  c.EditPlan("\"pfc_priorities\": [3],", "");
  c.Set(2, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="4"})", "1");
  auto findings = c.Run();
  Finding f = ExpectOnly(findings, kDrift, "gpu-02", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.port, "1");
  EXPECT_EQ(f.expected, "pfc = 3");
  EXPECT_EQ(f.found, "pfc = 3,4");
  EXPECT_EQ(f.message, "ens2f0np0 has pfc = 3,4, while 3 of 4 NICs with profile roce-400g have 3.");
  EXPECT_EQ(f.fix,
            "dcb pfc set dev ens2f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off");
}

// Drift keeps one stored set of settings per distinct set, not one per NIC.
TEST(CheckDrift, NicsSetAlikeShareOneStoredSet) {
  SettingsPool pool;
  const std::uint32_t pfc = pool.Intern("pfc"), mtu = pool.Intern("netdev_mtu");
  const std::uint32_t three = pool.Intern("3"), nine_k = pool.Intern("9000"), none = pool.Intern("none");
  const std::uint32_t a = pool.InternSet({{pfc, three}, {mtu, nine_k}});
  const std::uint32_t b = pool.InternSet({{pfc, three}, {mtu, nine_k}});
  const std::uint32_t c = pool.InternSet({{pfc, none}, {mtu, nine_k}});
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(pool.SetCount(), 2u);
  EXPECT_EQ(pool.Text(pool.Set(c).front().second), "none");
}

TEST(CheckDrift, ASettingThePlanFixesIsNotDrift) {
  Cluster c(2, 2);
  c.Set(2, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="4"})", "1");
  auto findings = c.Run();
  EXPECT_THAT(Ids(findings), ElementsAre("qos.pfc-priorities")) << Describe(findings);
}

TEST(CheckDrift, NoMajorityNoDrift) {
  Cluster c(2, 2);
  c.EditPlan("\"pfc_priorities\": [3],", "");
  c.Set(1, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="4"})", "1");
  c.Set(2, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="4"})", "1");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckDrift, TwoNicsAreNoMajority) {
  Cluster c(1, 2);
  c.EditPlan("\"pfc_priorities\": [3],", "");
  c.Set(1, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="4"})", "1");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckDrift, UnplannedDcqcnParameterAndDscpEntryDrift) {
  Cluster c(1, 4);
  c.Set(1,
        R"(roce_dcqcn_parameter{netdev="ens3f0np0",point="rp",parameter="rpg_gd",source="sysfs"})",
        "7");
  c.Set(1, R"(roce_dscp_priority{netdev="ens4f0np0",dscp="46"})", "3");
  auto findings = c.Run();
  ASSERT_EQ(findings.size(), 2u) << Describe(findings);
  EXPECT_EQ(findings[0].check, "drift.setting");
  EXPECT_EQ(findings[0].device, "mlx5_2");
  EXPECT_EQ(findings[0].expected, "dcqcn.rp.rpg_gd = 11");
  EXPECT_EQ(findings[0].found, "dcqcn.rp.rpg_gd = 7");
  EXPECT_EQ(findings[0].fix, "echo 11 > /sys/class/net/ens3f0np0/ecn/roce_rp/rpg_gd");
  EXPECT_EQ(findings[1].device, "mlx5_3");
  EXPECT_EQ(findings[1].expected, "dscp.46 = 5");
  EXPECT_EQ(findings[1].found, "dscp.46 = 3");
  EXPECT_EQ(findings[1].fix, "dcb app replace dev ens4f0np0 dscp-prio 46:5");
}

TEST(CheckDrift, GlobalPauseDriftsOnlyWhereThePlanDoesNotCoverIt) {
  Cluster c(1, 4);
  c.EditPlan("\"pfc_priorities\": [3],", "");
  c.Set(1, R"(roce_pause_tx_enabled{netdev="ens1f0np0"})", "1");
  Finding f = ExpectOnly(c.Run(), kDrift, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.expected, "pause.tx = 0");
  EXPECT_EQ(f.found, "pause.tx = 1");
}

TEST(CheckDrift, UnreachableNodesDoNotVote) {
  Cluster c(3, 1);
  c.EditPlan("\"pfc_priorities\": [3],", "");
  c.Set(1, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="4"})", "1");
  c.Unreachable(3, "scrape http://10.0.0.13:9879/metrics: connection refused");
  auto findings = c.Run();
  EXPECT_THAT(Ids(findings), ElementsAre("inventory.exporter-unreachable")) << Describe(findings);
}

}  // namespace
}  // namespace rocewatch::lint::testing
