// Switch counter profiles (lint/switch/counter_profiles.h): the built-in ones as the docs list
// them, a --switch-counters file that extends one, hostile files refused naming file and JSON
// path, and the join of a switch port's counters to an LLDP neighbour (switch_pauses.h).

#include <gtest/gtest.h>

#include "lint/switch/counter_profiles.h"
#include "lint/switch/switch_pauses.h"

namespace rocewatch::lint::switch_config {
namespace {

const CounterProfile* Named(const std::vector<CounterProfile>& all, std::string_view name) {
  for (const auto& p : all)
    if (p.name == name) return &p;
  return nullptr;
}

// gnmic's prometheus output naming (pkg/outputs/prometheus_output/prometheus_common.go,
// MetricName; pkg/formatters/event.go, tagsFromGNMIPath), restated here so the built-in gnmic
// profiles are checked against the YANG paths they come from: the path without its keys, every run
// of characters outside [a-zA-Z0-9_] one '_', leading '_' trimmed; a key `k` of element `e` the
// label `e_k` made a Prometheus name the same way.
std::string GnmicName(std::string_view path) {
  std::string unkeyed;
  int depth = 0;
  for (char c : path) {
    if (c == '[') ++depth;
    if (depth == 0) unkeyed += c;
    if (c == ']') --depth;
  }
  std::string out;
  for (char c : unkeyed) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (ok) {
      out += c;
    } else if (out.empty() || out.back() != '_') {
      out += '_';
    }
  }
  return out.substr(out.find_first_not_of('_'));
}

std::string ErrorOf(std::string_view text) {
  auto r = ParseCounterProfiles(text, "sw.json");
  return r.ok() ? "" : r.error().message;
}

TEST(CounterProfiles, BuiltinProfilesAreTheDocumentedOnes) {
  const auto& all = BuiltinCounterProfiles();
  ASSERT_EQ(all.size(), 6u);
  const CounterProfile* cisco = Named(all, "snmp-cisco-pfc-ext");
  ASSERT_NE(cisco, nullptr);
  EXPECT_EQ(cisco->priority_label, "cpfcIfPriorityValue");
  EXPECT_EQ(cisco->port_label, "ifName");
  ASSERT_EQ(cisco->series.size(), 2u);
  EXPECT_EQ(cisco->series[0].metric, "cpfcIfPriorityRequests");
  EXPECT_EQ(cisco->series[0].direction, PauseDirection::kTx);
  EXPECT_EQ(cisco->series[1].metric, "cpfcIfPriorityIndications");
  EXPECT_EQ(cisco->series[1].direction, PauseDirection::kRx);
  const CounterProfile* arista = Named(all, "snmp-arista-pfc");
  ASSERT_NE(arista, nullptr);
  EXPECT_EQ(arista->series[0].metric, "aristaPfcPriorityRequests");
  EXPECT_EQ(arista->priority_label, "aristaPfcPriorityIndex");
  const CounterProfile* cumulus = Named(all, "snmp-cumulus-counters");
  ASSERT_NE(cumulus, nullptr);
  ASSERT_EQ(cumulus->series.size(), 16u);
  EXPECT_TRUE(cumulus->priority_label.empty());
  EXPECT_EQ(cumulus->series[6].metric, "clIntInPfc3Pkt");
  EXPECT_EQ(cumulus->series[6].direction, PauseDirection::kRx);
  EXPECT_EQ(cumulus->series[6].priority, 3);
  EXPECT_EQ(cumulus->series[7].metric, "clIntOutPfc3Pkt");
  EXPECT_EQ(cumulus->series[7].direction, PauseDirection::kTx);
  const CounterProfile* otel = Named(all, "otel-nvswitch");
  ASSERT_NE(otel, nullptr);
  EXPECT_EQ(otel->port_label, "interface");
  EXPECT_EQ(otel->series[0].metric, "nvswitch_interface_sp_rx_pause");
}

TEST(CounterProfiles, GnmicProfilesAreGnmicsNamesOfTheYangPaths) {
  EXPECT_EQ(GnmicName("/interfaces/interface[name=1/1/1]/subinterfaces/subinterface[index=0]/state/counters/in-octets"),
            "interfaces_interface_subinterfaces_subinterface_state_counters_in_octets");  // gnmic's docs' example
  EXPECT_EQ(GnmicName("interface_interface-id"), "interface_interface_id");
  const auto& all = BuiltinCounterProfiles();
  // Arista EOS, arista-intf-augments.yang: augment /oc-if:interfaces/oc-if:interface/oc-eth:ethernet
  // { container pfc { container priorities { list priority { key "index"; container state {
  // leaf in-frames ("received"); leaf out-frames ("transmitted") } } } } }.
  const CounterProfile* arista = Named(all, "gnmic-arista-pfc");
  ASSERT_NE(arista, nullptr);
  EXPECT_EQ(arista->switch_label, "source");
  EXPECT_EQ(arista->port_label, GnmicName("interface_name"));
  EXPECT_EQ(arista->priority_label, GnmicName("priority_index"));
  ASSERT_EQ(arista->series.size(), 2u);
  EXPECT_EQ(arista->series[0].metric,
            GnmicName("/interfaces/interface[name=Ethernet1]/ethernet/pfc/priorities/priority[index=3]/state/in-frames"));
  EXPECT_EQ(arista->series[0].direction, PauseDirection::kRx);
  EXPECT_EQ(arista->series[1].metric,
            GnmicName("/interfaces/interface[name=Ethernet1]/ethernet/pfc/priorities/priority[index=3]/state/out-frames"));
  EXPECT_EQ(arista->series[1].direction, PauseDirection::kTx);
  EXPECT_FALSE(arista->series[0].priority.has_value());
  // Cumulus Linux's gNMI server (NVIDIA's "gNMI Streaming" metric table, QoS): in-pause-pkts are the
  // pause packets of the priority received, out-pause-pkts those sent.
  const CounterProfile* cumulus = Named(all, "gnmic-cumulus-switch-priority");
  ASSERT_NE(cumulus, nullptr);
  EXPECT_EQ(cumulus->switch_label, "source");
  EXPECT_EQ(cumulus->port_label, GnmicName("interface_interface-id"));
  EXPECT_EQ(cumulus->priority_label, GnmicName("switch-priority_priority"));
  ASSERT_EQ(cumulus->series.size(), 2u);
  EXPECT_EQ(cumulus->series[0].metric,
            GnmicName("/qos/interfaces/interface[interface-id=swp1]/switch-priority[priority=3]/state/counters/in-pause-pkts"));
  EXPECT_EQ(cumulus->series[0].direction, PauseDirection::kRx);
  EXPECT_EQ(cumulus->series[1].metric,
            GnmicName("/qos/interfaces/interface[interface-id=swp1]/switch-priority[priority=3]/state/counters/out-pause-pkts"));
  EXPECT_EQ(cumulus->series[1].direction, PauseDirection::kTx);
}

TEST(CounterProfiles, TheExampleFileIsWhatTheDocsSay) {
  // examples/switch-counters.json (docs/operations.md "The switch side"): a label renamed, a gnmic
  // metric-prefix (every name restated, the labels kept), and an example profile of the NetQ
  // agent's gNMI whose path is an assumption the file's description states.
  auto r = ReadCounterProfilesFile(ROCEWATCH_SOURCE_DIR "/examples/switch-counters.json");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].switch_label, "sysName");
  EXPECT_EQ((*r)[0].series.size(), 2u);
  const CounterProfile& prefixed = (*r)[1];
  EXPECT_EQ(prefixed.name, "gnmic-arista-pfc");
  EXPECT_EQ(prefixed.priority_label, "priority_index");  // from the built-in
  EXPECT_EQ(prefixed.port_label, "interface_name");
  ASSERT_EQ(prefixed.series.size(), 2u);
  EXPECT_EQ(prefixed.series[0].metric,
            "gnmic_" + GnmicName("/interfaces/interface/ethernet/pfc/priorities/priority/state/in-frames"));
  const CounterProfile& netq = (*r)[2];
  EXPECT_EQ(netq.name, "gnmic-netq-ethernet-ext");
  EXPECT_NE(netq.description.find("not confirmed"), std::string::npos);
  EXPECT_TRUE(netq.priority_label.empty());
  ASSERT_EQ(netq.series.size(), 16u);
  for (int p = 0; p < 8; ++p) {
    const std::string leaf = "/interfaces/interface[name=swp1]/ethernet/state/counters/";
    EXPECT_EQ(netq.series[2 * p].metric, GnmicName(leaf + "in-pfc" + std::to_string(p) + "-packets"));
    EXPECT_EQ(netq.series[2 * p].direction, PauseDirection::kRx);
    EXPECT_EQ(netq.series[2 * p].priority, p);
    EXPECT_EQ(netq.series[2 * p + 1].metric, GnmicName(leaf + "out-pfc" + std::to_string(p) + "-packets"));
    EXPECT_EQ(netq.series[2 * p + 1].direction, PauseDirection::kTx);
  }
  auto merged = MergeProfiles(BuiltinCounterProfiles(), *r);
  ASSERT_EQ(merged.size(), 7u);  // two replaced, one added
  EXPECT_EQ(Named(merged, "gnmic-arista-pfc")->series[1].metric,
            "gnmic_interfaces_interface_ethernet_pfc_priorities_priority_state_out_frames");
}

