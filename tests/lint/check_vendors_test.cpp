// One set of findings for every vendor: the QoS, ECN, counters and versions checks on a
// Broadcom (bnxt_en/bnxt_re), Intel (ice/irdma), AMD (ionic), Soft-RoCE (rxe) and ConnectX
// (mlx5) node, each served as its exporter serves it: the device and driver the kernel reports,
// the driver's own hw counter names in roce_hw_stat_total and, by meaning,
// roce_transport_events_total (the per-driver tables of docs/metrics.md), and only the settings
// the driver exposes. The same fault gives the same finding; a setting a driver does not expose
// gives none; a fix's tool follows the driver.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace checks;

struct Vendor {
  std::string name;         // for the test's messages
  std::string ib_dev;       // the RDMA device
  std::string driver;       // roce_device_info's driver: "" for a software device
  std::string firmware;     // roce_device_info's fw_version: "" where the kernel reports none
  std::string pci_vendor;   // roce_pcie_info's vendor_id
  std::string netdev_driver;  // ETHTOOL_GDRVINFO of the netdev
  // The driver's own hw counter names and the event each one counts (its exporter table).
  std::vector<std::pair<std::string, std::string>> hw;
  bool dcb = true;   // the netdev implements dcbnl
  bool ecn = true;   // roce_ecn_enabled (mlx5 sysfs per priority, bnxt_re's configfs cc switch)
  bool dcqcn = true;  // roce_dcqcn_parameter under mlx5's names
  bool pci = true;   // a PCI function: PCIe, module, ethtool pause and storm counters
};

// mlx5_ib's counters (drivers/infiniband/hw/mlx5/counters.c).
Vendor ConnectX() {
  return {"ConnectX", "mlx5_0", "mlx5_core", "28.39.2048", "0x15b3", "mlx5_core",
          {{"roce_adp_retrans", "retransmits"}, {"local_ack_timeout_err", "local_ack_timeout"},
           {"packet_seq_err", "sequence_error_nak"}, {"out_of_sequence", "out_of_sequence"},
           {"duplicate_request", "duplicate_request"}, {"req_transport_retries_exceeded", "retry_exceeded"},
           {"rnr_nak_retry_err", "rnr_nak_received"}, {"req_rnr_retries_exceeded", "rnr_retry_exceeded"},
           {"np_cnp_sent", "cnp_sent"}, {"rp_cnp_handled", "cnp_handled"},
           {"np_ecn_marked_roce_packets", "ecn_marked"}}};
}
// bnxt_re's hw stats (drivers/infiniband/hw/bnxt_re/hw_counters.c).
Vendor Broadcom() {
  return {"Broadcom", "bnxt_re0", "bnxt_en", "227.0.131.0", "0x14e4", "bnxt_en",
          {{"to_retransmits", "local_ack_timeout"}, {"seq_err_naks_rcvd", "sequence_error_nak"},
           {"oos_drop_count", "out_of_sequence"}, {"dup_req", "duplicate_request"},
           {"max_retry_exceeded", "retry_exceeded"}, {"tx_cnp_pkts", "cnp_sent"},
           {"rx_cnp_pkts", "cnp_handled"}, {"rx_ecn_marked_pkts", "ecn_marked"}},
          true, true, false};
}
// irdma's hw stats (drivers/infiniband/hw/irdma/verbs.c): congestion only, no retransmissions.
Vendor Intel() {
  return {"Intel", "irdma0", "ice", "4.40 0x8001c967 1.3534.0", "0x8086", "ice",
          {{"cnpSent", "cnp_sent"}, {"cnpHandled", "cnp_handled"}, {"cnpIgnored", "cnp_ignored"},
           {"RxECNMrkd", "ecn_marked"}},
          true, false, false};
}
Vendor Amd() {
  return {"AMD", "ionic_0", "ionic", "1.70.0-E-42", "0x1dd8", "ionic", {}, true, false, false};
}
// rdma_rxe's counters (drivers/infiniband/sw/rxe/rxe_hw_counters.c) on a virtio netdev: no
// PCI function, no firmware, no DCB.
Vendor SoftRoce() {
  return {"Soft-RoCE", "rxe0", "", "", "", "virtio_net",
          {{"completer_retry_err", "retransmits"}, {"rcvd_seq_err", "sequence_error_nak"},
           {"out_of_seq_request", "out_of_sequence"}, {"duplicate_request", "duplicate_request"},
           {"retry_exceeded_err", "retry_exceeded"}, {"rcvd_rnr_err", "rnr_nak_received"},
           {"retry_rnr_exceeded_err", "rnr_retry_exceeded"}},
          false, false, false, false};
}

