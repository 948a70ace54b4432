#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exporter/collectors/dcb/used_dscps.h"
#include "exporter/collectors/ethtool/collector.h"
#include "exporter/ethtool/classify.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;
using S = Served;

const MetricSpec kDriverInfo{"roce_ethtool_driver_info", T::kGauge,
    "Driver, driver version, firmware and bus address of the netdev (ethtool -i); always 1.",
    {"netdev", "driver", "version", "firmware", "bus_info"}};
const MetricSpec kLinkSpeed{"roce_ethtool_link_speed_bytes_per_second", T::kGauge,
    "Link speed from ETHTOOL_GLINKSETTINGS in bytes per second (absent while unknown).",
    {"netdev"}};
const MetricSpec kLinkInfo{"roce_ethtool_link_info", T::kGauge,
    "Duplex, connector port type and autonegotiation (on/off) of the link; always 1.",
    {"netdev", "duplex", "connector", "autoneg"}};

// Per-priority families: served for the priorities in use (ServedPriorities below).
const std::vector<std::string_view> kPriorityLabels = {"netdev", "priority", "direction"};
const MetricSpec kPfcPauseFrames{"roce_pfc_pause_frames_total", T::kCounter,
    "PFC pause (XOFF) frames per priority from the driver statistics (rx received, tx sent); "
    "priorities in use only unless --collector.ethtool.all-priorities.",
    kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities (mlx5 lists PFC-enabled priorities only)"};
const MetricSpec kPfcPauseDuration{"roce_pfc_pause_duration_seconds_total", T::kCounter,
    "Time paused by PFC per priority (rx: the peer paused us, tx: we paused the peer).",
    kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities (mlx5 lists PFC-enabled priorities only)"};
const MetricSpec kPfcPauseTransitions{"roce_pfc_pause_transitions_total", T::kCounter,
    "PFC pause episodes per priority: XOFF to XON transitions (mlx5), XON to XOFF (bnxt_en).",
    kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities (mlx5 lists PFC-enabled priorities only)"};
const MetricSpec kPfcFrames{"roce_pfc_frames_total", T::kCounter,
    "PFC frames per priority whose class-enable vector names it, pause (XOFF) and resume (XON) "
    "alike (bnxt_en rx/tx_pfc_ena_frames_pri<N>); not pause frames. Priorities in use only "
    "unless --collector.ethtool.all-priorities.",
    kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities"};
const MetricSpec kPriorityBytes{"roce_priority_bytes_total", T::kCounter,
    "Bytes per priority on the physical port; priorities in use (PFC on, a DSCP in use maps to it, "
    "or a non-zero counter) only unless --collector.ethtool.all-priorities.", kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities"};
const MetricSpec kPriorityPackets{"roce_priority_packets_total", T::kCounter,
    "Packets per priority on the physical port; priorities in use only unless "
    "--collector.ethtool.all-priorities.", kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities"};
const MetricSpec kPriorityDiscards{"roce_priority_discards_total", T::kCounter,
    "Packets dropped per priority (any reason).", kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities"};
const MetricSpec kPriorityBufferDiscards{"roce_priority_buffer_discards_total", T::kCounter,
    "Packets dropped per priority for lack of receive buffer.", kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities"};
const MetricSpec kPriorityCongestionDiscards{"roce_priority_congestion_discards_total",
    T::kCounter, "Packets dropped per priority by congestion control (WRED).", kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities"};
const MetricSpec kPriorityEcnMarked{"roce_priority_ecn_marked_packets_total", T::kCounter,
    "Packets ECN-marked (CE) per priority by the device.", kPriorityLabels,
    S::kTrimmed, "--collector.ethtool.all-priorities"};

const MetricSpec kUnclassified{"roce_exporter_unclassified_statistics", T::kGauge,
    "How many ethtool -S statistics the netdev's driver printed that its driver table "
    "(docs/metrics.md \"Drivers\") does not know, every one for a driver with no table; "
    "--collector.ethtool.metrics-include serves them raw.",
    {"netdev"}};
const MetricSpec kRawStat{"roce_ethtool_stat_total", T::kCounter,
    "A per-queue or unclassified driver statistic selected by --collector.ethtool.metrics-include, "
    "named as the driver names it.",
    {"netdev", "stat"}};

const MetricSpec& PrioritySpec(ethtool::PriorityKind kind) {
  using K = ethtool::PriorityKind;
  switch (kind) {
    case K::kPauseFrames: return kPfcPauseFrames;
    case K::kPauseDurationSeconds: return kPfcPauseDuration;
    case K::kPauseTransitions: return kPfcPauseTransitions;
    case K::kPfcFrames: return kPfcFrames;
    case K::kBytes: return kPriorityBytes;
    case K::kPackets: return kPriorityPackets;
    case K::kDiscards: return kPriorityDiscards;
    case K::kBufferDiscards: return kPriorityBufferDiscards;
    case K::kCongestionDiscards: return kPriorityCongestionDiscards;
    case K::kEcnMarked: return kPriorityEcnMarked;
  }
  return kPfcPauseFrames;  // not reached: every kind is listed
}

// The priority label's text, without a string built per sample.
constexpr std::array<std::string_view, 8> kPriorityText = {"0", "1", "2", "3", "4", "5", "6", "7"};

// Port statistic kinds served only with --collector.ethtool.all-port-stats (docs/metrics.md
// "Default and opt-in series"); no check, rule or panel reads them.
enum class PortDetail { kRdmaTraffic, kPauseControl, kDetail };
const std::map<std::string_view, PortDetail>& DetailPortKinds() {
  static const std::map<std::string_view, PortDetail> kKinds = {
      // mlx5's rx/tx_vport_rdma_unicast_*: the vport RDMA counters that counters/
      // port_{rcv,xmit}_{data,packets} read too (roce_port_*_total of the rdma collector).
      {"rx_rdma_unicast_packets", PortDetail::kRdmaTraffic},
      {"rx_rdma_unicast_bytes", PortDetail::kRdmaTraffic},
      {"tx_rdma_unicast_packets", PortDetail::kRdmaTraffic},
      {"tx_rdma_unicast_bytes", PortDetail::kRdmaTraffic},
      // rx/tx_pause_ctrl_phy: the PPCNT field (a_pause_mac_ctrl_frames_*) that ethtool
      // netlink's pause statistics serve as roce_pause_frames_total.
      {"rx_pause_control_frames", PortDetail::kPauseControl},
      {"tx_pause_control_frames", PortDetail::kPauseControl},
      // MAC control frames on Ethernet are pause and PFC frames, counted by kind in
      // roce_pfc_pause_frames_total and roce_pause_frames_total.
      {"rx_mac_control_frames", PortDetail::kDetail},
      {"tx_mac_control_frames", PortDetail::kDetail},
      // The RFC 2819 size classes of bad frames; CRC, symbol and FEC counters stay.
      {"rx_undersize_frames", PortDetail::kDetail},
      {"rx_fragment_frames", PortDetail::kDetail},
      {"rx_jabber_frames", PortDetail::kDetail},
      {"rx_oversize_frames", PortDetail::kDetail},
      // Seconds with stalled PCIe reads/writes: the stalled ratios stay (panels read them).
      {"pcie_outbound_read_stalled_seconds", PortDetail::kDetail},
      {"pcie_outbound_write_stalled_seconds", PortDetail::kDetail},
      // Module events the optics collector shows as presence, read success and flags.
      {"module_unplug_events", PortDetail::kDetail},
      {"module_bus_stuck_events", PortDetail::kDetail},
      {"module_high_temperature_events", PortDetail::kDetail},
      {"module_bad_cable_events", PortDetail::kDetail},
  };
  return kKinds;
}

// One family per port statistic kind of ethtool::PortStatTable(): roce_ethtool_<kind>,
// with _total for counters. Built once; the names live as long as the program.
struct PortFamily {
  const MetricSpec* spec = nullptr;
  std::optional<PortDetail> detail;  // set for the kinds served only with all-port-stats
};
struct PortFamilies {
  std::deque<std::string> names;
  std::deque<std::string> helps;
  std::deque<MetricSpec> specs;
  std::vector<PortFamily> by_entry;  // by position in PortStatTable(): what a PortValue points to
  // Null for a pointer outside the table.
  const PortFamily* Of(const ethtool::PortStatSpec* entry) const {
    const auto table = ethtool::PortStatTable();
    if (entry < table.data() || entry >= table.data() + table.size()) return nullptr;
    return &by_entry[static_cast<std::size_t>(entry - table.data())];
  }
};

const PortFamilies& PortSpecs() {
  static const PortFamilies kFamilies = [] {
    PortFamilies f;
    std::map<std::string_view, PortFamily> by_kind;  // several drivers' names for one kind
    for (const ethtool::PortStatSpec& s : ethtool::PortStatTable()) {
      auto [known, inserted] = by_kind.try_emplace(s.kind);
      if (inserted) {
        const bool counter = s.type == ethtool::StatType::kCounter;
        f.names.push_back("roce_ethtool_" + std::string(s.kind) + (counter ? "_total" : ""));
        f.helps.push_back(std::string(s.help));
        Served served = Served::kDefault;
        std::string_view detail;
        if (auto d = DetailPortKinds().find(s.kind); d != DetailPortKinds().end()) {
          known->second.detail = d->second;
          served = d->second == PortDetail::kDetail ? Served::kOptIn : Served::kRepeat;
          detail = d->second == PortDetail::kRdmaTraffic
                       ? "--collector.ethtool.all-port-stats (left out while roce_port_*_total "
                         "serve the vport RDMA counters)"
                   : d->second == PortDetail::kPauseControl
                       ? "--collector.ethtool.all-port-stats (left out while "
                         "roce_pause_frames_total serves it)"
                       : "--collector.ethtool.all-port-stats";
          f.helps.back() +=
              d->second == PortDetail::kRdmaTraffic
                  ? " Left out while roce_port_*_total serve the same vport RDMA counters, unless "
                    "--collector.ethtool.all-port-stats."
              : d->second == PortDetail::kPauseControl
                  ? " Left out while roce_pause_frames_total serves the same counter, unless "
                    "--collector.ethtool.all-port-stats."
                  : " Only with --collector.ethtool.all-port-stats.";
        }
        f.specs.push_back(MetricSpec{f.names.back(), counter ? T::kCounter : T::kGauge,
                                     f.helps.back(), {"netdev"}, served, detail});
        known->second.spec = &f.specs.back();
      }
      f.by_entry.push_back(known->second);
    }
    return f;
  }();
  return kFamilies;
}

// The priorities whose per-priority series (PFC pause, bytes, packets, discards, ECN
// marks) are served for a netdev: by default those in use, i.e. with PFC on, mapped to by a
// DSCP in use (UsedDscps, the dcb renderer's rule), or with any non-zero counter (so a
// pause on a non-PFC priority is still a series); all eight with
// --collector.ethtool.all-priorities, or where the dcb section does not tell PFC state.
std::array<bool, 8> ServedPriorities(const NodeSnapshot& snap, const EthtoolSnapshot& e) {
  std::array<bool, 8> served{};
  const DcbSnapshot* dcb = nullptr;
  for (const auto& d : snap.dcb)
    if (d.netdev == e.netdev && d.supported && d.pfc_enabled) dcb = &d;
  if (e.all_priorities || dcb == nullptr) {
    served.fill(true);
    return served;
  }
  for (int p = 0; p < 8; ++p) served[p] = (*dcb->pfc_enabled)[p];
  const auto used = UsedDscps(snap, *dcb);
  for (const auto& m : dcb->dscp_priority)
    if (m.priority < 8 && std::binary_search(used.begin(), used.end(), m.dscp))
      served[m.priority] = true;
  for (const auto& v : e.per_priority)
    if (v.priority < 8 && v.value != 0) served[v.priority] = true;
  return served;
}

// Which port statistics of `e` are served. A repeat is left out only while the family it
// repeats is served for the same netdev, so that no count is lost when the rdma or
// ethtool_netlink collector is off or has no answer. Decided once per netdev.
struct ServedPortStats {
  bool rdma_traffic = true;   // false while roce_port_{rcv,xmit}_* serve the vport RDMA counters
  bool pause_control = true;  // false while roce_pause_frames_total serves the PPCNT pause field
  bool detail = false;
  bool operator()(const PortFamily& family) const {
    if (!family.detail) return true;
    switch (*family.detail) {
      case PortDetail::kRdmaTraffic: return rdma_traffic;
      case PortDetail::kPauseControl: return pause_control;
      case PortDetail::kDetail: return detail;
    }
    return true;
  }
};

ServedPortStats ServedPorts(const NodeSnapshot& snap, const EthtoolSnapshot& e) {
  ServedPortStats served;
  if (e.all_port_stats) {
    served.detail = true;
    return served;
  }
  for (const auto& d : snap.devices)
    for (const auto& p : d.ports)
      if (p.netdev == e.netdev && p.received_bytes && p.transmitted_bytes) served.rdma_traffic = false;
  for (const auto& l : snap.link_state)
    if (l.netdev == e.netdev && l.pause_rx_frames && l.pause_tx_frames) served.pause_control = false;
  return served;
}

}  // namespace

const SpecList& EthtoolSpecs() {
  static const SpecList kSpecs = [] {
    SpecList specs = {&kDriverInfo,      &kLinkSpeed,        &kLinkInfo,
                      &kPfcPauseFrames,  &kPfcPauseDuration, &kPfcPauseTransitions,
                      &kPfcFrames,
                      &kPriorityBytes,   &kPriorityPackets,  &kPriorityDiscards,
                      &kPriorityBufferDiscards, &kPriorityCongestionDiscards,
                      &kPriorityEcnMarked};
    for (const MetricSpec& s : PortSpecs().specs) specs.push_back(&s);
    specs.push_back(&kRawStat);
    specs.push_back(&kUnclassified);
    return specs;
  }();
  return kSpecs;
}

void RenderEthtool(const NodeSnapshot& snap, MetricSink& out) {
  const PortFamilies& port_families = PortSpecs();
  for (const auto& e : snap.ethtool) {
    if (e.driver_info_read) {
      out.Add(kDriverInfo, {e.netdev, e.driver, e.version, e.firmware, e.bus_info}, 1);
    }
    if (e.speed_bytes_per_second) out.Add(kLinkSpeed, {e.netdev}, *e.speed_bytes_per_second);
    if (e.autoneg) {
      out.Add(kLinkInfo, {e.netdev, e.duplex, e.connector, *e.autoneg ? "on" : "off"}, 1);
    }
    const auto served = ServedPriorities(snap, e);
    for (const auto& p : e.per_priority) {
      if (p.priority >= 8 || !served[p.priority]) continue;
      out.Add(PrioritySpec(p.kind), {e.netdev, kPriorityText[p.priority], ethtool::DirectionName(p.direction)},
              p.value);
    }
    const ServedPortStats serve_port = ServedPorts(snap, e);
    for (const auto& p : e.port) {
      const PortFamily* family = port_families.Of(p.spec);
      if (family != nullptr && serve_port(*family)) out.Add(*family->spec, {e.netdev}, p.value);
    }
    for (const auto& r : e.included) out.Add(kRawStat, {e.netdev, r.name}, r.value);
    if (e.unclassified) out.Add(kUnclassified, {e.netdev}, static_cast<double>(*e.unclassified));
  }
}

}  // namespace rocewatch::collectors