TEST(CounterProfiles, AFileExtendsABuiltinAndAddsItsOwn) {
  auto r = ParseCounterProfiles(R"({"profiles": [
      {"name": "snmp-cisco-pfc-ext", "extends": "snmp-cisco-pfc-ext", "switch_label": "sysName"},
      {"name": "mine", "switch_label": "host", "port_label": "port",
       "series": [{"metric": "sw_pfc_rx_3", "direction": "rx", "priority": 3}]}]})",
                                "sw.json");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].switch_label, "sysName");
  EXPECT_EQ((*r)[0].priority_label, "cpfcIfPriorityValue");  // from the built-in
  EXPECT_EQ((*r)[0].series.size(), 2u);
  auto merged = MergeProfiles(BuiltinCounterProfiles(), *r);
  ASSERT_EQ(merged.size(), 7u);
  EXPECT_EQ(Named(merged, "snmp-cisco-pfc-ext")->switch_label, "sysName");
  EXPECT_EQ(Named(merged, "mine")->series[0].priority, 3);
}

TEST(CounterProfiles, HostileFilesNameFileAndPath) {
  EXPECT_EQ(ErrorOf("{"), "sw.json: invalid JSON: syntax error while parsing object key - unexpected end of input; "
                          "expected string literal");
  EXPECT_EQ(ErrorOf("[]"), "sw.json: /: expected an object, found an array");
  EXPECT_EQ(ErrorOf(R"({"profile": []})"), "sw.json: /profile: unknown key (the file has \"profiles\")");
  EXPECT_EQ(ErrorOf(R"({"profiles": {}})"), "sw.json: /profiles: expected an array, found an object");
  const std::string head = R"({"profiles": [{"name": "x", "switch_label": "s", "port_label": "p", )";
  EXPECT_EQ(ErrorOf(head + R"("priority_label": "q", "series": [{"metric": "m", "direction": "in"}]}]})"),
            "sw.json: /profiles/0/series/0/direction: \"in\" is not rx (pauses the switch port received) or tx "
            "(pauses it sent)");
  EXPECT_EQ(ErrorOf(head + R"("series": [{"metric": "m", "direction": "rx", "priority": 9}]}]})"),
            "sw.json: /profiles/0/series/0/priority: \"9\" is not an integer from 0 to 7");
  // A name goes into a PromQL query: anything but a metric name is refused.
  EXPECT_EQ(ErrorOf(head + R"j("series": [{"metric": "m{a=\"b\"} or vector(1)", "direction": "rx", "priority": 1}]}]})j"),
            "sw.json: /profiles/0/series/0/metric: \"m{a=\\\"b\\\"} or vector(1)\" is not a Prometheus metric name "
            "([a-zA-Z_:][a-zA-Z0-9_:]*)");
  EXPECT_EQ(ErrorOf(R"({"profiles": [{"name": "x", "switch_label": "s-1", "port_label": "p"}]})"),
            "sw.json: /profiles/0/switch_label: \"s-1\" is not a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*)");
  EXPECT_EQ(ErrorOf(head + R"("series": [{"metric": "m", "direction": "rx"}]}]})"),
            "sw.json: /profiles/0: no \"priority_label\", and series \"m\" states no \"priority\"");
  EXPECT_EQ(ErrorOf(head + R"("series": []}]})"),
            "sw.json: /profiles/0/series: no series: a profile names at least one metric");
  EXPECT_EQ(ErrorOf(head + R"("prio_label": "q", "series": []}]})"),
            "sw.json: /profiles/0/prio_label: unknown key (a profile has name, extends, description, switch_label, "
            "port_label, priority_label and series)");
  EXPECT_EQ(ErrorOf(R"({"profiles": [{"name": "x", "extends": "nope"}]})"),
            "sw.json: /profiles/0/extends: \"nope\" is not a built-in profile (snmp-cisco-pfc-ext, snmp-arista-pfc, "
            "snmp-cumulus-counters, otel-nvswitch, gnmic-arista-pfc, gnmic-cumulus-switch-priority)");
  EXPECT_EQ(ErrorOf(R"({"profiles": [{"name": "a", "extends": "otel-nvswitch"}, {"name": "a", "extends": "otel-nvswitch"}]})"),
            "sw.json: /profiles/1/name: \"a\" names two profiles");
  EXPECT_EQ(ErrorOf(R"({"profiles": [{"extends": "otel-nvswitch"}]})"), "sw.json: /profiles/0: no \"name\"");
  EXPECT_EQ(ErrorOf(R"({"profiles": [{"name": 7}]})"), "sw.json: /profiles/0/name: expected a string, found a number");
  EXPECT_EQ(ErrorOf(std::string(100, '[')), "sw.json: JSON nested deeper than 8 levels; counter profiles nest 4");
  EXPECT_EQ(ErrorOf(std::string(kMaxCounterProfilesBytes + 1, ' ')),
            "sw.json: 1048577 bytes, above the limit of 1048576 bytes for counter profiles");
  auto missing = ReadCounterProfilesFile("/nonexistent/sw.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/sw.json"), std::string::npos) << missing.error().message;
}