bool StartsWithAny(const std::string& line, std::initializer_list<const char*> prefixes) {
  for (const char* p : prefixes)
    if (line.rfind(p, 0) == 0) return true;
  return false;
}

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// Node 1's /metrics with its one NIC as `v` serves it: the healthy ConnectX NIC of
// check_test_util.h with the vendor's identity, counters and exposed settings. `events`: the
// exporter serves roce_transport_events_total (false: an exporter older than the family).
std::string VendorText(const Vendor& v, bool events = true) {
  std::vector<std::string> lines;
  const std::string dp = "device=\"" + v.ib_dev + "\",port=\"1\"";
  for (std::string line : NicLines(1, 0)) {
    if (line.rfind("roce_hw_stat_total{", 0) == 0) continue;
    if (!v.dcb && StartsWithAny(line, {"roce_pfc_enabled{", "roce_pfc_capability{", "roce_dcb_pfc_pause_frames_total{",
                                       "roce_ets_priority_traffic_class{", "roce_qos_trust_info{",
                                       "roce_dscp_priority{"}))
      continue;
    if (!v.ecn && StartsWithAny(line, {"roce_ecn_enabled{"})) continue;
    // bnxt_re's configfs cc/ecn_enable is one switch for every priority and both points.
    if (v.driver == "bnxt_en" && StartsWithAny(line, {"roce_ecn_enabled{"})) continue;
    if (!v.dcqcn && StartsWithAny(line, {"roce_dcqcn_parameter{"})) continue;
    if (!v.pci && StartsWithAny(line, {"roce_pcie_", "roce_module_", "roce_pfc_pause_", "roce_priority_discards",
                                       "roce_ethtool_tx_pause_storm", "roce_ethtool_rx_out_of_buffer"}))
      continue;
    if (!v.dcb && line.rfind("roce_dcb_supported{", 0) == 0) line = line.substr(0, line.rfind(' ')) + " 0";
    if (line.rfind("roce_device_info{", 0) == 0) {
      ReplaceAll(line, "fw_version=\"28.39.2048\"", "fw_version=\"" + v.firmware + "\"");
      ReplaceAll(line, "driver=\"mlx5_core\"", "driver=\"" + v.driver + "\"");
      if (!v.pci) ReplaceAll(line, "pci_address=\"" + PciAddress(0) + "\"", "pci_address=\"\"");
    }
    if (line.rfind("roce_ethtool_driver_info{", 0) == 0) {
      ReplaceAll(line, "driver=\"mlx5_core\"", "driver=\"" + v.netdev_driver + "\"");
      if (!v.pci) ReplaceAll(line, "bus_info=\"" + PciAddress(0) + "\"", "bus_info=\"\"");
    }
    // bnxt_en's rx/tx_pfc_ena_frames_pri<N> count XON too: PFC frames, never pause frames.
    if (v.driver == "bnxt_en" && line.rfind("roce_pfc_pause_frames_total{", 0) == 0)
      line = "roce_pfc_frames_total" + line.substr(line.find('{'));
    ReplaceAll(line, "vendor_id=\"0x15b3\"", "vendor_id=\"" + v.pci_vendor + "\"");
    ReplaceAll(line, "device=\"mlx5_0\"", "device=\"" + v.ib_dev + "\"");
    lines.push_back(line);
  }
  if (v.driver == "bnxt_en")
    for (const char* point : {"np", "rp"})
      lines.push_back(std::string("roce_ecn_enabled{netdev=\"ens1f0np0\",point=\"") + point + "\",priority=\"all\"} 1");
  for (const auto& [counter, event] : v.hw) {
    lines.push_back("roce_hw_stat_total{" + dp + ",counter=\"" + counter + "\"} 100");
    if (events) lines.push_back("roce_transport_events_total{" + dp + ",event=\"" + event + "\"} 100");
  }
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  for (std::string_view c : contract::kCollectors)
    text += "roce_exporter_collector_success{collector=\"" + std::string(c) + "\"} 1\n";
  return text;
}

