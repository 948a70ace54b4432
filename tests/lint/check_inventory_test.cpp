// Inventory checks: exporter reachable, collectors succeeding, planned devices present and
// wired to the planned netdevs with the planned RoCE IPs, no unplanned devices. Plus the
// healthy cluster (no findings at all) and the order RunChecks returns findings in.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace checks;

TEST(CheckHealthy, AHealthyClusterHasNoFindings) {
  Cluster c(3, 2);
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckHealthy, AHealthyClusterHasNoFindingsOverACounterWindowEither) {
  Cluster c(3, 4);
  c.StartWindow(30);
  auto findings = c.Run();
  EXPECT_TRUE(c.views[0].has_increase());
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckInventory, UnreachableExporterFiresAndNothingElse) {
  Cluster c(2, 2);
  c.Unreachable(2, "scrape http://10.0.0.12:9879/metrics: connection refused");
  auto findings = c.Run();
  Finding f = ExpectOnly(findings, kExporterUnreachable, "gpu-02", "", "");
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_EQ(f.expected, "metrics from http://10.0.0.12:9879/metrics");
  EXPECT_EQ(f.found, "scrape http://10.0.0.12:9879/metrics: connection refused");
  EXPECT_EQ(
      f.fix,
      "systemctl status roce_exporter on gpu-02; check that 10.0.0.12:9879 is reachable from here");
  EXPECT_THAT(f.message, HasSubstr("connection refused"));
}

TEST(CheckInventory, ReachableExporterIsQuiet) {
  Cluster c(2, 2);
  EXPECT_TRUE(WithId(c.Run(), kExporterUnreachable.id).empty());
}

TEST(CheckInventory, FailingCollectorFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_exporter_collector_success{collector="dcb"})", "0");
  Finding f = ExpectOnly(c.Run(), kCollectorFailing, "gpu-01", "", "");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "collector dcb succeeding");
  EXPECT_EQ(f.found, "collector dcb failing");
  EXPECT_EQ(f.fix, "journalctl -u roce_exporter on gpu-01 for the collector's error");
}

TEST(CheckInventory, SucceedingCollectorsAreQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kCollectorFailing.id).empty());
}

TEST(CheckInventory, MissingDeviceListsThePresentOnes) {
  Cluster c(1, 2);
  // The plan wants mlx5_0 and mlx5_1; the node shows mlx5_0 only (mlx5_1 fell off the bus).
  c.Remove(1, R"(roce_device_info{device="mlx5_1")");
  auto findings = c.Run();
  Finding f = ExpectOnly(findings, kDeviceMissing, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_EQ(f.expected, "mlx5_1 present");
  EXPECT_EQ(f.found, "present: mlx5_0");
  EXPECT_EQ(f.message, "mlx5_1 is not in /sys/class/infiniband on gpu-01; present: mlx5_0.");
  EXPECT_THAT(f.fix, HasSubstr("lspci -d 15b3:"));
  EXPECT_THAT(f.fix, HasSubstr("modprobe mlx5_ib"));
}

TEST(CheckInventory, NoRdmaDevicesAtAll) {
  Cluster c(1, 2);
  c.Remove(1, "roce_device_info{");
  auto findings = WithId(c.Run(), kDeviceMissing.id);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].found, "no RDMA devices");
  EXPECT_THAT(findings[0].message, HasSubstr("the node has no RDMA devices"));
}

TEST(CheckInventory, PresentDevicesAreQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kDeviceMissing.id).empty());
}

TEST(CheckInventory, NetdevMismatchFires) {
  Cluster c(1, 2);
  // udev named mlx5_1's netdev differently from the plan.
  c.Remove(1, R"(roce_port_info{device="mlx5_1")");
  c.Add(
      1,
      R"(roce_port_info{device="mlx5_1",port="1",netdev="enp61s0f0np0",link_layer="Ethernet"} 1)");
  Finding f = ExpectOnly(c.Run(), kNetdevMismatch, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "ens2f0np0");
  EXPECT_EQ(f.found, "enp61s0f0np0");
  EXPECT_EQ(f.message, "mlx5_1 maps to enp61s0f0np0, the plan says ens2f0np0.");
  EXPECT_THAT(f.fix, HasSubstr("rdma link show mlx5_1"));
}

TEST(CheckInventory, PlannedNetdevIsQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kNetdevMismatch.id).empty());
}

TEST(CheckInventory, RoceIpMissingFires) {
  Cluster c(1, 2);
  // Someone configured 10.1.0.99 instead of the planned 10.1.0.11.
  for (int index : {2, 3}) {
    std::string type = index == 2 ? "IB/RoCE v1" : "RoCE v2";
    c.Remove(1, R"(roce_gid_info{device="mlx5_0",port="1",index=")" + std::to_string(index) + "\"");
    c.Add(1, R"(roce_gid_info{device="mlx5_0",port="1",index=")" + std::to_string(index) +
                 R"(",gid="0000:0000:0000:0000:0000:ffff:0a01:0063",type=")" + type +
                 R"(",netdev="ens1f0np0",ip="10.1.0.99"} 1)");
  }
  Finding f = ExpectOnly(c.Run(), kRoceIpMissing, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "10.1.0.11");
  EXPECT_EQ(f.found, "10.1.0.99");  // the link-local RoCE v2 GID is not listed
  EXPECT_EQ(f.fix, "ip addr add 10.1.0.11/24 dev ens1f0np0");
}

TEST(CheckInventory, RoceIpOnlyInARoceV1GidStillFires) {
  Cluster c(1, 2);
  c.Remove(1, R"(roce_gid_info{device="mlx5_0",port="1",index="3")");
  Finding f = ExpectOnly(c.Run(), kRoceIpMissing, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "no RoCE v2 address");
}

