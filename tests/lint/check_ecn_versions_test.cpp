// ECN/DCQCN checks (notification and reaction point priorities, DCQCN parameters) and the
// version checks (firmware, driver, driver version).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using namespace checks;

TEST(CheckEcn, NotificationPointOffOnTheRocePriorityFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_ecn_enabled{netdev="ens1f0np0",point="np",priority="3"})", "0");
  Finding f = ExpectOnly(c.Run(), kEcnNp, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "3");
  EXPECT_EQ(f.found, "none");
  EXPECT_EQ(f.fix, "echo 1 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3");
}

TEST(CheckEcn, ReactionPointOffOnTheRocePriorityAndOnAnotherFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_ecn_enabled{netdev="ens2f0np0",point="rp",priority="3"})", "0");
  c.Set(1, R"(roce_ecn_enabled{netdev="ens2f0np0",point="rp",priority="5"})", "1");
  Finding f = ExpectOnly(c.Run(), kEcnRp, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "3");
  EXPECT_EQ(f.found, "5");
  EXPECT_EQ(f.fix,
            "echo 1 > /sys/class/net/ens2f0np0/ecn/roce_rp/enable/3; "
            "echo 0 > /sys/class/net/ens2f0np0/ecn/roce_rp/enable/5");
}

TEST(CheckEcn, EcnAsPlannedIsQuietAndSilencedWithoutThePlannedPriorities) {
  Cluster c(1, 2);
  auto findings = c.Run();
  EXPECT_TRUE(WithId(findings, kEcnNp.id).empty());
  EXPECT_TRUE(WithId(findings, kEcnRp.id).empty());
  c.EditPlan(R"("ecn": {"np_priorities": [3], "rp_priorities": [3]},)", "");
  c.Set(1, R"(roce_ecn_enabled{netdev="ens1f0np0",point="np",priority="3"})", "0");
  c.Set(1, R"(roce_ecn_enabled{netdev="ens1f0np0",point="rp",priority="3"})", "0");
  findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckEcn, UpstreamDriverWithoutEcnSysfsIsNotGuessed) {
  Cluster c(1, 2);
  c.Remove(1, "roce_ecn_enabled{");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckEcn, DcqcnParameterOffFires) {
  Cluster c(1, 2);
  c.Set(
      1,
      R"(roce_dcqcn_parameter{netdev="ens2f0np0",point="rp",parameter="rpg_hai_rate",source="sysfs"})",
      "100");
  Finding f = ExpectOnly(c.Run(), kDcqcnParameter, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "rp.rpg_hai_rate = 50");
  EXPECT_EQ(f.found, "rp.rpg_hai_rate = 100");
  EXPECT_EQ(f.fix, "echo 50 > /sys/class/net/ens2f0np0/ecn/roce_rp/rpg_hai_rate");
}

TEST(CheckEcn, DcqcnSysfsValueWinsOverDebugfs) {
  Cluster c(1, 2);
  // sysfs says 10, debugfs still 5: the NIC runs what sysfs set.
  c.Set(
      1,
      R"(roce_dcqcn_parameter{netdev="ens1f0np0",point="rp",parameter="rpg_ai_rate",source="sysfs"})",
      "10");
  Finding f = ExpectOnly(c.Run(), kDcqcnParameter, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "rp.rpg_ai_rate = 10");
  // debugfs only (upstream mlx5, root): its value counts.
  Cluster u(1, 2);
  u.Remove(
      1,
      R"(roce_dcqcn_parameter{netdev="ens1f0np0",point="np",parameter="cnp_dscp",source="sysfs"})");
  u.Set(
      1,
      R"(roce_dcqcn_parameter{netdev="ens1f0np0",point="np",parameter="cnp_dscp",source="debugfs"})",
      "46");
  f = ExpectOnly(u.Run(), kDcqcnParameter, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.expected, "np.cnp_dscp = 48");
  EXPECT_EQ(f.found, "np.cnp_dscp = 46");
}

TEST(CheckEcn, DcqcnAsPlannedIsQuietAndUnplannedParametersAreNotCompared) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kDcqcnParameter.id).empty());
  // rpg_gd is not in the profile's dcqcn.rp: only drift would compare it.
  c.Set(1,
        R"(roce_dcqcn_parameter{netdev="ens1f0np0",point="rp",parameter="rpg_gd",source="sysfs"})",
        "7");
  EXPECT_TRUE(c.Run().empty());
}

TEST(CheckVersions, FirmwareNotAcceptedFires) {
  Cluster c(1, 2);
  c.Remove(1, R"(roce_device_info{device="mlx5_1")");
  c.Add(
      1,
      R"(roce_device_info{device="mlx5_1",fw_version="28.36.1010",board_id="MT_0000000838",hca_type="MT4129",)"
      R"(node_guid="946d:ae03:00b1:2c3b",node_type="1: CA",driver="mlx5_core",pci_address="0000:3d:00.0"} 1)");
  Finding f = ExpectOnly(c.Run(), kFirmware, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "28.39.1002 or 28.39.2048");
  EXPECT_EQ(f.found, "28.36.1010");
  EXPECT_EQ(f.fix, "mlxfwmanager -d 0000:3d:00.0 -u (with the planned image), then reset the NIC");
}

TEST(CheckVersions, DriverDiffersFires) {
  Cluster c(1, 2);
  c.Remove(1, R"(roce_device_info{device="mlx5_0")");
  c.Add(
      1,
      R"(roce_device_info{device="mlx5_0",fw_version="28.39.2048",board_id="MT_0000000838",hca_type="MT4129",)"
      R"(node_guid="946d:ae03:00b1:2c3a",node_type="1: CA",driver="mlx5_vdpa",pci_address="0000:17:00.0"} 1)");
  Finding f = ExpectOnly(c.Run(), kDriver, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "mlx5_core");
  EXPECT_EQ(f.found, "mlx5_vdpa");
  EXPECT_EQ(f.fix, "bind 0000:17:00.0 to mlx5_core");
}

TEST(CheckVersions, DriverVersionNotAcceptedFires) {
  Cluster c(1, 2);
  c.Remove(1, R"(roce_ethtool_driver_info{netdev="ens2f0np0")");
  c.Add(
      1,
      R"(roce_ethtool_driver_info{netdev="ens2f0np0",driver="mlx5_core",version="5.15.0-105-generic",)"
      R"x(firmware="28.39.2048 (MT_0000000838)",bus_info="0000:3d:00.0"} 1)x");
  Finding f = ExpectOnly(c.Run(), kDriverVersion, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "6.8.0-60-generic");
  EXPECT_EQ(f.found, "5.15.0-105-generic");
  EXPECT_THAT(f.fix, HasSubstr("install the planned driver"));
}

TEST(CheckVersions, VersionsAsPlannedAreQuietAndSilencedWhenTheProfileOmitsThem) {
  Cluster c(1, 2);
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  c.EditPlan(R"("firmware": ["28.39.1002", "28.39.2048"],)", "");
  c.EditPlan(R"("driver": "mlx5_core",)", "");
  c.EditPlan(R"("driver_version": "6.8.0-60-generic",)", "");
  c.Remove(1, R"(roce_ethtool_driver_info{netdev="ens2f0np0")");
  c.Add(
      1,
      R"(roce_ethtool_driver_info{netdev="ens2f0np0",driver="mlx5_core",version="5.15.0-105-generic",)"
      R"x(firmware="28.36.1010 (MT_0000000838)",bus_info="0000:3d:00.0"} 1)x");
  findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

}  // namespace
}  // namespace rocewatch::lint::testing
