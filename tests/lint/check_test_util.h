#pragma once

// Helpers for the node-check and report tests: a healthy ConnectX-7 RoCE node as roce_exporter
// serves it (the families, labels and values of tests/e2e/golden/mlx5-roce.prom, plus the optics
// families), a plan whose profile that node satisfies, and a small cluster fixture whose node
// texts a test edits series by series before running the checks.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "chinese_findings.h"
#include "lint/checks/check.h"
#include "lint/checks/specs.h"
#include "lint/core/finding.h"
#include "lint/fix/fix_hints.h"
#include "lint/metric_contract.h"
#include "lint/observe/exposition.h"
#include "lint/observe/node_view.h"
#include "lint/plan/load.h"
#include "lint/plan/validate.h"

namespace rocewatch::lint::testing {

// The profile every NIC of the fixture runs; a healthy fixture node satisfies all of it.
inline constexpr const char* kProfileJson = R"("roce-400g": {
      "link_speed_gbps": 400,
      "netdev_mtu": 9000,
      "roce_mode": "v2",
      "roce_mtu": 4096,
      "trust": "dscp",
      "pfc_priorities": [3],
      "roce_dscp": 26,
      "roce_priority": 3,
      "cnp_dscp": 48,
      "cnp_priority": 6,
      "ecn": {"np_priorities": [3], "rp_priorities": [3]},
      "dcqcn": {
        "np": {"min_time_between_cnps": 4, "cnp_dscp": 48, "cnp_802p_prio": 6},
        "rp": {"rpg_ai_rate": 5, "rpg_hai_rate": 50, "rpg_time_reset": 300}
      },
      "firmware": ["28.39.1002", "28.39.2048"],
      "driver": "mlx5_core",
      "driver_version": "6.8.0-60-generic",
      "pcie": {"speed_gts": 32, "width": 16},
      "optics": {
        "temperature_celsius_max": 65,
        "tx_bias_milliamperes_max": 12.0,
        "tx_power_dbm_min": -6.0,
        "rx_power_dbm_min": -7.0
      }
    })";

// Node n (1-based) is "gpu-0n"; its NIC i (0-based) is mlx5_i / ens<i+1>f0np0 with RoCE IP
// 10.1.<i>.<10+n>, on rail i, cabled to leaf-<i>:Ethernet<8n>.
inline std::string NodeName(int node) {
  return "gpu-" + std::string(node < 10 ? "0" : "") + std::to_string(node);
}
inline std::string Device(int nic) { return "mlx5_" + std::to_string(nic); }
inline std::string Netdev(int nic) { return "ens" + std::to_string(nic + 1) + "f0np0"; }
inline std::string RoceIp(int node, int nic) {
  return "10.1." + std::to_string(nic) + "." + std::to_string(10 + node);
}
inline std::string PciAddress(int nic) {
  static const char* kPci[] = {"0000:17:00.0", "0000:3d:00.0", "0000:63:00.0", "0000:89:00.0",
                               "0000:ad:00.0", "0000:c1:00.0", "0000:d5:00.0", "0000:e9:00.0"};
  return kPci[nic % 8];
}
inline std::string Exporter(int node) { return "10.0.0." + std::to_string(10 + node) + ":9879"; }

inline std::string PlanJson(int nodes, int nics_per_node) {
  std::string out = "{\n  \"cluster\": \"test-cluster\",\n  \"profiles\": {\n    ";
  out += kProfileJson;
  out += "\n  },\n  \"nodes\": [\n";
  for (int n = 1; n <= nodes; ++n) {
    out += "    {\"name\": \"" + NodeName(n) + "\", \"management_ip\": \"10.0.0." +
           std::to_string(10 + n) + "\", \"nics\": [\n";
    for (int i = 0; i < nics_per_node; ++i) {
      out += "      {\"ib_dev\": \"" + Device(i) + "\", \"netdev\": \"" + Netdev(i) +
             "\", \"profile\": \"roce-400g\", \"roce_ip\": \"" + RoceIp(n, i) +
             "/24\", \"rail\": " + std::to_string(i) + ", \"switch_port\": \"leaf-" +
             std::to_string(i) + ":Ethernet" + std::to_string(8 * n) + "\"}" +
             (i + 1 < nics_per_node ? "," : "") + "\n";
    }
    out += std::string("    ]}") + (n < nodes ? "," : "") + "\n";
  }
  out += "  ]\n}\n";
  return out;
}

