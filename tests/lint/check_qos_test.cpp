// QoS checks: DCB support, trust mode, PFC priorities, DSCP → priority for RoCE and CNPs,
// 802.3x global pause, rdma_cm default RoCE mode and ToS.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using namespace checks;

// What the dcb collector serves for a netdev without DCB (EOPNOTSUPP): roce_dcb_supported 0
// and nothing else of the dcb families.
void WithoutDcb(Cluster& c, int node, const std::string& netdev) {
  const std::string n = "{netdev=\"" + netdev + "\"";
  c.Set(node, "roce_dcb_supported" + n + "}", "0");
  for (const char* family :
       {"roce_pfc_enabled", "roce_pfc_capability", "roce_dcb_pfc_pause_frames_total",
        "roce_ets_priority_traffic_class", "roce_qos_trust_info", "roce_dscp_priority"})
    c.Remove(node, family + n);
}

TEST(CheckQos, DcbUnsupportedFiresWhenTheProfileWantsPfc) {
  Cluster c(1, 2);
  WithoutDcb(c, 1, "ens2f0np0");
  Finding f = ExpectOnly(c.Run(), kDcbUnsupported, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_EQ(f.expected, "DCB (PFC on 3)");
  EXPECT_EQ(f.found, "no DCB support");
  EXPECT_EQ(f.fix, "plan the PF netdev of a RoCE NIC for ens2f0np0 (not a VF, bond or IPoIB interface), or fix the plan");
}

TEST(CheckQos, DcbUnsupportedFixFollowsTheDriverTheKernelReports) {
  struct Case {
    const char* driver;
    const char* pci_address;
    const char* says;
  };
  for (const Case& k : {Case{"ice", "0000:3d:00.0", "Safe Mode"}, Case{"bnxt_en", "0000:3d:00.0", "LLDP or DCBX agent"},
                        Case{"rdma_rxe", "", "software RDMA device"}}) {
    Cluster c(1, 2);
    WithoutDcb(c, 1, "ens2f0np0");
    c.Remove(1, R"(roce_device_info{device="mlx5_1")");
    c.Add(1, std::string(R"(roce_device_info{device="mlx5_1",fw_version="",driver=")") + k.driver +
                 R"(",pci_address=")" + k.pci_address + R"("} 1)");
    auto found = WithId(c.Run(), kDcbUnsupported.id);
    ASSERT_EQ(found.size(), 1u) << k.driver;
    EXPECT_THAT(found[0].fix, HasSubstr(k.says)) << k.driver;
    EXPECT_THAT(found[0].fix, ::testing::Not(HasSubstr("mlx5"))) << k.driver;
  }
}

TEST(CheckQos, DcbUnsupportedIsQuietForLossyRoceAndWithDcb) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kDcbUnsupported.id).empty());
  // pfc_priorities [] plans lossy RoCE: no PFC needed, so no DCB needed either.
  c.EditPlan("\"pfc_priorities\": [3],", "\"pfc_priorities\": [],");
  c.Set(1, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="3"})", "0");
  WithoutDcb(c, 1, "ens2f0np0");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckQos, TrustPcpWhereTheProfileWantsDscpFires) {
  Cluster c(1, 2);
  // `dcb app flush`: no DSCP entries left in the APP table, so the port trusts PCP.
  c.Remove(1, R"(roce_qos_trust_info{netdev="ens1f0np0")");
  c.Add(1, R"(roce_qos_trust_info{netdev="ens1f0np0",mode="pcp"} 1)");
  c.Remove(1, R"(roce_dscp_priority{netdev="ens1f0np0",)");
  Finding f = ExpectOnly(c.Run(), kTrust, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_EQ(f.expected, "dscp");
  EXPECT_EQ(f.found, "pcp");
  EXPECT_EQ(f.fix, "dcb app add dev ens1f0np0 dscp-prio 26:3 48:6");
}

TEST(CheckQos, TrustDscpWhereTheProfileWantsPcpFires) {
  Cluster c(1, 2);
  c.EditPlan("\"trust\": \"dscp\",", "\"trust\": \"pcp\",");
  auto findings = c.Run();
  auto trust = WithId(findings, kTrust.id);
  ASSERT_EQ(trust.size(), 2u) << Describe(findings);
  EXPECT_EQ(trust[0].expected, "pcp");
  EXPECT_EQ(trust[0].found, "dscp");
  EXPECT_EQ(trust[0].fix, "dcb app flush dev ens1f0np0 dscp-prio");
  // With trust pcp the DSCP map is not compared.
  EXPECT_TRUE(WithId(findings, kDscpPriority.id).empty());
}

TEST(CheckQos, TrustAsPlannedIsQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kTrust.id).empty());
}