// The test cluster's one node, its NIC the vendor's, planned with a profile for its driver.
Cluster VendorNode(const Vendor& v, bool events = true) {
  Cluster c(1, 1);
  c.EditPlan("\"ib_dev\": \"mlx5_0\"", "\"ib_dev\": \"" + v.ib_dev + "\"");
  c.EditPlan("\"firmware\": [\"28.39.1002\", \"28.39.2048\"]",
             v.firmware.empty() ? "\"firmware\": [\"28.39.2048\"]" : "\"firmware\": [\"" + v.firmware + "\"]");
  if (!v.driver.empty()) c.EditPlan("\"driver\": \"mlx5_core\"", "\"driver\": \"" + v.driver + "\"");
  c.text[0] = VendorText(v, events);
  return c;
}

// What a finding says, with the vendor's device name taken out: the same on every vendor.
std::vector<std::string> Said(const std::vector<Finding>& findings, const Vendor& v) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    std::string s = f.check + " | " + f.expected + " | " + f.found + " | " + f.message;
    ReplaceAll(s, v.ib_dev, "DEV");
    out.push_back(s);
  }
  return out;
}

// Seeds the same faults on a node: PFC off on the RoCE priority, rdma_cm's ToS 0, and over a
// 30 s window pause frames on priority 0 (no PFC there), a link flap and lost packets as the
// driver counts them (out of sequence +12, sequence error NAKs +5).
void SeedFaults(Cluster& c, const Vendor& v) {
  const std::string dp = "device=\"" + v.ib_dev + "\",port=\"1\"";
  c.Set(1, R"(roce_pfc_enabled{netdev="ens1f0np0",priority="3"})", "0");
  c.Set(1, "roce_cm_default_tos{" + dp + "}", "0");
  // bnxt_en counts PFC frames naming a priority, XON included (roce_pfc_frames_total), never
  // pause frames alone (tests/fixtures/real/ethtool-S/bnxt-ethq.expected).
  const std::string pfc = v.driver == "bnxt_en" ? "roce_pfc_frames_total" : "roce_pfc_pause_frames_total";
  c.Add(1, pfc + R"({netdev="ens1f0np0",priority="0",direction="rx"} 0)");
  c.StartWindow(30);
  c.Set(1, pfc + R"({netdev="ens1f0np0",priority="0",direction="rx"})", "1500");
  c.Set(1, R"(roce_netdev_carrier_changes_total{netdev="ens1f0np0"})", "4");
  for (auto [event, value] : {std::pair{"out_of_sequence", "112"}, std::pair{"sequence_error_nak", "105"}})
    for (const auto& hw : v.hw)
      if (hw.second == event)  // a driver that does not count the event serves no series for it
        c.Set(1, "roce_transport_events_total{" + dp + ",event=\"" + event + "\"}", value);
}

TEST(CheckVendors, HealthyNodesOfEveryVendorHaveNoFinding) {
  // Intel and AMD expose no ECN or DCQCN settings to the exporter, Broadcom none under mlx5's
  // DCQCN names: the planned ecn and dcqcn values are not exposed by the driver, no finding.
  for (const Vendor& v : {ConnectX(), Broadcom(), Intel(), Amd()}) {
    Cluster c = VendorNode(v);
    c.StartWindow(30);
    auto findings = c.Run();
    EXPECT_TRUE(findings.empty()) << v.name << ":\n" << Describe(findings);
  }
}