// The series one healthy NIC adds to its node's /metrics.
inline std::vector<std::string> NicLines(int node, int nic) {
  using P = std::pair<const char*, const char*>;
  const std::string d = "device=\"" + Device(nic) + "\"";
  const std::string dp = d + ",port=\"1\"";
  const std::string n = "netdev=\"" + Netdev(nic) + "\"";
  const std::string pci = PciAddress(nic);
  char guid_tail[8];
  std::snprintf(guid_tail, sizeof guid_tail, "%02x", 0x3a + nic);
  const std::string ip = RoceIp(node, nic);
  char mapped[32];
  {
    int a = 0, b = 0, c = 0, e = 0;
    std::sscanf(ip.c_str(), "%d.%d.%d.%d", &a, &b, &c, &e);
    std::snprintf(mapped, sizeof mapped, "%02x%02x:%02x%02x", a, b, c, e);
  }
  const std::string ll = std::string("fe80::966d:aeff:feb1:2c") + guid_tail;
  const std::string ll_gid = std::string("fe80:0000:0000:0000:966d:aeff:feb1:2c") + guid_tail;
  const std::string v4_gid = std::string("0000:0000:0000:0000:0000:ffff:") + mapped;
  std::vector<std::string> l = {
      "roce_device_info{" + d +
          ",fw_version=\"28.39.2048\",board_id=\"MT_0000000838\",hca_type=\"MT4129\","
          "node_guid=\"946d:ae03:00b1:2c" +
          guid_tail + "\",node_type=\"1: CA\",driver=\"mlx5_core\",pci_address=\"" + pci + "\"} 1",
      "roce_port_info{" + dp + "," + n + ",link_layer=\"Ethernet\"} 1",
      "roce_port_state{" + dp + "} 4",
      "roce_port_physical_state{" + dp + "} 5",
      "roce_port_rate_bytes_per_second{" + dp + "} 50000000000",
      "roce_port_received_bytes_total{" + dp + "} 19160085336064",
      "roce_port_transmitted_bytes_total{" + dp + "} 19292762207488",
      "roce_port_received_packets_total{" + dp + "} 4666362721",
      "roce_port_transmitted_packets_total{" + dp + "} 4684983537",
      "roce_port_stat_total{" + dp + ",counter=\"link_downed\"} 1",
      "roce_port_stat_total{" + dp + ",counter=\"port_xmit_discards\"} 3",
      "roce_port_stat_total{" + dp + ",counter=\"symbol_error\"} 0",
  };
  for (auto [counter, value] : std::initializer_list<P>{{"implied_nak_seq_err", "145"},
                                                        {"local_ack_timeout_err", "19"},
                                                        {"np_cnp_sent", "2916005"},
                                                        {"np_ecn_marked_roce_packets", "2917734"},
                                                        {"out_of_buffer", "1187"},
                                                        {"out_of_sequence", "402"},
                                                        {"packet_seq_err", "311"},
                                                        {"req_transport_retries_exceeded", "3"},
                                                        {"rnr_nak_retry_err", "31"},
                                                        {"roce_adp_retrans", "2283"},
                                                        {"roce_adp_retrans_to", "70"},
                                                        {"rp_cnp_handled", "1734562"}})
    l.push_back("roce_hw_stat_total{" + dp + ",counter=\"" + counter + "\"} " + value);
  l.push_back("roce_gid_info{" + dp + ",index=\"0\",gid=\"" + ll_gid + "\",type=\"IB/RoCE v1\"," +
              n + ",ip=\"" + ll + "\"} 1");
  l.push_back("roce_gid_info{" + dp + ",index=\"1\",gid=\"" + ll_gid + "\",type=\"RoCE v2\"," + n +
              ",ip=\"" + ll + "\"} 1");
  l.push_back("roce_gid_info{" + dp + ",index=\"2\",gid=\"" + v4_gid + "\",type=\"IB/RoCE v1\"," +
              n + ",ip=\"" + ip + "\"} 1");
  l.push_back("roce_gid_info{" + dp + ",index=\"3\",gid=\"" + v4_gid + "\",type=\"RoCE v2\"," + n +
              ",ip=\"" + ip + "\"} 1");
  for (const std::string& s : {
           "roce_netdev_info{" + n + "," + dp + ",address=\"94:6d:ae:b1:2c:" + guid_tail + "\"} 1",
           "roce_netdev_mtu_bytes{" + n + "} 9000",
           "roce_netdev_up{" + n + "} 1",
           "roce_netdev_carrier{" + n + "} 1",
           "roce_netdev_carrier_changes_total{" + n + "} 2",
           "roce_netdev_speed_bytes_per_second{" + n + "} 50000000000",
           "roce_pcie_info{" + d + ",pci_address=\"" + pci +
               "\",vendor_id=\"0x15b3\",device_id=\"0x1021\",numa_node=\"0\"} 1",
           "roce_pcie_link_speed_transfers_per_second{" + d + ",kind=\"current\"} 32000000000",
           "roce_pcie_link_speed_transfers_per_second{" + d + ",kind=\"max\"} 32000000000",
           "roce_pcie_link_width{" + d + ",kind=\"current\"} 16",
           "roce_pcie_link_width{" + d + ",kind=\"max\"} 16",
       })
    l.push_back(s);
  for (const char* point : {"np", "rp"})
    for (int p = 0; p < 8; ++p)
      l.push_back("roce_ecn_enabled{" + n + ",point=\"" + point + "\",priority=\"" +
                  std::to_string(p) + "\"} " + (p == 3 ? "1" : "0"));
  for (auto [param, value] : std::initializer_list<P>{
           {"cnp_802p_prio", "6"}, {"cnp_dscp", "48"}, {"min_time_between_cnps", "4"}})
    l.push_back("roce_dcqcn_parameter{" + n + ",point=\"np\",parameter=\"" + param +
                "\",source=\"sysfs\"} " + value);
  for (auto [param, value] : std::initializer_list<P>{{"clamp_tgt_rate", "0"},
                                                      {"clamp_tgt_rate_after_time_inc", "1"},
                                                      {"dce_tcp_g", "1019"},
                                                      {"dce_tcp_rtt", "1"},
                                                      {"initial_alpha_value", "1023"},
                                                      {"rate_reduce_monitor_period", "4"},
                                                      {"rate_to_set_on_first_cnp", "0"},
                                                      {"rpg_ai_rate", "5"},
                                                      {"rpg_byte_reset", "32767"},
                                                      {"rpg_gd", "11"},
                                                      {"rpg_hai_rate", "50"},
                                                      {"rpg_max_rate", "0"},
                                                      {"rpg_min_dec_fac", "50"},
                                                      {"rpg_min_rate", "1"},
                                                      {"rpg_threshold", "1"},
                                                      {"rpg_time_reset", "300"}})
    l.push_back("roce_dcqcn_parameter{" + n + ",point=\"rp\",parameter=\"" + param +
                "\",source=\"sysfs\"} " + value);
  l.push_back("roce_dcqcn_parameter{" + n +
              ",point=\"np\",parameter=\"cnp_dscp\",source=\"debugfs\"} 48");
  l.push_back("roce_dcqcn_parameter{" + n +
              ",point=\"rp\",parameter=\"rpg_ai_rate\",source=\"debugfs\"} 5");
  for (const std::string& s : {
           "roce_cm_default_roce_mode_info{" + dp + ",mode=\"RoCE v2\"} 1",
           "roce_cm_default_tos{" + dp + "} 106",
           "roce_ethtool_driver_info{" + n +
               ",driver=\"mlx5_core\",version=\"6.8.0-60-generic\","
               "firmware=\"28.39.2048 (MT_0000000838)\",bus_info=\"" +
               pci + "\"} 1",
           "roce_ethtool_link_speed_bytes_per_second{" + n + "} 50000000000",
           // mlx5 lists per-priority pause counters only for the priorities with PFC enabled.
           "roce_pfc_pause_frames_total{" + n + ",priority=\"3\",direction=\"rx\"} 1284551",
           "roce_pfc_pause_frames_total{" + n + ",priority=\"3\",direction=\"tx\"} 417902",
           "roce_pfc_pause_duration_seconds_total{" + n +
               ",priority=\"3\",direction=\"rx\"} 93.118224",
           "roce_pfc_pause_duration_seconds_total{" + n +
               ",priority=\"3\",direction=\"tx\"} 30.551208",
       })
    l.push_back(s);
  for (int p = 0; p < 8; ++p)
    l.push_back("roce_priority_discards_total{" + n + ",priority=\"" + std::to_string(p) +
                "\",direction=\"rx\"} " + (p == 0 ? "2291" : "0"));
  for (const std::string& s : {
           "roce_ethtool_rx_out_of_buffer_packets_total{" + n + "} 17",
           "roce_ethtool_rx_discarded_packets_total{" + n + "} 2291",
           "roce_ethtool_tx_discarded_packets_total{" + n + "} 0",
           "roce_ethtool_link_down_events_total{" + n + "} 1",
           "roce_ethtool_tx_pause_storm_warning_events_total{" + n + "} 0",
           "roce_ethtool_tx_pause_storm_error_events_total{" + n + "} 0",
           "roce_dcb_supported{" + n + "} 1",
       })
    l.push_back(s);
  for (int p = 0; p < 8; ++p)
    l.push_back("roce_pfc_enabled{" + n + ",priority=\"" + std::to_string(p) + "\"} " +
                (p == 3 ? "1" : "0"));
  l.push_back("roce_pfc_capability{" + n + "} 8");
  for (int p = 0; p < 8; ++p) {
    l.push_back("roce_dcb_pfc_pause_frames_total{" + n + ",priority=\"" + std::to_string(p) +
                "\",direction=\"rx\"} " + (p == 3 ? "1284551" : "0"));
    l.push_back("roce_dcb_pfc_pause_frames_total{" + n + ",priority=\"" + std::to_string(p) +
                "\",direction=\"tx\"} " + (p == 3 ? "417902" : "0"));
  }
  for (int p = 0; p < 8; ++p)
    l.push_back("roce_ets_priority_traffic_class{" + n + ",priority=\"" + std::to_string(p) +
                "\"} " +
                std::to_string(p == 0   ? 1
                               : p == 1 ? 0
                                        : p));
  l.push_back("roce_qos_trust_info{" + n + ",mode=\"dscp\"} 1");
  for (int dscp = 0; dscp < 64; ++dscp)
    l.push_back("roce_dscp_priority{" + n + ",dscp=\"" + std::to_string(dscp) + "\"} " +
                std::to_string(dscp >> 3));
  for (const std::string& s : {
           "roce_link_detected{" + n + "} 1",
           "roce_link_down_events_total{" + n + "} 1",
           "roce_pause_autoneg{" + n + "} 0",
           "roce_pause_rx_enabled{" + n + "} 0",
           "roce_pause_tx_enabled{" + n + "} 0",
           "roce_pause_frames_total{" + n + ",direction=\"rx\"} 0",
           "roce_pause_frames_total{" + n + ",direction=\"tx\"} 0",
           "roce_port_active_mtu_bytes{" + dp + "} 4096",
           "roce_port_max_mtu_bytes{" + dp + "} 4096",
           "roce_module_present{" + n + "} 1",
           "roce_module_info{" + n +
               ",identifier=\"OSFP\",spec=\"CMIS 5.0\",vendor=\"NVIDIA\","
               "part_number=\"MMA4Z00-NS400\",serial=\"MT2406FT0" +
               std::to_string(100 + nic) +
               "\",revision=\"B1\","
               "connector=\"MPO 1x12\",media=\"multimode fiber (MMF)\"} 1",
           "roce_module_temperature_celsius{" + n + "} 45.5",
           "roce_module_voltage_volts{" + n + "} 3.29",
       })
    l.push_back(s);
  for (int lane = 1; lane <= 4; ++lane) {
    const std::string ln = n + ",lane=\"" + std::to_string(lane) + "\"";
    l.push_back("roce_module_lane_tx_bias_amperes{" + ln + "} 0.0068");
    l.push_back("roce_module_lane_tx_power_watts{" + ln + "} 0.0011");
    l.push_back("roce_module_lane_rx_power_watts{" + ln + "} 0.00095");
  }
  // The module's thresholds, in base units: rx power alarms at -10 dBm (0.1 mW), warns at -9 dBm.
  using T5 = std::tuple<const char*, const char*, const char*, const char*, const char*>;
  for (auto [sensor, ha, la, hw, lw] : std::initializer_list<T5>{
           {"temperature_celsius", "75", "-5", "70", "0"},
           {"voltage_volts", "3.63", "2.97", "3.465", "3.135"},
           {"tx_bias_amperes", "0.015", "0.002", "0.013", "0.003"},
           {"tx_power_watts", "0.0050119", "0.00015849", "0.0039811", "0.00019953"},
           {"rx_power_watts", "0.0050119", "0.0001", "0.0039811", "0.00012589"}}) {
    for (auto [level, value] : std::initializer_list<P>{
             {"high_alarm", ha}, {"low_alarm", la}, {"high_warning", hw}, {"low_warning", lw}})
      l.push_back("roce_module_threshold{" + n + ",sensor=\"" + sensor + "\",level=\"" + level +
                  "\"} " + value);
  }
  for (const char* level : {"high_alarm", "low_alarm", "high_warning", "low_warning"})
    l.push_back("roce_module_flag{" + n + ",sensor=\"temperature_celsius\",lane=\"0\",level=\"" +
                level + "\"} 0");
  for (int lane = 1; lane <= 4; ++lane)
    for (const char* level : {"low_alarm", "low_warning"})
      l.push_back("roce_module_flag{" + n + ",sensor=\"rx_power_watts\",lane=\"" +
                  std::to_string(lane) + "\",level=\"" + level + "\"} 0");
  l.push_back("roce_module_read_success{" + n + "} 1");
  return l;
}

