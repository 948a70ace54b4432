// The lldp collector and the cabling checks on the real daemon: lldpd (Debian) runs in two
// network namespaces joined by veth pairs. "lldpsw…" plays the switch leaf-t (System Name set
// with lldpcli, port IDs Ethernet0..3 of subtype local, port descriptions); "lldpnd…" is the
// node, with its own lldpd on a private control socket and the real roce_exporter pointed at
// it with --collector.lldp.socket. The node's lldpn1 and lldpn2 are cabled crossed (to
// Ethernet2 and Ethernet1), and the switch's lldpd does not run on the port of lldpn3 (no
// neighbour while the link is up). roce-lint, given the plan, reports exactly those: two
// cabling.switch-port findings saying the pair is crossed, and one cabling.no-neighbor.
// Needs root, iproute2 and lldpd; skips with the reason otherwise.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "exporter/kernel/answers.h"
#include "exporter/lldp/dcbx.h"
#include "exporter/lldp/neighbors_json.h"
#include "netns.h"

namespace rocewatch {
namespace {

namespace stdfs = std::filesystem;
using testing::ChildProcess;
using testing::NetNamespace;
using testing::RunCommand;

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/lldp-test-XXXXXX";
    // 0755: lldpd creates its socket as _lldpd, and lldpcli needs to reach it.
    if (::mkdtemp(tmpl) != nullptr && ::chmod(tmpl, 0755) == 0) path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) stdfs::remove_all(path, ec);
  }
};

std::string Lldpcli(const std::string& socket, std::vector<std::string> args) {
  std::vector<std::string> argv = {"lldpcli", "-u", socket};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = RunCommand(argv);
  return r.status == 0 ? r.output : "FAILED(" + std::to_string(r.status) + "): " + r.output;
}

class LldpFabricTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string reason = testing::KernelTestSkipReason();
    if (!reason.empty()) GTEST_SKIP() << reason;
    if (testing::FindProgram("lldpd").empty() || testing::FindProgram("lldpcli").empty())
      GTEST_SKIP() << "lldpd is not installed (scripts/install-deps.sh installs it)";
    ASSERT_FALSE(dir_.path.empty());
    const std::string suffix = std::to_string(::getpid() % 100000);
    auto sw = NetNamespace::Create("lldpsw" + suffix);
    ASSERT_TRUE(sw.ok()) << sw.error().message;
    sw_ = std::move(*sw);
    auto node = NetNamespace::Create("lldpnd" + suffix);
    ASSERT_TRUE(node.ok()) << node.error().message;
    node_ = std::move(*node);
    // Node port n is cabled to switch port kCable[n].
    for (int n = 0; n < 4; ++n) {
      const std::string nic = "lldpn" + std::to_string(n);
      const std::string port = "lldps" + std::to_string(kCable[n]);
      auto r = RunCommand({"ip", "link", "add", nic, "netns", node_->name(), "type", "veth",
                           "peer", "name", port, "netns", sw_->name()});
      ASSERT_EQ(r.status, 0) << r.output;
      ASSERT_TRUE(node_->Ip({"link", "set", nic, "up"}).ok());
      ASSERT_TRUE(sw_->Ip({"link", "set", port, "up"}).ok());
    }
    sw_sock_ = dir_.path + "/switch.sock";
    node_sock_ = dir_.path + "/node.sock";
    // The switch does not run LLDP on lldps3, the port of lldpn3.
    auto sw_lldpd = ChildProcess::StartInNamespace(
        *sw_, {"lldpd", "-d", "-u", sw_sock_, "-I", sw_ports_, "-O", "/dev/null"});
    ASSERT_TRUE(sw_lldpd.ok()) << sw_lldpd.error().message;
    sw_lldpd_ = std::move(*sw_lldpd);
    auto node_lldpd = ChildProcess::StartInNamespace(
        *node_, {"lldpd", "-d", "-u", node_sock_, "-I", "lldpn*", "-O", "/dev/null"});
    ASSERT_TRUE(node_lldpd.ok()) << node_lldpd.error().message;
    node_lldpd_ = std::move(*node_lldpd);
    // lldpd starts paused and resumes once its lldpcli has read the (empty) configuration.
    for (ChildProcess* p : {sw_lldpd_.get(), node_lldpd_.get()}) {
      auto resumed = p->WaitForLine("resume operations", std::chrono::seconds(10));
      ASSERT_TRUE(resumed.ok()) << resumed.error().message;
    }
    Configure();
  }

  void Configure() {
    std::string out = Lldpcli(sw_sock_, {"configure", "system", "hostname", "leaf-t"});
    ASSERT_EQ(out.find("FAILED"), std::string::npos) << out;
    out = Lldpcli(sw_sock_, {"configure", "system", "ip", "management", "pattern", "192.0.2.1"});
    ASSERT_EQ(out.find("FAILED"), std::string::npos) << out;
    for (const std::string& sock : {sw_sock_, node_sock_}) {
      out = Lldpcli(sock, {"configure", "lldp", "tx-interval", "1"});
      ASSERT_EQ(out.find("FAILED"), std::string::npos) << out;
    }
    for (int p = 0; p < 4; ++p) {
      out = Lldpcli(sw_sock_, {"configure", "ports", "lldps" + std::to_string(p), "lldp",
                               "portidsubtype", "local", "Ethernet" + std::to_string(p),
                               "description", "leaf-t port " + std::to_string(p)});
      ASSERT_EQ(out.find("FAILED"), std::string::npos) << out;
    }
  }

  // The node's neighbours as lldpcli prints them (json0), once all three have the switch's
  // configured name and port IDs.
  std::vector<lldp::Neighbor> WaitForNeighbors() {
    std::vector<lldp::Neighbor> last;
    for (int i = 0; i < 150; ++i) {
      auto decoded = lldp::DecodeNeighborsJson(
          Lldpcli(node_sock_, {"-f", "json0", "show", "neighbors", "details"}));
      if (decoded) {
        last = *decoded;
        int ready = 0;
        for (const auto& n : last)
          if (n.system_name == "leaf-t" && n.port_id.rfind("Ethernet", 0) == 0) ++ready;
        if (ready == neighbours_ && static_cast<int>(last.size()) == neighbours_) return last;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return last;
  }

  static constexpr int kCable[4] = {0, 2, 1, 3};  // lldpn1 and lldpn2 crossed
  // The switch ports lldpd runs on, and so the neighbours the node hears.
  std::string sw_ports_ = "lldps0,lldps1,lldps2";
  int neighbours_ = 3;
  TempDir dir_;
  std::unique_ptr<NetNamespace> sw_, node_;  // declared before the processes: deleted last
  std::string sw_sock_, node_sock_;
  std::unique_ptr<ChildProcess> sw_lldpd_, node_lldpd_;
};

const char* kPlan = R"({
  "cluster": "lldp-test",
  "profiles": {"p": {}},
  "nodes": [{"name": "node-a", "management_ip": "127.0.0.1", "nics": [
    {"ib_dev": "mlx5_0", "netdev": "lldpn0", "profile": "p", "roce_ip": "10.9.0.1/24", "rail": 0, "switch_port": "leaf-t:Ethernet0"},
    {"ib_dev": "mlx5_1", "netdev": "lldpn1", "profile": "p", "roce_ip": "10.9.1.1/24", "rail": 1, "switch_port": "leaf-t:Ethernet1"},
    {"ib_dev": "mlx5_2", "netdev": "lldpn2", "profile": "p", "roce_ip": "10.9.2.1/24", "rail": 2, "switch_port": "leaf-t:Ethernet2"},
    {"ib_dev": "mlx5_3", "netdev": "lldpn3", "profile": "p", "roce_ip": "10.9.3.1/24", "rail": 3, "switch_port": "leaf-t:Ethernet3"}
  ]}]
})";