TEST(CheckVendors, TheSameFaultsGiveTheSameFindingsOnEveryVendor) {
  Cluster cx = VendorNode(ConnectX());
  SeedFaults(cx, ConnectX());
  const auto connectx = cx.Run();
  EXPECT_THAT(Ids(connectx), ::testing::UnorderedElementsAre(
                                 "qos.pfc-priorities", "qos.cm-tos", "counters.pause-on-non-pfc-priority",
                                 "counters.link-flaps", "counters.transport-errors"))
      << Describe(connectx);
  EXPECT_EQ(WithId(connectx, kTransportErrors.id).at(0).found, "sequence_error_nak +5, out_of_sequence +12");
  EXPECT_THAT(WithId(connectx, kPauseNonPfc.id).at(0).fix, HasSubstr("mlnx_qos -i ens1f0np0"));
  for (const Vendor& v : {Broadcom(), Intel(), Amd()}) {
    Cluster c = VendorNode(v);
    SeedFaults(c, v);
    auto findings = c.Run();
    auto expected = Said(connectx, ConnectX());
    // irdma and ionic count no retransmissions: nothing to find them by.
    if (v.name == "Intel" || v.name == "AMD")
      expected.erase(std::remove_if(expected.begin(), expected.end(),
                                    [](const std::string& s) { return s.rfind("counters.transport-errors", 0) == 0; }),
                     expected.end());
    EXPECT_EQ(Said(findings, v), expected) << v.name << ":\n" << Describe(findings);
    for (const auto& f : findings) {
      EXPECT_THAT(f.fix, Not(HasSubstr("mlnx_qos"))) << v.name << " " << f.check;
      EXPECT_THAT(f.fix, Not(HasSubstr("mlx"))) << v.name << " " << f.check;
    }
    EXPECT_THAT(WithId(findings, kPauseNonPfc.id).at(0).fix, HasSubstr("dcb pfc show dev ens1f0np0")) << v.name;
  }
}