inline std::string MetricOfLine(std::string_view line) {
  return std::string(line.substr(0, line.find_first_of("{ ")));
}

// A node's /metrics: the NICs' series grouped by family, each family after its TYPE line
// (counters end in _total), then the exporter's own series.
inline std::string NodeText(int node, int nics) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> by_family;
  auto take = [&](const std::string& line) {
    std::string m = MetricOfLine(line);
    if (!by_family.count(m)) order.push_back(m);
    by_family[m].push_back(line);
  };
  for (int i = 0; i < nics; ++i)
    for (const auto& line : NicLines(node, i)) take(line);
  take("roce_exporter_build_info{version=\"0.1.0\",revision=\"e454b8b\"} 1");
  for (std::string_view c : contract::kCollectors)  // every collector, from the exporter's specs
    take("roce_exporter_collector_success{collector=\"" + std::string(c) + "\"} 1");
  take("roce_exporter_collections_total 1");
  std::string out;
  for (const auto& m : order) {
    bool counter = m.size() > 6 && m.compare(m.size() - 6, 6, "_total") == 0;
    out += "# TYPE " + m + (counter ? " counter\n" : " gauge\n");
    for (const auto& line : by_family[m]) out += line + "\n";
  }
  return out;
}

// The value of exactly one series (`series` is the line up to the value: name{labels}).
inline void SetSeries(std::string& text, std::string_view series, std::string_view value) {
  std::string needle = "\n" + std::string(series) + " ";
  std::string padded = "\n" + text;
  std::size_t at = padded.find(needle);
  ASSERT_NE(at, std::string::npos) << "no series " << series;
  ASSERT_EQ(padded.find(needle, at + 1), std::string::npos) << "series twice: " << series;
  std::size_t start = at + needle.size();
  std::size_t end = padded.find('\n', start);
  padded.replace(start, end - start, value);
  text = padded.substr(1);
}