TEST(CheckQos, PfcOffFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="3"})", "0");
  Finding f = ExpectOnly(c.Run(), kPfcPriorities, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_EQ(f.expected, "3");
  EXPECT_EQ(f.found, "none");
  EXPECT_EQ(f.fix,
            "dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off");
}

TEST(CheckQos, PfcOnAnExtraPriorityFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="4"})", "1");
  Finding f = ExpectOnly(c.Run(), kPfcPriorities, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.expected, "3");
  EXPECT_EQ(f.found, "3,4");
  EXPECT_EQ(f.message, "ens2f0np0 has PFC on 3,4, the profile wants 3.");
}

TEST(CheckQos, PfcAsPlannedIsQuietAndSilencedWithoutPfcInTheProfile) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kPfcPriorities.id).empty());
  c.EditPlan("\"pfc_priorities\": [3],", "");
  c.Set(1, R"(roce_pfc_enabled{netdev="ens2f0np0",priority="4"})", "1");
  EXPECT_TRUE(WithId(c.Run(), kPfcPriorities.id).empty());
}

TEST(CheckQos, RoceDscpOnTheWrongPriorityFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_dscp_priority{netdev="ens1f0np0",dscp="26"})", "0");
  Finding f = ExpectOnly(c.Run(), kDscpPriority, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "DSCP 26 → priority 3");
  EXPECT_EQ(f.found, "DSCP 26 → priority 0");
  EXPECT_EQ(f.message,
            "ens1f0np0 maps the RoCE DSCP 26 to priority 0, the profile wants priority 3.");
  EXPECT_EQ(f.fix, "dcb app replace dev ens1f0np0 dscp-prio 26:3");
}

// What the exporter serves by default (--collector.dcb.dscps=26,48, no full-tables): the
// DSCPs in use and the map's count and digest.
void DefaultDscpSeries(Cluster& c, int node, const std::string& netdev, int roce_prio) {
  const std::string n = "netdev=\"" + netdev + "\"";
  for (int dscp = 0; dscp < 64; ++dscp) {
    if (dscp != 26 && dscp != 48)
      c.Remove(node, "roce_dscp_priority{" + n + ",dscp=\"" + std::to_string(dscp) + "\"}");
  }
  c.Set(node, "roce_dscp_priority{" + n + ",dscp=\"26\"}", std::to_string(roce_prio));
  c.Add(node, "roce_dcb_table_entries{" + n + ",table=\"dscp_map\",digest=\"ff48da0573e6ace3\"} 64");
}

TEST(CheckQos, DefaultSeriesStillFindTheRoceDscpOnTheWrongPriority) {
  Cluster c(1, 1);
  DefaultDscpSeries(c, 1, "ens1f0np0", 0);
  Finding f = ExpectOnly(c.Run(), kDscpPriority, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "DSCP 26 → priority 0");
  EXPECT_EQ(f.fix, "dcb app replace dev ens1f0np0 dscp-prio 26:3");
}

TEST(CheckQos, DefaultSeriesAsPlannedAreQuiet) {
  Cluster c(1, 1);
  DefaultDscpSeries(c, 1, "ens1f0np0", 3);
  EXPECT_TRUE(WithId(c.Run(), kDscpPriority.id).empty());
}

TEST(CheckQos, APlannedDscpTheExporterDoesNotServeIsNamedNotCalledUnmapped) {
  Cluster c(1, 1);
  c.EditPlan("\"roce_dscp\": 26", "\"roce_dscp\": 24");
  DefaultDscpSeries(c, 1, "ens1f0np0", 3);
  auto dscp = WithId(c.Run(), kDscpPriority.id);
  ASSERT_EQ(dscp.size(), 1u);
  EXPECT_EQ(dscp[0].found, "DSCP 24 not exported");
  EXPECT_THAT(dscp[0].fix, HasSubstr("--collector.dcb.dscps=24"));
}

TEST(CheckQos, CnpDscpOnTheWrongPriorityOrUnmappedFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_dscp_priority{netdev="ens1f0np0",dscp="48"})", "3");
  c.Remove(1, R"(roce_dscp_priority{netdev="ens2f0np0",dscp="48"})");
  auto findings = c.Run();
  auto dscp = WithId(findings, kDscpPriority.id);
  ASSERT_EQ(dscp.size(), 2u) << Describe(findings);
  EXPECT_EQ(findings.size(), 2u) << Describe(findings);
  EXPECT_EQ(dscp[0].netdev, "ens1f0np0");
  EXPECT_EQ(dscp[0].expected, "DSCP 48 → priority 6");
  EXPECT_EQ(dscp[0].found, "DSCP 48 → priority 3");
  EXPECT_THAT(dscp[0].message, HasSubstr("the CNP DSCP 48"));
  EXPECT_EQ(dscp[0].fix, "dcb app replace dev ens1f0np0 dscp-prio 48:6");
  EXPECT_EQ(dscp[1].netdev, "ens2f0np0");
  EXPECT_EQ(dscp[1].found, "DSCP 48 → unmapped");
}