// bnxt_re's one ECN switch (configfs cc/ecn_enable, served as priority="all"): on is the plan's
// ECN on priority 3; off is a finding at each point, whose fix goes through the cc group.
TEST(CheckVendors, BroadcomsOneEcnSwitchIsCheckedAgainstThePlannedPriorities) {
  Cluster on = VendorNode(Broadcom());
  EXPECT_TRUE(Ids(on.Run()).empty()) << Describe(on.Run());

  Cluster off = VendorNode(Broadcom());
  for (const char* point : {"np", "rp"})
    off.Set(1, std::string(R"(roce_ecn_enabled{netdev="ens1f0np0",point=")") + point + R"(",priority="all"})", "0");
  auto findings = off.Run();
  EXPECT_THAT(Ids(findings), ::testing::UnorderedElementsAre("ecn.np-priorities", "ecn.rp-priorities"))
      << Describe(findings);
  for (const auto& f : findings) {
    EXPECT_EQ(f.found, "none") << f.check;
    EXPECT_EQ(f.expected, "3") << f.check;
  }
}

TEST(CheckVendors, SoftRoceRetransmissionsAndDuplicatesAreCounted) {
  // What a verify run on two rxe devices showed: completer_retry_err and duplicate_request rose.
  Cluster c = VendorNode(SoftRoce());
  c.StartWindow(30);
  c.Set(1, R"(roce_transport_events_total{device="rxe0",port="1",event="retransmits"})", "140");
  c.Set(1, R"(roce_transport_events_total{device="rxe0",port="1",event="duplicate_request"})", "131");
  const auto all = c.Run();
  auto findings = WithId(all, kTransportErrors.id);
  ASSERT_EQ(findings.size(), 1u) << Describe(all);
  EXPECT_EQ(findings[0].device, "rxe0");
  EXPECT_EQ(findings[0].found, "retransmits +40, duplicate_request +31");
  EXPECT_EQ(findings[0].message,
            "rxe0 counted RoCE retransmissions/sequence errors in 30 s: retransmits +40, duplicate_request +31.");
}

TEST(CheckVendors, RetryExhaustionIsATransportErrorOnEveryDriverThatCountsIt) {
  for (const Vendor& v : {ConnectX(), Broadcom(), SoftRoce()}) {
    Cluster c = VendorNode(v);
    c.StartWindow(60);
    c.Set(1, "roce_transport_events_total{device=\"" + v.ib_dev + "\",port=\"1\",event=\"retry_exceeded\"}", "101");
    auto findings = WithId(c.Run(), kTransportErrors.id);
    ASSERT_EQ(findings.size(), 1u) << v.name;
    EXPECT_EQ(findings[0].found, "retry_exceeded +1") << v.name;
  }
}

TEST(CheckVendors, CnpsAndEcnMarksAreNotTransportErrors) {
  for (const Vendor& v : {ConnectX(), Broadcom(), Intel()}) {
    Cluster c = VendorNode(v);
    c.StartWindow(30);
    for (const char* e : {"cnp_sent", "cnp_handled", "ecn_marked"})
      c.Set(1, "roce_transport_events_total{device=\"" + v.ib_dev + "\",port=\"1\",event=\"" + e + "\"}", "9100");
    EXPECT_TRUE(WithId(c.Run(), kTransportErrors.id).empty()) << v.name;
  }
}

TEST(CheckVendors, AnExporterWithoutTransportEventsIsReadByMlx5NamesOnMlx5Only) {
  // An older exporter: raw hw counters only. On mlx5 (the driver the kernel reports) its names
  // are read by meaning; another driver's names are never guessed.
  Cluster cx = VendorNode(ConnectX(), false);
  cx.StartWindow(30);
  cx.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="out_of_sequence"})", "112");
  cx.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="roce_adp_retrans"})", "140");
  Finding f = ExpectOnly(cx.Run(), kTransportErrors, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "retransmits +40, out_of_sequence +12");

  Cluster rxe = VendorNode(SoftRoce(), false);
  rxe.StartWindow(30);
  rxe.Set(1, R"(roce_hw_stat_total{device="rxe0",port="1",counter="completer_retry_err"})", "140");
  rxe.Set(1, R"(roce_hw_stat_total{device="rxe0",port="1",counter="duplicate_request"})", "131");
  EXPECT_TRUE(WithId(rxe.Run(), kTransportErrors.id).empty());
  // The same exporter on a node named like mlx5 but reporting another driver: not read either.
  Cluster renamed = VendorNode(ConnectX(), false);
  renamed.Remove(1, R"(roce_device_info{device="mlx5_0")");
  renamed.Add(1, R"(roce_device_info{device="mlx5_0",fw_version="227.0.131.0",driver="bnxt_en",pci_address="0000:17:00.0"} 1)");
  renamed.EditPlan("\"driver\": \"mlx5_core\"", "\"driver\": \"bnxt_en\"");
  renamed.EditPlan("\"firmware\": [\"28.39.2048\"]", "\"firmware\": [\"227.0.131.0\"]");
  renamed.StartWindow(30);
  renamed.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="out_of_sequence"})", "112");
  EXPECT_TRUE(WithId(renamed.Run(), kTransportErrors.id).empty());
}

TEST(CheckVendors, RdmaCmIsCheckedOnASoftRoceNodeWithoutDcb) {
  Cluster c = VendorNode(SoftRoce());
  c.Set(1, R"(roce_cm_default_tos{device="rxe0",port="1"})", "0");
  c.Remove(1, R"(roce_cm_default_roce_mode_info{device="rxe0")");
  c.Add(1, R"(roce_cm_default_roce_mode_info{device="rxe0",port="1",mode="IB/RoCE v1"} 1)");
  auto findings = c.Run();
  ASSERT_EQ(WithId(findings, kCmTos.id).size(), 1u) << Describe(findings);
  ASSERT_EQ(WithId(findings, kCmRoceMode.id).size(), 1u) << Describe(findings);
  EXPECT_EQ(WithId(findings, kCmTos.id)[0].fix,
            "mkdir -p /sys/kernel/config/rdma_cm/rxe0 && "
            "echo 106 > /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos");
}