TEST_F(LldpFabricTest, ExporterServesEveryNeighbourAndLintFindsTheCrossedPair) {
  // What lldpcli shows (decoded by the collector's decoder): the crossing is on the wire.
  const std::vector<lldp::Neighbor> seen = WaitForNeighbors();
  std::map<std::string, std::string> port_of;
  for (const auto& n : seen) port_of[n.netdev] = n.port_id;
  ASSERT_EQ(port_of, (std::map<std::string, std::string>{
                         {"lldpn0", "Ethernet0"}, {"lldpn1", "Ethernet2"}, {"lldpn2", "Ethernet1"}}))
      << Lldpcli(node_sock_, {"show", "neighbors"}) << Lldpcli(sw_sock_, {"show", "interfaces"})
      << Lldpcli(node_sock_, {"show", "interfaces"});

  auto exporter = ChildProcess::StartInNamespace(
      *node_, {ROCE_EXPORTER_BIN, "--netdev-include=^lldpn", "--web.listen-address=127.0.0.1:0",
               "--collector.lldp.socket=" + node_sock_, "--collector.lldp.interval=0s"});
  ASSERT_TRUE(exporter.ok()) << exporter.error().message;
  auto line = (*exporter)->WaitForLine("msg=listening", std::chrono::seconds(20));
  ASSERT_TRUE(line.ok()) << line.error().message;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(*line, m, std::regex("address=127\\.0\\.0\\.1:([0-9]+)")));
  const int port = std::stoi(m[1]);
  std::string body;
  Status s = node_->RunInside([&] {
    auto got = testing::HttpGet(port, "/metrics");
    ASSERT_TRUE(got.ok()) << got.error().message;
    body = *got;
  });
  ASSERT_TRUE(s.ok()) << s.error().message;

  EXPECT_NE(body.find("\nroce_lldp_daemon_reachable 1\n"), std::string::npos) << body;
  EXPECT_NE(body.find("\nroce_exporter_collector_success{collector=\"lldp\"} 1\n"),
            std::string::npos);
  for (const auto& n : seen) {
    const std::string series =
        "roce_lldp_neighbor_info{netdev=\"" + n.netdev + "\",chassis_id=\"" + n.chassis_id +
        "\",chassis_id_subtype=\"mac\",system_name=\"leaf-t\",port_id=\"" + n.port_id +
        "\",port_id_subtype=\"local\",port_description=\"leaf-t port " + n.port_id.substr(8) +
        "\",management_address=\"192.0.2.1\"} 1";
    EXPECT_NE(body.find(series), std::string::npos) << series << "\n" << body;
    // TTL = tx-interval 1 × hold multiplier 4.
    EXPECT_NE(body.find("roce_lldp_neighbor_ttl_seconds{netdev=\"" + n.netdev + "\",chassis_id=\"" +
                        n.chassis_id + "\",port_id=\"" + n.port_id + "\"} 4\n"),
              std::string::npos);
  }
  EXPECT_EQ(body.find("roce_lldp_neighbor_info{netdev=\"lldpn3\""), std::string::npos);

  // roce-lint on the saved metrics: the crossed pair and the missing neighbour, nothing else.
  const std::string metrics_dir = dir_.path + "/metrics";
  stdfs::create_directories(metrics_dir);
  std::ofstream(metrics_dir + "/node-a.prom") << body;
  std::ofstream(dir_.path + "/plan.json") << kPlan;
  auto lint = RunCommand({ROCE_LINT_BIN, "check", dir_.path + "/plan.json", "--metrics-dir",
                          metrics_dir, "--format", "json", "--output", dir_.path + "/report.json"});
  std::ifstream in(dir_.path + "/report.json");
  auto report = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << lint.output;
  std::multiset<std::string> cabling;
  std::map<std::string, std::string> fix_of;
  for (const auto& f : report["findings"]) {
    const std::string check = f.value("check", "");
    if (check.rfind("cabling.", 0) != 0) continue;
    cabling.insert(check + " " + f.value("netdev", ""));
    fix_of[f.value("netdev", "")] = f.value("fix", "");
  }
  EXPECT_EQ(cabling, (std::multiset<std::string>{"cabling.switch-port lldpn1",
                                                  "cabling.switch-port lldpn2",
                                                  "cabling.no-neighbor lldpn3"}))
      << report.dump(1);
  // A capture keeps lldpd's answer, and a replay of it serves the same neighbours.
  const std::string capture = dir_.path + "/capture";
  auto cap = RunCommand({"ip", "netns", "exec", node_->name(), ROCE_EXPORTER_BIN, "capture",
                         capture, "--netdev-include=^lldpn",
                         "--collector.lldp.socket=" + node_sock_});
  ASSERT_EQ(cap.status, 0) << cap.output;
  std::ifstream kept(capture + "/kernel/lldp/neighbors.json");
  std::stringstream text;
  text << kept.rdbuf();
  auto replayed = lldp::DecodeNeighborsJson(text.str());
  ASSERT_TRUE(replayed.ok()) << replayed.error().message << "\n" << text.str();
  ASSERT_EQ(replayed->size(), seen.size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ((*replayed)[i].netdev, seen[i].netdev);
    EXPECT_EQ((*replayed)[i].port_id, seen[i].port_id);
    EXPECT_EQ((*replayed)[i].system_name, "leaf-t");
  }

  EXPECT_EQ(fix_of["lldpn1"],
            "swap the cables of node-a lldpn1 and node-a lldpn2: node-a lldpn1 into "
            "leaf-t:Ethernet1, node-a lldpn2 into leaf-t:Ethernet2");
}