TEST(CheckQos, DscpMapAsPlannedIsQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kDscpPriority.id).empty());
}

TEST(CheckQos, GlobalPauseOnBesidePfcFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_pause_rx_enabled{netdev="ens2f0np0"})", "1");
  Finding f = ExpectOnly(c.Run(), kGlobalPause, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "rx off, tx off");
  EXPECT_EQ(f.found, "rx on, tx off");
  EXPECT_EQ(f.fix, "ethtool -A ens2f0np0 autoneg off rx off tx off");
}

TEST(CheckQos, GlobalPauseOffIsQuietAndLossyRoceDoesNotCare) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kGlobalPause.id).empty());
  c.EditPlan("\"pfc_priorities\": [3],", "\"pfc_priorities\": [],");
  for (const char* nd : {"ens1f0np0", "ens2f0np0"}) {
    c.Set(1, std::string("roce_pfc_enabled{netdev=\"") + nd + "\",priority=\"3\"}", "0");
    c.Set(1, std::string("roce_pause_rx_enabled{netdev=\"") + nd + "\"}", "1");
    c.Set(1, std::string("roce_pause_tx_enabled{netdev=\"") + nd + "\"}", "1");
  }
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckQos, RdmaCmRoceV1Fires) {
  Cluster c(1, 2);
  c.Remove(1, R"(roce_cm_default_roce_mode_info{device="mlx5_0")");
  c.Add(1, R"(roce_cm_default_roce_mode_info{device="mlx5_0",port="1",mode="IB/RoCE v1"} 1)");
  Finding f = ExpectOnly(c.Run(), kCmRoceMode, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.port, "1");
  EXPECT_EQ(f.expected, "RoCE v2");
  EXPECT_EQ(f.found, "IB/RoCE v1");
  EXPECT_EQ(f.fix,
            "mkdir -p /sys/kernel/config/rdma_cm/mlx5_0 && "
            "echo 'RoCE v2' > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode");
}

TEST(CheckQos, RdmaCmRoceV2IsQuietAndAbsentConfigfsIsNotGuessed) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kCmRoceMode.id).empty());
  // The configfs group was never created: the exporter serves nothing, nothing is compared.
  c.Remove(1, "roce_cm_default_");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckQos, RdmaCmTosZeroFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_cm_default_tos{device="mlx5_1",port="1"})", "0");
  Finding f = ExpectOnly(c.Run(), kCmTos, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "DSCP 26 (ToS 106)");
  EXPECT_EQ(f.found, "ToS 0 (DSCP 0)");
  EXPECT_EQ(f.fix,
            "mkdir -p /sys/kernel/config/rdma_cm/mlx5_1 && "
            "echo 106 > /sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos");
}

TEST(CheckQos, RdmaCmTosCarryingTheDscpIsQuietWhateverItsEcnBits) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kCmTos.id).empty());
  c.Set(1, R"(roce_cm_default_tos{device="mlx5_1",port="1"})", "104");  // DSCP 26, not-ECT
  EXPECT_TRUE(WithId(c.Run(), kCmTos.id).empty());
}

// rdma_cm's defaults are RDMA core settings (configfs), not DCB: a netdev without DCB (the
// dcbnl answer EOPNOTSUPP, as on a Soft-RoCE netdev) still has them checked.
TEST(CheckQos, RdmaCmTosAndModeAreCheckedWithoutDcb) {
  Cluster c(1, 2);
  c.EditPlan("\"pfc_priorities\": [3],", "\"pfc_priorities\": [],");  // no DCB needed
  c.Set(1, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="3"})", "0");
  WithoutDcb(c, 1, "ens2f0np0");
  c.Set(1, R"(roce_cm_default_tos{device="mlx5_1",port="1"})", "0");
  c.Remove(1, R"(roce_cm_default_roce_mode_info{device="mlx5_1")");
  c.Add(1, R"(roce_cm_default_roce_mode_info{device="mlx5_1",port="1",mode="IB/RoCE v1"} 1)");
  auto findings = c.Run();
  auto tos = WithId(findings, kCmTos.id), mode = WithId(findings, kCmRoceMode.id);
  ASSERT_EQ(tos.size(), 1u) << Describe(findings);
  ASSERT_EQ(mode.size(), 1u) << Describe(findings);
  EXPECT_EQ(tos[0].device, "mlx5_1");
  EXPECT_EQ(tos[0].found, "ToS 0 (DSCP 0)");
  EXPECT_EQ(mode[0].device, "mlx5_1");
  EXPECT_EQ(mode[0].found, "IB/RoCE v1");
}

}  // namespace
}  // namespace rocewatch::lint::testing