// Removes every line starting with `prefix` (at least one).
inline void RemoveSeries(std::string& text, std::string_view prefix) {
  std::string out;
  std::size_t removed = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size() - 1;
    std::string_view line(text.data() + pos, end - pos);
    if (line.substr(0, prefix.size()) == prefix)
      ++removed;
    else
      out.append(text, pos, end - pos + 1);
    pos = end + 1;
  }
  EXPECT_GT(removed, 0u) << "no series starts with " << prefix;
  text = out;
}

// Adds a series after the last one of its family (or as a new family at the end).
inline void AddSeries(std::string& text, const std::string& line) {
  std::string m = MetricOfLine(line);
  std::size_t last = std::string::npos, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view l(text.data() + pos, end - pos);
    if (!l.empty() && l[0] != '#' && MetricOfLine(l) == m) last = end;
    pos = end + 1;
  }
  if (last != std::string::npos) {
    text.insert(last + 1, line + "\n");
  } else {
    bool counter = m.size() > 6 && m.compare(m.size() - 6, 6, "_total") == 0;
    text += "# TYPE " + m + (counter ? " counter\n" : " gauge\n") + line + "\n";
  }
}

inline observe::Exposition ParseClean(std::string text) {
  auto parsed = observe::Exposition::Parse(std::move(text));
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message);
  if (!parsed.ok()) {
    auto empty = observe::Exposition::Parse("");
    return std::move(*empty);
  }
  EXPECT_EQ(parsed->error_count(), 0u)
      << (parsed->errors().empty() ? "" : parsed->errors().front().ToString());
  return std::move(*parsed);
}