// The switch port's DCBX (IEEE 802.1Qaz TLVs, sent by the switch's lldpd as custom TLVs per
// port) as the node's lldpd keeps them and the exporter serves them from liblldpctl. Before any
// TLV is configured every neighbour sends none (dcbx_sent 0); then leaf-t's Ethernet0 (lldpn0)
// agrees with the NIC plan (PFC on 3; DSCP 26 -> 3, DSCP 48 -> 6, UDP 4791 -> 3), Ethernet2
// (lldpn1) enables PFC on 4 instead, and Ethernet1 (lldpn2) maps DSCP 26 to 5.
TEST_F(LldpFabricTest, ExporterServesTheSwitchPortsDcbx) {
  ASSERT_EQ(WaitForNeighbors().size(), 3u);
  auto exporter = ChildProcess::StartInNamespace(
      *node_, {ROCE_EXPORTER_BIN, "--netdev-include=^lldpn", "--web.listen-address=127.0.0.1:0",
               "--collector.lldp.socket=" + node_sock_, "--collector.lldp.interval=0s"});
  ASSERT_TRUE(exporter.ok()) << exporter.error().message;
  auto line = (*exporter)->WaitForLine("msg=listening", std::chrono::seconds(20));
  ASSERT_TRUE(line.ok()) << line.error().message;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(*line, m, std::regex("address=127\\.0\\.0\\.1:([0-9]+)")));
  const int port = std::stoi(m[1]);
  auto scrape = [&] {
    std::string body;
    Status s = node_->RunInside([&] {
      auto got = testing::HttpGet(port, "/metrics");
      if (got.ok()) body = *got;
    });
    EXPECT_TRUE(s.ok()) << s.error().message;
    return body;
  };
  const std::string none = scrape();
  for (const char* nic : {"lldpn0", "lldpn1", "lldpn2"})
    EXPECT_NE(none.find(std::string("\nroce_lldp_peer_dcbx_sent{netdev=\"") + nic + "\"} 0\n"),
              std::string::npos)
        << nic << "\n" << none;
  EXPECT_EQ(none.find("roce_lldp_peer_dcbx_sent{netdev=\"lldpn3\""), std::string::npos);

  const std::string app_agree = "00,65,00,1a,c5,00,30,63,12,b7";  // 26->3, 48->6, UDP 4791->3
  const std::string app_other = "00,a5,00,1a,c5,00,30,63,12,b7";  // 26->5
  struct PortTlvs {
    const char* port;
    const char* pfc;
    std::string app;
  };
  for (const PortTlvs& p : {PortTlvs{"lldps0", "08,08", app_agree},
                            PortTlvs{"lldps2", "08,10", app_agree},
                            PortTlvs{"lldps1", "08,08", app_other}}) {
    std::string out = Lldpcli(sw_sock_, {"configure", "ports", p.port, "lldp", "custom-tlv", "add",
                                         "oui", "00,80,c2", "subtype", "11", "oui-info", p.pfc});
    ASSERT_EQ(out.find("FAILED"), std::string::npos) << out;
    out = Lldpcli(sw_sock_, {"configure", "ports", p.port, "lldp", "custom-tlv", "add", "oui",
                             "00,80,c2", "subtype", "12", "oui-info", p.app});
    ASSERT_EQ(out.find("FAILED"), std::string::npos) << out;
  }
  std::string body;
  for (int i = 0; i < 150; ++i) {
    body = scrape();
    std::size_t sent = 0;
    for (const char* nic : {"lldpn0", "lldpn1", "lldpn2"})
      sent += body.find(std::string("\nroce_lldp_peer_dcbx_sent{netdev=\"") + nic + "\"} 1\n") !=
              std::string::npos;
    const bool apps = body.find("roce_lldp_peer_app_info{netdev=\"lldpn2\"") != std::string::npos;
    if (sent == 3 && apps) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  auto has = [&body](const std::string& series) { return body.find("\n" + series + "\n") != std::string::npos; };
  for (const char* nic : {"lldpn0", "lldpn1", "lldpn2"}) {
    const std::string n = nic;
    EXPECT_TRUE(has("roce_lldp_peer_dcbx_sent{netdev=\"" + n + "\"} 1")) << n << "\n" << body;
    EXPECT_TRUE(has("roce_lldp_peer_dcbx_info{netdev=\"" + n + "\",tlv=\"pfc\",willing=\"false\"} 1")) << n;
    EXPECT_TRUE(has("roce_lldp_peer_pfc_capability{netdev=\"" + n + "\"} 8")) << n;
    EXPECT_TRUE(has("roce_lldp_peer_app_info{netdev=\"" + n + "\",selector=\"dgram\",protocol=\"4791\",priority=\"3\"} 1")) << n;
  }
  EXPECT_TRUE(has("roce_lldp_peer_pfc_enabled{netdev=\"lldpn0\",priority=\"3\"} 1")) << body;
  EXPECT_TRUE(has("roce_lldp_peer_pfc_enabled{netdev=\"lldpn1\",priority=\"4\"} 1")) << body;
  EXPECT_TRUE(has("roce_lldp_peer_pfc_enabled{netdev=\"lldpn2\",priority=\"3\"} 1")) << body;
  EXPECT_EQ(body.find("roce_lldp_peer_pfc_enabled{netdev=\"lldpn1\",priority=\"3\"}"), std::string::npos);
  // The DSCP maps: lldpn0 and lldpn1 have one digest, lldpn2 another.
  auto digest = [&body](const std::string& nic) {
    std::smatch d;
    const std::regex re("roce_lldp_peer_table_entries\\{netdev=\"" + nic +
                        "\",table=\"dscp_map\",digest=\"([0-9a-f]+)\"\\} 2\n");
    return std::regex_search(body, d, re) ? d[1].str() : std::string("none");
  };
  EXPECT_NE(digest("lldpn0"), "none") << body;
  EXPECT_EQ(digest("lldpn0"), digest("lldpn1"));
  EXPECT_NE(digest("lldpn2"), "none");
  EXPECT_NE(digest("lldpn2"), digest("lldpn0"));
  EXPECT_EQ(body.find("roce_lldp_peer_dcbx_sent{netdev=\"lldpn3\""), std::string::npos);
  EXPECT_TRUE(has("roce_exporter_collector_success{collector=\"lldp\"} 1"));

  // A capture keeps the TLVs, and its replay decodes them the same.
  const std::string capture = dir_.path + "/capture-dcbx";
  auto cap = RunCommand({"ip", "netns", "exec", node_->name(), ROCE_EXPORTER_BIN, "capture",
                         capture, "--netdev-include=^lldpn", "--collector.lldp.socket=" + node_sock_});
  ASSERT_EQ(cap.status, 0) << cap.output;
  std::ifstream kept(capture + "/kernel/lldp/neighbors.json");
  std::stringstream text;
  text << kept.rdbuf();
  auto replayed = lldp::DecodeNeighborsJson(text.str());
  ASSERT_TRUE(replayed.ok()) << replayed.error().message;
  std::map<std::string, std::uint8_t> pfc_of;
  for (const auto& n : *replayed) {
    const auto d = lldp::DecodeDcbx(n.unknown_tlvs);
    if (d.pfc) pfc_of[n.netdev] = d.pfc->enabled_bitmap;
  }
  EXPECT_EQ(pfc_of, (std::map<std::string, std::uint8_t>{{"lldpn0", 0x08}, {"lldpn1", 0x10}, {"lldpn2", 0x08}}));
}

