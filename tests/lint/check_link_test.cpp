// Link checks: port up, rate, netdev MTU, RoCE MTU, PCIe link trained at its maximum and the
// maximum the profile's.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace checks;

TEST(CheckLink, PortDownFiresWithTheLinkDownReason) {
  Cluster c(1, 2);
  // What mlx5 shows for a port whose link training fails: DOWN / Disabled, the fallback rate.
  c.Set(1, R"(roce_port_state{device="mlx5_1",port="1"})", "1");
  c.Set(1, R"(roce_port_physical_state{device="mlx5_1",port="1"})", "3");
  c.Set(1, R"(roce_port_rate_bytes_per_second{device="mlx5_1",port="1"})", "5000000000");
  c.Add(
      1,
      R"(roce_link_down_reason_info{netdev="ens2f0np0",reason="link_training_failure",detail="kr_frame_lock_not_acquired"} 1)");
  Finding f = ExpectOnly(c.Run(), kPortDown, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_EQ(f.port, "1");
  EXPECT_EQ(f.expected, "state ACTIVE (4), physical state LinkUp (5)");
  EXPECT_EQ(f.found, "state DOWN (1), physical state Disabled (3), link_training_failure/kr_frame_lock_not_acquired");
  EXPECT_EQ(f.fix,
            "ip link set dev ens2f0np0 up; check cable and switch port leaf-1:Ethernet8; ethtool "
            "ens2f0np0");
}

TEST(CheckLink, PortPollingWithoutAReasonFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_port_physical_state{device="mlx5_0",port="1"})", "2");
  Finding f = ExpectOnly(c.Run(), kPortDown, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "state ACTIVE (4), physical state Polling (2)");
}

TEST(CheckLink, ActiveLinkUpIsQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kPortDown.id).empty());
}

TEST(CheckLink, RateBelowTheProfileFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_port_rate_bytes_per_second{device="mlx5_0",port="1"})",
        "25000000000");  // 200 Gb/s
  Finding f = ExpectOnly(c.Run(), kLinkRate, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "400 Gb/s");
  EXPECT_EQ(f.found, "200 Gb/s");
  EXPECT_EQ(f.fix,
            "ethtool ens1f0np0 (check the cable/module and the switch port speed); "
            "ethtool -s ens1f0np0 speed 400000 autoneg off");
}

TEST(CheckLink, RateOfTheProfileIsQuietAndSilencedWithoutIt) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kLinkRate.id).empty());
  c.Set(1, R"(roce_port_rate_bytes_per_second{device="mlx5_0",port="1"})", "25000000000");
  c.EditPlan("\"link_speed_gbps\": 400,", "");
  EXPECT_TRUE(WithId(c.Run(), kLinkRate.id).empty());
}

TEST(CheckLink, NetdevMtuFires) {
  Cluster c(1, 2);
  // MTU 1500 also drops the active RoCE MTU to 1024: both are reported.
  c.Set(1, R"(roce_netdev_mtu_bytes{netdev="ens1f0np0"})", "1500");
  c.Set(1, R"(roce_port_active_mtu_bytes{device="mlx5_0",port="1"})", "1024");
  auto findings = c.Run();
  EXPECT_THAT(Ids(findings), ElementsAre("link.netdev-mtu", "link.roce-mtu")) << Describe(findings);
  const Finding& f = findings.at(0);
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.device, "mlx5_0");
  EXPECT_EQ(f.netdev, "ens1f0np0");
  EXPECT_EQ(f.expected, "9000");
  EXPECT_EQ(f.found, "1500");
  EXPECT_EQ(f.fix, "ip link set dev ens1f0np0 mtu 9000");
}

TEST(CheckLink, NetdevMtuAsPlannedIsQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kNetdevMtu.id).empty());
}

TEST(CheckLink, RoceMtuFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_port_active_mtu_bytes{device="mlx5_1",port="1"})", "2048");
  Finding f = ExpectOnly(c.Run(), kRoceMtu, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "4096");
  EXPECT_EQ(f.found, "2048");
  EXPECT_EQ(f.fix, "ip link set dev ens2f0np0 mtu 9000");
}

TEST(CheckLink, RoceMtuWithoutANetdevMtuInTheProfileSuggestsRoceMtuPlus96) {
  Cluster c(1, 2);
  c.EditPlan("\"netdev_mtu\": 9000,", "");
  c.Set(1, R"(roce_port_active_mtu_bytes{device="mlx5_1",port="1"})", "2048");
  Finding f = ExpectOnly(c.Run(), kRoceMtu, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.fix, "ip link set dev ens2f0np0 mtu 4192");
}

TEST(CheckLink, RoceMtuAsPlannedIsQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kRoceMtu.id).empty());
}

TEST(CheckLink, PcieDegradedFires) {
  Cluster c(1, 2);
  // x8 of x16: the slot and card can do x16, the link trained at x8.
  c.Set(1, R"(roce_pcie_link_width{device="mlx5_1",kind="current"})", "8");
  Finding f = ExpectOnly(c.Run(), kPcieDegraded, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "32 GT/s x16");
  EXPECT_EQ(f.found, "32 GT/s x8");
  EXPECT_EQ(f.fix,
            "reseat the NIC or riser, check the slot's bifurcation in the BIOS; "
            "lspci -s 0000:3d:00.0 -vv | grep -E 'LnkCap|LnkSta'");
}

TEST(CheckLink, PcieSpeedDegradedFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_pcie_link_speed_transfers_per_second{device="mlx5_0",kind="current"})",
        "16000000000");
  Finding f = ExpectOnly(c.Run(), kPcieDegraded, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "16 GT/s x16");
}

TEST(CheckLink, PcieAtItsMaximumIsQuiet) {
  Cluster c(1, 2);
  auto findings = c.Run();
  EXPECT_TRUE(WithId(findings, kPcieDegraded.id).empty());
  EXPECT_TRUE(WithId(findings, kPcieProfile.id).empty());
}

TEST(CheckLink, PcieProfileFiresForASlotCapableOfLess) {
  Cluster c(1, 2);
  // A Gen5 NIC in a Gen4 slot: trained at what the slot can do (not degraded), below the plan.
  c.Set(1, R"(roce_pcie_link_speed_transfers_per_second{device="mlx5_0",kind="current"})",
        "16000000000");
  c.Set(1, R"(roce_pcie_link_speed_transfers_per_second{device="mlx5_0",kind="max"})",
        "16000000000");
  Finding f = ExpectOnly(c.Run(), kPcieProfile, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "32 GT/s x16");
  EXPECT_EQ(f.found, "16 GT/s x16");
  EXPECT_THAT(f.fix, HasSubstr("lspci -s 0000:17:00.0 -vv"));
}

TEST(CheckLink, PcieProfileIsSilencedWithoutPcieInTheProfile) {
  Cluster c(1, 2);
  c.EditPlan("\"pcie\": {\"speed_gts\": 32, \"width\": 16},", "");
  c.Set(1, R"(roce_pcie_link_width{device="mlx5_0",kind="current"})", "8");
  c.Set(1, R"(roce_pcie_link_width{device="mlx5_0",kind="max"})", "8");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

}  // namespace
}  // namespace rocewatch::lint::testing
