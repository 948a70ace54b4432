// The built-in counter profiles (counter_profiles.h), as the JSON a --switch-counters file
// holds, read by the same parser. Where each name and label comes from: docs/operations.md
// "The switch side" and tests/e2e/switch_counters/PROVENANCE.md.

#include <cstdlib>
#include <iostream>

#include "lint/switch/counter_profiles.h"

namespace rocewatch::lint::switch_config {
namespace {

// snmp_exporter names a metric after its MIB object and an index label after its index object;
// the port label is the IF-MIB ifName lookup of the interface index (generator.yml `lookups`).
// gnmic's prometheus output names a metric after the gNMI path without its keys, every run of
// characters outside [a-zA-Z0-9_] made one `_` (MetricBuilder.MetricName), and a path key
// `elem[key=v]` a label `elem_key` the same way (formatters.tagsFromGNMIPath, GetLabels); the
// target's name in gnmic's configuration is the `source` label. The gnmic profiles assume the
// switch sends paths without YANG module prefixes or an origin, as the gNMI path conventions ask
// (docs/operations.md "The switch side" says what else would change the names).
constexpr const char* kBuiltin = R"json({"profiles": [
  {"name": "snmp-cisco-pfc-ext",
    "description": "prometheus/snmp_exporter walking CISCO-PFC-EXT-MIB cpfcIfPriorityTable (Cisco NX-OS; SONiC's snmp agent): Requests are the pause frames the port sent, Indications those it received",
    "switch_label": "instance", "port_label": "ifName", "priority_label": "cpfcIfPriorityValue",
    "series": [
      {"metric": "cpfcIfPriorityRequests", "direction": "tx"},
      {"metric": "cpfcIfPriorityIndications", "direction": "rx"}]},
  {"name": "snmp-arista-pfc",
    "description": "prometheus/snmp_exporter walking ARISTA-PFC-MIB aristaPfcPriorityTable (Arista EOS)",
    "switch_label": "instance", "port_label": "ifName", "priority_label": "aristaPfcPriorityIndex",
    "series": [
      {"metric": "aristaPfcPriorityRequests", "direction": "tx"},
      {"metric": "aristaPfcPriorityIndications", "direction": "rx"}]},
  {"name": "snmp-cumulus-counters",
    "description": "prometheus/snmp_exporter walking CUMULUS-COUNTERS-MIB pfcClCountersTable (NVIDIA Cumulus Linux): the priority is in the name, In received, Out sent",
    "switch_label": "instance", "port_label": "ifName",
    "series": [
        {"metric": "clIntInPfc0Pkt", "direction": "rx", "priority": 0},
        {"metric": "clIntOutPfc0Pkt", "direction": "tx", "priority": 0},
        {"metric": "clIntInPfc1Pkt", "direction": "rx", "priority": 1},
        {"metric": "clIntOutPfc1Pkt", "direction": "tx", "priority": 1},
        {"metric": "clIntInPfc2Pkt", "direction": "rx", "priority": 2},
        {"metric": "clIntOutPfc2Pkt", "direction": "tx", "priority": 2},
        {"metric": "clIntInPfc3Pkt", "direction": "rx", "priority": 3},
        {"metric": "clIntOutPfc3Pkt", "direction": "tx", "priority": 3},
        {"metric": "clIntInPfc4Pkt", "direction": "rx", "priority": 4},
        {"metric": "clIntOutPfc4Pkt", "direction": "tx", "priority": 4},
        {"metric": "clIntInPfc5Pkt", "direction": "rx", "priority": 5},
        {"metric": "clIntOutPfc5Pkt", "direction": "tx", "priority": 5},
        {"metric": "clIntInPfc6Pkt", "direction": "rx", "priority": 6},
        {"metric": "clIntOutPfc6Pkt", "direction": "tx", "priority": 6},
        {"metric": "clIntInPfc7Pkt", "direction": "rx", "priority": 7},
        {"metric": "clIntOutPfc7Pkt", "direction": "tx", "priority": 7}]},
  {"name": "otel-nvswitch",
    "description": "NVIDIA Cumulus Linux OpenTelemetry export (nv set system telemetry interface-stats switch-priority N) through an OTLP receiver into Prometheus",
    "switch_label": "instance", "port_label": "interface", "priority_label": "switch_priority",
    "series": [
      {"metric": "nvswitch_interface_sp_rx_pause", "direction": "rx"},
      {"metric": "nvswitch_interface_sp_tx_pause", "direction": "tx"}]},
  {"name": "gnmic-arista-pfc",
    "description": "gnmic's prometheus output (no metric-prefix, append-subscription-name off) of Arista EOS's OpenConfig PFC augment (arista-intf-augments) /interfaces/interface[name]/ethernet/pfc/priorities/priority[index]/state/in-frames and out-frames",
    "switch_label": "source", "port_label": "interface_name", "priority_label": "priority_index",
    "series": [
      {"metric": "interfaces_interface_ethernet_pfc_priorities_priority_state_in_frames", "direction": "rx"},
      {"metric": "interfaces_interface_ethernet_pfc_priorities_priority_state_out_frames", "direction": "tx"}]},
  {"name": "gnmic-cumulus-switch-priority",
    "description": "gnmic's prometheus output (no metric-prefix, append-subscription-name off) of NVIDIA Cumulus Linux's gNMI server /qos/interfaces/interface[interface-id]/switch-priority[priority]/state/counters/in-pause-pkts and out-pause-pkts",
    "switch_label": "source", "port_label": "interface_interface_id", "priority_label": "switch_priority_priority",
    "series": [
      {"metric": "qos_interfaces_interface_switch_priority_state_counters_in_pause_pkts", "direction": "rx"},
      {"metric": "qos_interfaces_interface_switch_priority_state_counters_out_pause_pkts", "direction": "tx"}]}
]})json";

}  // namespace

const std::vector<CounterProfile>& BuiltinCounterProfiles() {
  static const std::vector<CounterProfile> kProfiles = [] {
    auto parsed = ParseCounterProfiles(kBuiltin, "built-in");
    if (!parsed) {  // a programming error, caught by tests/lint/counter_profiles_test.cpp
      std::cerr << parsed.error().message << "\n";
      std::abort();
    }
    return std::move(*parsed);
  }();
  return kProfiles;
}

}  // namespace rocewatch::lint::switch_config