// The same fabric with LLDP on all four switch ports: both ends of each link, checked by
// roce-lint on the exporter's /metrics. The switch side is real (leaf-t's lldpd sending the
// 802.1Qaz TLVs, the node's lldpd, the exporter with --collector.lldp.full-tables); the NIC side
// is not (a veth has no RDMA device and no DCB), so the series a ConnectX with the plan's QoS
// serves (device, DCB support, PFC on 3, DSCP 26 -> 3 and 48 -> 6) are added to the scrape in the
// exporter's shape. lldpn0's port agrees; lldpn1's (Ethernet2) enables PFC on 4 instead of 3;
// lldpn2's (Ethernet1) maps DSCP 26 to 5; lldpn3's (Ethernet3) sends no DCBX.
class LldpPeerChecksTest : public LldpFabricTest {
 protected:
  LldpPeerChecksTest() {
    sw_ports_ = "lldps0,lldps1,lldps2,lldps3";
    neighbours_ = 4;
  }
};

const char* kPeerPlan = R"({
  "cluster": "lldp-peer-test",
  "profiles": {"p": {"trust": "dscp", "pfc_priorities": [3], "roce_dscp": 26, "roce_priority": 3,
                     "cnp_dscp": 48, "cnp_priority": 6}},
  "nodes": [{"name": "node-a", "management_ip": "127.0.0.1", "nics": [
    {"ib_dev": "mlx5_0", "netdev": "lldpn0", "profile": "p", "roce_ip": "10.9.0.1/24", "rail": 0, "switch_port": "leaf-t:Ethernet0"},
    {"ib_dev": "mlx5_1", "netdev": "lldpn1", "profile": "p", "roce_ip": "10.9.1.1/24", "rail": 1, "switch_port": "leaf-t:Ethernet2"},
    {"ib_dev": "mlx5_2", "netdev": "lldpn2", "profile": "p", "roce_ip": "10.9.2.1/24", "rail": 2, "switch_port": "leaf-t:Ethernet1"},
    {"ib_dev": "mlx5_3", "netdev": "lldpn3", "profile": "p", "roce_ip": "10.9.3.1/24", "rail": 3, "switch_port": "leaf-t:Ethernet3"}
  ]}]
})";