// A plan and one exporter text per node; tests edit them, then Run() the checks.
class Cluster {
 public:
  explicit Cluster(int nodes = 1, int nics_per_node = 2)
      : plan_json(PlanJson(nodes, nics_per_node)) {
    for (int n = 1; n <= nodes; ++n) {
      text.push_back(NodeText(n, nics_per_node));
      error.emplace_back();
    }
  }

  // Edits of node n's (1-based) exporter text.
  void Set(int node, std::string_view series, std::string_view value) {
    SetSeries(text.at(node - 1), series, value);
  }
  void Remove(int node, std::string_view prefix) { RemoveSeries(text.at(node - 1), prefix); }
  void Add(int node, const std::string& line) { AddSeries(text.at(node - 1), line); }
  void Unreachable(int node, std::string why) { error.at(node - 1) = std::move(why); }
  void EditPlan(std::string_view from, std::string_view to) {
    std::size_t at = plan_json.find(from);
    ASSERT_NE(at, std::string::npos) << "not in the plan: " << from;
    plan_json.replace(at, from.size(), to);
  }
  // The texts as they are now become the first observation of a counter window.
  void StartWindow(double seconds) {
    before = text;
    window = seconds;
  }

  std::vector<Finding> Run() {
    auto loaded = plan::LoadPlanText(plan_json, "plan.json");
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    if (!loaded.ok()) return {};
    std::vector<Finding> problems = loaded->findings;
    for (auto& f : plan::ValidatePlan(loaded->plan)) problems.push_back(f);
    for (const auto& f : problems)
      EXPECT_LT(f.severity, Severity::kError) << "the test plan has an error: " << f.message;
    plan = std::move(loaded->plan);
    views.clear();
    for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
      observe::NodeView view(plan.nodes[i].name, "http://" + plan.nodes[i].exporter + "/metrics");
      if (i < error.size() && error[i]) {
        view.SetError(*error[i]);
      } else if (i < text.size()) {
        view.SetMetrics(ParseClean(text[i]));
        if (window > 0 && i < before.size()) {
          auto increase = observe::ComputeIncrease(ParseClean(before[i]), *view.metrics());
          EXPECT_TRUE(increase.ok());
          if (increase.ok()) view.SetIncrease(std::move(*increase), window);
        }
      }
      views.push_back(std::move(view));
    }
    std::vector<Finding> findings = checks::RunChecks(plan, views);
    fix::RenderFixes(findings);
    ExpectChinese(findings, plan);
    return findings;
  }

  std::string plan_json;
  std::vector<std::string> text;                  // one per node
  std::vector<std::optional<std::string>> error;  // set: the node is unreachable
  std::vector<std::string> before;                // the first observation of the window
  double window = 0;
  plan::Plan plan;                       // as loaded by the last Run()
  std::vector<observe::NodeView> views;  // as built by the last Run()
};