TEST(CheckInventory, RoceIpPresentIsQuietAndIpv6IsComparedAsAnAddress) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kRoceIpMissing.id).empty());
  // The plan may write an IPv6 address in any valid form; the exporter writes inet_ntop's.
  c.EditPlan("\"10.1.1.11/24\"", "\"FD00:1:0::11/64\"");
  c.Remove(1, R"(roce_gid_info{device="mlx5_1",port="1",index="3")");
  c.Add(
      1,
      R"(roce_gid_info{device="mlx5_1",port="1",index="3",gid="fd00:0001:0000:0000:0000:0000:0000:0011",)"
      R"(type="RoCE v2",netdev="ens2f0np0",ip="fd00:1::11"} 1)");
  auto findings = c.Run();
  EXPECT_TRUE(WithId(findings, kRoceIpMissing.id).empty()) << Describe(findings);
}

TEST(CheckInventory, UnplannedDeviceFires) {
  Cluster c(1, 2);
  c.Add(
      1,
      R"(roce_device_info{device="mlx5_4",fw_version="22.39.1002",board_id="MT_0000000359",hca_type="MT4125",)"
      R"(node_guid="946d:ae03:00c2:0a10",node_type="1: CA",driver="mlx5_core",pci_address="0000:c1:00.0"} 1)");
  Finding f = ExpectOnly(c.Run(), kUnplannedDevice, "gpu-01", "mlx5_4", "");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "not present (not in the plan)");
  EXPECT_EQ(f.found, "mlx5_4");
  EXPECT_THAT(f.fix, HasSubstr("--device-exclude"));
}

TEST(CheckInventory, UnplannedVfsAreNotFindingsButTheirUnplannedPfIs) {
  // An SR-IOV PF and two of its VFs, none in the plan: the PF is reported (a warning, as any
  // unplanned NIC), the VFs (handed to VMs and pods; their QoS is the PF's) are not.
  Cluster c(1, 2);
  const auto device = [&](const std::string& name, const std::string& address, const std::string& function) {
    c.Add(1, R"(roce_device_info{device=")" + name +
                 R"(",fw_version="14.32.1010",board_id="MT_2420110034",hca_type="MT4117",)"
                 R"(node_guid="b859:9fff:fe3e:41a0",node_type="1: CA",driver="mlx5_core",pci_address=")" +
                 address + R"(",pci_function=")" + function + R"(",pf_pci_address="0000:81:00.0"} 1)");
  };
  device("mlx5_4", "0000:81:00.0", "pf");
  device("mlx5_5", "0000:81:00.2", "vf");
  device("mlx5_6", "0000:81:00.3", "vf");
  Finding f = ExpectOnly(c.Run(), kUnplannedDevice, "gpu-01", "mlx5_4", "");
  EXPECT_EQ(f.severity, Severity::kWarning);
}

TEST(CheckInventory, OnlyPlannedDevicesIsQuiet) {
  Cluster c(1, 2);
  EXPECT_TRUE(WithId(c.Run(), kUnplannedDevice.id).empty());
}

TEST(CheckInventory, RenamedDeviceIsMissingAndUnplanned) {
  // A NIC enumerated as mlx5_2 instead of mlx5_1: the plan's device is missing (the message
  // lists what is there) and the node's is unplanned.
  Cluster c(1, 2);
  c.EditPlan("\"ib_dev\": \"mlx5_1\"", "\"ib_dev\": \"mlx5_2\"");
  auto findings = c.Run();
  EXPECT_THAT(Ids(findings), ElementsAre("inventory.unplanned-device", "inventory.device-missing"))
      << Describe(findings);
  EXPECT_EQ(findings[0].device, "mlx5_1");
  EXPECT_EQ(findings[1].device, "mlx5_2");
  EXPECT_EQ(findings[1].found, "present: mlx5_0 mlx5_1");
}

TEST(RunChecks, FindingsComeByNodeInPlanOrderThenDeviceThenCheck) {
  Cluster c(3, 2);
  // Plan order gpu-01, gpu-02, gpu-03; put gpu-03 first to see plan order beat name order.
  c.EditPlan(R"("name": "gpu-03")", R"("name": "gpu-00")");
  c.Set(1, R"(roce_netdev_mtu_bytes{netdev="ens2f0np0"})", "1500");
  c.Set(1, R"(roce_port_active_mtu_bytes{device="mlx5_1",port="1"})", "1024");
  c.Set(1, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="3"})", "0");
  c.Set(1, R"(roce_exporter_collector_success{collector="optics"})", "0");
  c.Unreachable(2, "scrape http://10.0.0.12:9879/metrics: timeout after 5 s");
  c.Set(3, R"(roce_cm_default_tos{device="mlx5_0",port="1"})", "0");
  auto findings = c.Run();
  std::vector<std::string> got;
  for (const auto& f : findings) got.push_back(f.node + " " + f.device + " " + f.check);
  EXPECT_THAT(got,
              ElementsAre("gpu-01  inventory.collector-failing",  //
                          "gpu-01 mlx5_0 qos.pfc-priorities",     //
                          "gpu-01 mlx5_1 link.netdev-mtu",        //
                          "gpu-01 mlx5_1 link.roce-mtu",          //
                          "gpu-02  inventory.exporter-unreachable", "gpu-00 mlx5_0 qos.cm-tos"))
      << Describe(findings);
  for (const auto& f : findings) {
    if (!f.device.empty()) {
      EXPECT_EQ(f.port, "1");
    }
  }
}

}  // namespace
}  // namespace rocewatch::lint::testing