// `body` without the families the NIC side replaces, plus that side's series.
std::string WithNicSide(const std::string& body) {
  const std::vector<std::string> families = {"roce_device_info", "roce_dcb_supported", "roce_pfc_enabled",
                                             "roce_dscp_priority", "roce_qos_trust_info"};
  auto ours = [&](const std::string& line) {
    for (const auto& f : families) {
      for (const std::string& prefix : {f + "{", f + " ", "# HELP " + f + " ", "# TYPE " + f + " "})
        if (line.rfind(prefix, 0) == 0) return true;
    }
    return false;
  };
  std::string out;
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);)
    if (!ours(line)) out += line + "\n";
  out += "# TYPE roce_device_info gauge\n";
  for (int n = 0; n < 4; ++n)
    out += "roce_device_info{device=\"mlx5_" + std::to_string(n) +
           "\",fw_version=\"28.39.2048\",board_id=\"MT_0000000838\",hca_type=\"MT4129\",node_guid=\"946d:ae03:00b1:2c0" +
           std::to_string(n) + "\",node_type=\"CA\",driver=\"mlx5_core\",pci_address=\"0000:1" + std::to_string(n) +
           ":00.0\"} 1\n";
  for (const char* family : {"roce_dcb_supported", "roce_pfc_enabled", "roce_dscp_priority", "roce_qos_trust_info"}) {
    out += std::string("# TYPE ") + family + " gauge\n";
    for (int n = 0; n < 4; ++n) {
      const std::string nd = "netdev=\"lldpn" + std::to_string(n) + "\"";
      const std::string f = family;
      if (f == "roce_dcb_supported") out += f + "{" + nd + "} 1\n";
      if (f == "roce_qos_trust_info") out += f + "{" + nd + ",mode=\"dscp\"} 1\n";
      if (f == "roce_pfc_enabled")
        for (int p = 0; p < 8; ++p) out += f + "{" + nd + ",priority=\"" + std::to_string(p) + "\"} " + (p == 3 ? "1\n" : "0\n");
      if (f == "roce_dscp_priority") out += f + "{" + nd + ",dscp=\"26\"} 3\n" + f + "{" + nd + ",dscp=\"48\"} 6\n";
    }
  }
  return out;
}