TEST(SwitchPauses, JoinsByNameIgnoringCasePortSuffixAndOneSidedDomain) {
  SwitchPauses p;
  p.Add("Leaf-0:161", "Ethernet8", 3, PauseDirection::kTx, 500, "snmp-cisco-pfc-ext");
  p.Add("leaf-0:161", "Ethernet8", 3, PauseDirection::kTx, 20, "snmp-cisco-pfc-ext");
  p.Add("leaf-1.dc.example", "swp1", 4, PauseDirection::kRx, 7, "snmp-cumulus-counters");
  p.Add("10.0.0.1", "swp2", 4, PauseDirection::kRx, 7, "x");
  const PortPauses* a = p.Find("leaf-0", "Ethernet8");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->tx[3], 520);
  EXPECT_FALSE(a->rx[3].has_value());
  EXPECT_EQ(p.Find("leaf-0", "Ethernet9"), nullptr);
  EXPECT_EQ(p.Find("leaf-0", "ethernet8"), nullptr);  // ports compare exactly
  ASSERT_NE(p.Find("LEAF-1", "swp1"), nullptr);
  EXPECT_EQ(p.Find("leaf-1", "swp1")->rx[4], 7);
  EXPECT_EQ(p.Find("leaf-1.other.example", "swp1"), nullptr);
  EXPECT_EQ(p.Find("10", "swp2"), nullptr);  // an address has no short name
  EXPECT_EQ(NormaliseSwitchName("Leaf-0:9116"), "leaf-0");
  EXPECT_EQ(NormaliseSwitchName("fe80::1"), "fe80::1");
}

}  // namespace
}  // namespace rocewatch::lint::switch_config