inline std::vector<Finding> WithId(const std::vector<Finding>& findings, std::string_view id) {
  std::vector<Finding> out;
  for (const auto& f : findings)
    if (f.check == id) out.push_back(f);
  return out;
}

inline std::vector<std::string> Ids(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.push_back(f.check);
  return out;
}

inline std::string Describe(const std::vector<Finding>& findings) {
  std::string out;
  for (const auto& f : findings)
    out += "  [" + f.check + "] " + f.node + " " + f.device + " " + f.netdev + ": " + f.message +
           " (expected " + f.expected + "; found " + f.found + ")\n";
  return out.empty() ? "  (no findings)\n" : out;
}

// The only finding of the run, which must be the spec's, on node/device/netdev.
inline Finding ExpectOnly(const std::vector<Finding>& findings, const lint::CheckSpec& spec,
                          const std::string& node, const std::string& device,
                          const std::string& netdev) {
  EXPECT_EQ(findings.size(), 1u) << Describe(findings);
  auto mine = WithId(findings, spec.id);
  EXPECT_EQ(mine.size(), 1u) << Describe(findings);
  if (mine.empty()) return Finding{};
  const Finding& f = mine.front();
  EXPECT_EQ(f.severity, spec.severity);
  EXPECT_EQ(f.node, node);
  EXPECT_EQ(f.device, device);
  EXPECT_EQ(f.netdev, netdev);
  return f;
}

}  // namespace rocewatch::lint::testing