TEST_F(LldpPeerChecksTest, LintReportsExactlyTheDisagreementsAcrossEachLink) {
  ASSERT_EQ(WaitForNeighbors().size(), 4u);
  const std::string app_agree = "00,65,00,1a,c5,00,30,63,12,b7";  // 26->3, 48->6, UDP 4791->3
  const std::string app_other = "00,a5,00,1a,c5,00,30,63,12,b7";  // 26->5
  struct PortTlvs {
    const char* port;
    const char* pfc;
    std::string app;
  };
  for (const PortTlvs& p : {PortTlvs{"lldps0", "08,08", app_agree}, PortTlvs{"lldps2", "08,10", app_agree},
                            PortTlvs{"lldps1", "08,08", app_other}}) {
    std::string out = Lldpcli(sw_sock_, {"configure", "ports", p.port, "lldp", "custom-tlv", "add", "oui",
                                         "00,80,c2", "subtype", "11", "oui-info", p.pfc});
    ASSERT_EQ(out.find("FAILED"), std::string::npos) << out;
    out = Lldpcli(sw_sock_, {"configure", "ports", p.port, "lldp", "custom-tlv", "add", "oui", "00,80,c2",
                             "subtype", "12", "oui-info", p.app});
    ASSERT_EQ(out.find("FAILED"), std::string::npos) << out;
  }
  auto exporter = ChildProcess::StartInNamespace(
      *node_, {ROCE_EXPORTER_BIN, "--netdev-include=^lldpn", "--web.listen-address=127.0.0.1:0",
               "--collector.lldp.socket=" + node_sock_, "--collector.lldp.interval=0s",
               "--collector.lldp.full-tables=true"});
  ASSERT_TRUE(exporter.ok()) << exporter.error().message;
  auto line = (*exporter)->WaitForLine("msg=listening", std::chrono::seconds(20));
  ASSERT_TRUE(line.ok()) << line.error().message;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(*line, m, std::regex("address=127\\.0\\.0\\.1:([0-9]+)")));
  const int port = std::stoi(m[1]);
  std::string body;
  for (int i = 0; i < 150; ++i) {
    Status s = node_->RunInside([&] {
      auto got = testing::HttpGet(port, "/metrics");
      if (got.ok()) body = *got;
    });
    ASSERT_TRUE(s.ok()) << s.error().message;
    std::size_t sent = 0;
    for (const char* nic : {"lldpn0", "lldpn1", "lldpn2"})
      sent += body.find(std::string("\nroce_lldp_peer_dcbx_sent{netdev=\"") + nic + "\"} 1\n") != std::string::npos;
    if (sent == 3 && body.find("roce_lldp_peer_dscp_priority{netdev=\"lldpn2\",dscp=\"26\"} 5\n") != std::string::npos)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_NE(body.find("\nroce_lldp_peer_dcbx_sent{netdev=\"lldpn3\"} 0\n"), std::string::npos) << body;

  const std::string metrics_dir = dir_.path + "/metrics";
  stdfs::create_directories(metrics_dir);
  std::ofstream(metrics_dir + "/node-a.prom") << WithNicSide(body);
  std::ofstream(dir_.path + "/plan.json") << kPeerPlan;
  auto lint = RunCommand({ROCE_LINT_BIN, "check", dir_.path + "/plan.json", "--metrics-dir", metrics_dir,
                          "--format", "json", "--output", dir_.path + "/report.json"});
  std::ifstream in(dir_.path + "/report.json");
  auto report = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << lint.output;
  std::multiset<std::string> peer;
  std::map<std::string, nlohmann::json> finding_of;
  for (const auto& f : report["findings"]) {
    const std::string check = f.value("check", "");
    if (check.rfind("peer.", 0) != 0) continue;
    peer.insert(check + " " + f.value("netdev", ""));
    finding_of[f.value("netdev", "")] = f;
  }
  EXPECT_EQ(peer, (std::multiset<std::string>{"peer.roce-priority-pfc lldpn1", "peer.app-priority lldpn2"}))
      << report.dump(1);
  EXPECT_EQ(finding_of["lldpn1"].value("found", ""), "switch PFC on 4");
  EXPECT_NE(finding_of["lldpn1"].value("message", "").find("node-a mlx5_1 (lldpn1) ↔ leaf-t port Ethernet2"),
            std::string::npos)
      << finding_of["lldpn1"].dump(1);
  EXPECT_EQ(finding_of["lldpn2"].value("expected", ""), "DSCP 26 → 3");
  EXPECT_EQ(finding_of["lldpn2"].value("found", ""), "DSCP 26 → priority 5");
  EXPECT_NE(finding_of["lldpn2"].value("message", "").find("node-a mlx5_2 (lldpn2) ↔ leaf-t port Ethernet1"),
            std::string::npos);

  // The text report names the link that sends no DCBX, once.
  auto text = RunCommand({ROCE_LINT_BIN, "check", dir_.path + "/plan.json", "--metrics-dir", metrics_dir});
  const std::string note =
      "Switch-side checks (peer.roce-priority-pfc, peer.pfc-priorities, peer.app-priority, peer.ecn) could not run "
      "on 1 NIC whose switch port sends no DCBX and no --switch-config names: node-a lldpn3.\n";
  const auto at = text.output.find(note);
  EXPECT_NE(at, std::string::npos) << text.output;
  EXPECT_EQ(text.output.find("Switch-side checks", at + 1), std::string::npos) << text.output;
}

TEST(LldpLive, NoDaemonIsNoDataNotAFailure) {
  TempDir dir;
  auto kernel = kernel::MakeLiveKernel();
  kernel::Answer a = kernel->Ask(kernel::call::LldpNeighbors{dir.path + "/no-such.sock"});
  EXPECT_EQ(a.error, ENOENT);
  const std::string regular = dir.path + "/file";
  std::ofstream(regular) << "x";
  EXPECT_EQ(kernel->Ask(kernel::call::LldpNeighbors{regular}).error, ECONNREFUSED);
  EXPECT_EQ(kernel->Ask(kernel::call::LldpNeighbors{std::string(200, 'a')}).error, ENAMETOOLONG);
}

}  // namespace
}  // namespace rocewatch