TEST(CheckVendors, ASoftwareDeviceIsNamedNotGivenAFirmwareOrBindCommand) {
  // rxe reports an empty fw_ver and no PCI driver; the profile plans ConnectX firmware and mlx5_core.
  Cluster c = VendorNode(SoftRoce());
  auto findings = c.Run();
  EXPECT_TRUE(WithId(findings, kFirmware.id).empty()) << Describe(findings);
  auto driver = WithId(findings, kDriver.id);
  ASSERT_EQ(driver.size(), 1u) << Describe(findings);
  EXPECT_EQ(driver[0].expected, "mlx5_core");
  EXPECT_EQ(driver[0].found, "no driver (a software RDMA device)");
  EXPECT_EQ(driver[0].message,
            "rxe0 is a software RDMA device (Soft-RoCE, siw) without a PCI function or its driver, "
            "where the profile wants mlx5_core.");
  EXPECT_EQ(driver[0].fix, "run RoCE on a NIC that mlx5_core drives, or plan this node with a profile of its own");
  for (const auto& f : findings) {
    EXPECT_THAT(f.message, Not(HasSubstr("firmware ,"))) << f.check;
    EXPECT_THAT(f.fix, Not(HasSubstr("mlxfwmanager"))) << f.check;
  }
  // An exporter that names rxe's RDMA driver: still a software device, no bind command.
  c.Remove(1, R"(roce_device_info{device="rxe0")");
  c.Add(1, R"(roce_device_info{device="rxe0",fw_version="",driver="rdma_rxe",pci_address=""} 1)");
  auto named = WithId(c.Run(), kDriver.id);
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].found, "rdma_rxe");
  EXPECT_EQ(named[0].fix, driver[0].fix);
}

TEST(CheckVendors, FirmwareFixUsesTheDriversOwnTool) {
  Cluster cx = VendorNode(ConnectX());
  cx.EditPlan("\"firmware\": [\"28.39.2048\"]", "\"firmware\": [\"28.40.1000\"]");
  EXPECT_EQ(ExpectOnly(cx.Run(), kFirmware, "gpu-01", "mlx5_0", "ens1f0np0").fix,
            "mlxfwmanager -d 0000:17:00.0 -u (with the planned image), then reset the NIC");
  Cluster bnxt = VendorNode(Broadcom());
  bnxt.EditPlan("\"firmware\": [\"227.0.131.0\"]", "\"firmware\": [\"228.1.111.0\"]");
  Finding f = ExpectOnly(bnxt.Run(), kFirmware, "gpu-01", "bnxt_re0", "ens1f0np0");
  EXPECT_EQ(f.message, "bnxt_re0 runs firmware 227.0.131.0, the profile accepts 228.1.111.0.");
  EXPECT_EQ(f.fix,
            "devlink dev flash pci/0000:17:00.0 file <the planned image> (bnxt_en's firmware update), then "
            "reload the driver or reset the NIC");
}

TEST(CheckVendors, DriverChecksNameTheKernelsDriver) {
  Cluster ice = VendorNode(Intel());
  ice.EditPlan("\"driver\": \"ice\"", "\"driver\": \"mlx5_core\"");
  Finding d = ExpectOnly(ice.Run(), kDriver, "gpu-01", "irdma0", "ens1f0np0");
  EXPECT_EQ(d.found, "ice");
  EXPECT_EQ(d.message, "irdma0 is bound to ice, the profile wants mlx5_core.");
  Cluster ionic = VendorNode(Amd());
  ionic.EditPlan("\"driver_version\": \"6.8.0-60-generic\"", "\"driver_version\": \"6.12.0\"");
  Finding v = ExpectOnly(ionic.Run(), kDriverVersion, "gpu-01", "ionic_0", "ens1f0np0");
  EXPECT_EQ(v.fix, "install the planned ionic driver (the kernel's or the vendor's package) and reload it");
}

}  // namespace
}  // namespace rocewatch::lint::testing
