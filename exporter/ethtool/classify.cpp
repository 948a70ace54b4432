#include "exporter/ethtool/classify.h"

#include <charconv>
#include <string>

namespace rocewatch::ethtool {
namespace {

constexpr double kMicroseconds = 1e-6;
constexpr double kPercent = 0.01;

using D = Direction;
using K = PriorityKind;

// mlx5 (drivers/net/ethernet/mellanox/mlx5/core/en_stats.c): pport_per_prio_traffic,
// pport_per_prio_pfc ("rx_%s_pause" with %s = "prio%d"), pport_per_tc_prio and
// pport_per_tc_congest_prio. ice (drivers/net/ethernet/intel/ice/ice_ethtool.c):
// "rx_priority_%u_xoff.nic" / "tx_priority_%u_xoff.nic" (XOFF = pause frames).
constexpr PriorityPattern kPriorityPatterns[] = {
    {"rx_prio", "_pause", D::kRx, K::kPauseFrames, 1},
    {"tx_prio", "_pause", D::kTx, K::kPauseFrames, 1},
    {"rx_prio", "_pause_duration", D::kRx, K::kPauseDurationSeconds, kMicroseconds},
    {"tx_prio", "_pause_duration", D::kTx, K::kPauseDurationSeconds, kMicroseconds},
    {"rx_prio", "_pause_transition", D::kRx, K::kPauseTransitions, 1},
    {"rx_prio", "_bytes", D::kRx, K::kBytes, 1},
    {"tx_prio", "_bytes", D::kTx, K::kBytes, 1},
    {"rx_prio", "_packets", D::kRx, K::kPackets, 1},
    {"tx_prio", "_packets", D::kTx, K::kPackets, 1},
    {"rx_prio", "_discards", D::kRx, K::kDiscards, 1},
    {"rx_prio", "_buf_discard", D::kRx, K::kBufferDiscards, 1},
    {"rx_prio", "_cong_discard", D::kRx, K::kCongestionDiscards, 1},
    {"rx_prio", "_marked", D::kRx, K::kEcnMarked, 1},
    {"rx_priority_", "_xoff.nic", D::kRx, K::kPauseFrames, 1},
    {"tx_priority_", "_xoff.nic", D::kTx, K::kPauseFrames, 1},
    // mlx5 before the "rx_prio%d_*" names (an en_ethtool.c of the MLNX_OFED 3.x backport
    // era, read from a stored source copy; no dump seen): sprintf("prio%d_%s") over
    // pport_per_prio_traffic_stats_desc {rx_octets, rx_frames, tx_octets, tx_frames} and
    // pport_per_prio_pfc_stats_desc {rx_pause, rx_pause_duration, tx_pause,
    // tx_pause_duration, rx_pause_transition}.
    {"prio", "_rx_pause", D::kRx, K::kPauseFrames, 1},
    {"prio", "_tx_pause", D::kTx, K::kPauseFrames, 1},
    {"prio", "_rx_pause_duration", D::kRx, K::kPauseDurationSeconds, kMicroseconds},
    {"prio", "_tx_pause_duration", D::kTx, K::kPauseDurationSeconds, kMicroseconds},
    {"prio", "_rx_pause_transition", D::kRx, K::kPauseTransitions, 1},
    {"prio", "_rx_octets", D::kRx, K::kBytes, 1},
    {"prio", "_tx_octets", D::kTx, K::kBytes, 1},
    {"prio", "_rx_frames", D::kRx, K::kPackets, 1},
    {"prio", "_tx_frames", D::kTx, K::kPackets, 1},
};

using T = StatType;

// Port-wide statistics. mlx5 names from en_stats.c; meanings from the kernel's
// Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst.
constexpr PortStatSpec kPortStats[] = {
    {"rx_bytes_phy", "rx_bytes", T::kCounter, 1, "Bytes received on the physical port."},
    {"tx_bytes_phy", "tx_bytes", T::kCounter, 1, "Bytes sent on the physical port."},
    {"rx_packets_phy", "rx_packets", T::kCounter, 1, "Frames received on the physical port."},
    {"tx_packets_phy", "tx_packets", T::kCounter, 1, "Frames sent on the physical port."},
    {"rx_crc_errors_phy", "rx_crc_error_frames", T::kCounter, 1,
     "Frames received with a bad frame check sequence."},
    {"rx_symbol_err_phy", "rx_symbol_errors", T::kCounter, 1,
     "Symbol errors during carrier (IEEE 802.3 aSymbolErrorDuringCarrier)."},
    {"rx_pcs_symbol_err_phy", "rx_pcs_symbol_errors", T::kCounter, 1,
     "Symbol errors seen by the PCS (uncorrectable by FEC)."},
    {"rx_corrected_bits_phy", "rx_fec_corrected_bit_errors", T::kCounter, 1,
     "Bits corrected by forward error correction."},
    {"rx_discards_phy", "rx_discarded_packets", T::kCounter, 1,
     "Received packets dropped for lack of resources (ifInDiscards), pause storms included."},
    {"tx_discards_phy", "tx_discarded_packets", T::kCounter, 1,
     "Packets dropped before sending (ifOutDiscards), e.g. held back too long by pause."},
    {"tx_errors_phy", "tx_error_packets", T::kCounter, 1, "Packets that failed to send."},
    {"rx_out_of_buffer", "rx_out_of_buffer_packets", T::kCounter, 1,
     "Packets dropped because no receive descriptor was posted (host too slow)."},
    {"rx_buffer_passed_thres_phy", "rx_buffer_almost_full_events", T::kCounter, 1,
     "Times the port receive buffer passed its almost-full threshold."},
    {"rx_pause_ctrl_phy", "rx_pause_control_frames", T::kCounter, 1,
     "MAC control pause frames received."},
    {"tx_pause_ctrl_phy", "tx_pause_control_frames", T::kCounter, 1,
     "MAC control pause frames sent."},
    {"rx_mac_control_phy", "rx_mac_control_frames", T::kCounter, 1, "MAC control frames received."},
    {"tx_mac_control_phy", "tx_mac_control_frames", T::kCounter, 1, "MAC control frames sent."},
    {"rx_oversize_pkts_phy", "rx_oversize_frames", T::kCounter, 1,
     "Received frames longer than the MTU allows."},
    {"rx_undersize_pkts_phy", "rx_undersize_frames", T::kCounter, 1,
     "Received frames shorter than 64 bytes with a good FCS."},
    {"rx_fragments_phy", "rx_fragment_frames", T::kCounter, 1,
     "Received frames shorter than 64 bytes with a bad FCS."},
    {"rx_jabbers_phy", "rx_jabber_frames", T::kCounter, 1,
     "Received frames longer than the MTU with a bad FCS."},
    {"link_down_events_phy", "link_down_events", T::kCounter, 1,
     "Times the physical link went down."},
    {"total_success_recovery_phy", "link_recovery_events", T::kCounter, 1,
     "Successful link recovery events (link kept up by the PHY)."},
    {"tx_pause_storm_warning_events", "tx_pause_storm_warning_events", T::kCounter, 1,
     "Times the device sent pause frames for longer than the warning threshold."},
    {"tx_pause_storm_error_events", "tx_pause_storm_error_events", T::kCounter, 1,
     "Times a pause storm passed the error threshold and the device stopped sending pause."},
    {"rx_global_pause", "rx_global_pause_frames", T::kCounter, 1,
     "Global (802.3x) pause frames received."},
    {"tx_global_pause", "tx_global_pause_frames", T::kCounter, 1,
     "Global (802.3x) pause frames sent."},
    {"rx_global_pause_duration", "rx_global_pause_duration_seconds", T::kCounter, kMicroseconds,
     "Time the link partner asked this port to pause (global pause)."},
    {"tx_global_pause_duration", "tx_global_pause_duration_seconds", T::kCounter, kMicroseconds,
     "Time this port asked the link partner to pause (global pause)."},
    {"rx_global_pause_transition", "rx_global_pause_transitions", T::kCounter, 1,
     "XOFF to XON transitions of global pause."},
    {"rx_pci_signal_integrity", "pcie_rx_signal_integrity_errors", T::kCounter, 1,
     "PCIe physical layer errors on receive."},
    {"tx_pci_signal_integrity", "pcie_tx_signal_integrity_errors", T::kCounter, 1,
     "PCIe physical layer errors reported by the link partner (recovery entries)."},
    {"outbound_pci_buffer_overflow", "pcie_outbound_buffer_overflow_packets", T::kCounter, 1,
     "Packets dropped because the PCIe buffer overflowed (host cannot take the rate)."},
    {"outbound_pci_stalled_rd", "pcie_outbound_read_stalled_ratio", T::kGauge, kPercent,
     "Share of the last second outbound PCIe reads waited for credits."},
    {"outbound_pci_stalled_wr", "pcie_outbound_write_stalled_ratio", T::kGauge, kPercent,
     "Share of the last second outbound PCIe writes waited for credits."},
    {"outbound_pci_stalled_rd_events", "pcie_outbound_read_stalled_seconds", T::kCounter, 1,
     "Seconds in which outbound PCIe reads were stalled more than 30% of the time."},
    {"outbound_pci_stalled_wr_events", "pcie_outbound_write_stalled_seconds", T::kCounter, 1,
     "Seconds in which outbound PCIe writes were stalled more than 30% of the time."},
    {"rx_vport_rdma_unicast_packets", "rx_rdma_unicast_packets", T::kCounter, 1,
     "RDMA unicast packets received by this function."},
    {"rx_vport_rdma_unicast_bytes", "rx_rdma_unicast_bytes", T::kCounter, 1,
     "RDMA unicast bytes received by this function."},
    {"tx_vport_rdma_unicast_packets", "tx_rdma_unicast_packets", T::kCounter, 1,
     "RDMA unicast packets sent by this function."},
    {"tx_vport_rdma_unicast_bytes", "tx_rdma_unicast_bytes", T::kCounter, 1,
     "RDMA unicast bytes sent by this function."},
    {"rx_steer_missed_packets", "rx_steering_missed_packets", T::kCounter, 1,
     "Received packets that matched no steering rule and were dropped."},
    {"rx_if_down_packets", "rx_interface_down_packets", T::kCounter, 1,
     "Packets dropped while the interface was down."},
    {"dev_internal_queue_oob", "device_internal_queue_out_of_buffer_packets", T::kCounter, 1,
     "Packets dropped because a device-internal queue had no buffer."},
    {"rx_oversize_pkts_buffer", "rx_oversize_buffer_packets", T::kCounter, 1,
     "Packets dropped because they were larger than the receive buffer."},
    {"module_unplug", "module_unplug_events", T::kCounter, 1, "Transceiver module unplugs."},
    {"module_bus_stuck", "module_bus_stuck_events", T::kCounter, 1,
     "Transceiver module I2C bus stuck errors."},
    {"module_high_temp", "module_high_temperature_events", T::kCounter, 1,
     "Transceiver module high temperature errors."},
    {"module_bad_shorted", "module_bad_cable_events", T::kCounter, 1,
     "Transceiver module bad or shorted cable errors."},

};

// Every other known spelling of a counter of kPortStats, by the name it is an alias of. Only
// one spelling of a kind may occur in one driver's string set, or the exporter would publish
// the kind twice; tests/netlink/classify_real_dumps_test.cpp checks that on every real dump
// of tests/fixtures/real/ethtool-S.
constexpr PortStatAlias kPortStatAliases[] = {
    // mlx5 in kernel 4.4 inbox (en_main.c pport_strings[], driver "3.0-1 (January 2015)") and
    // the MLNX_OFED 3.x backports of it: the same PPCNT registers under their IEEE 802.3 /
    // RFC 2863 / RFC 2819 names. The newer names read the same fields
    // (pport_802_3_stats_desc: rx_packets_phy = a_frames_received_ok, rx_crc_errors_phy =
    // a_frame_check_sequence_errors, rx_oversize_pkts_phy = a_frame_too_long_errors,
    // rx_symbol_err_phy = a_symbol_error_during_carrier, rx_pause_ctrl_phy =
    // a_pause_mac_ctrl_frames_received; pport_2863: rx_discards_phy = if_in_discards,
    // tx_discards_phy = if_out_discards, tx_errors_phy = if_out_errors; pport_2819:
    // rx_undersize_pkts_phy, rx_fragments_phy, rx_jabbers_phy). The 4.4 set also has
    // RFC 2863 in_octets, RFC 2819 octets, pkts, crc_align_errors and oversize_pkts, which
    // newer kernels dropped: they stay unmapped so that no kind is published twice.
    {"frames_rx", "rx_packets_phy", "mlx5, kernel 4.4"},
    {"frames_tx", "tx_packets_phy", "mlx5, kernel 4.4"},
    {"octets_received", "rx_bytes_phy", "mlx5, kernel 4.4"},
    {"octets_tx", "tx_bytes_phy", "mlx5, kernel 4.4"},
    {"check_seq_err", "rx_crc_errors_phy", "mlx5, kernel 4.4"},
    {"symbol_err", "rx_symbol_err_phy", "mlx5, kernel 4.4"},
    {"too_long_errors", "rx_oversize_pkts_phy", "mlx5, kernel 4.4"},
    {"mac_control_rx", "rx_mac_control_phy", "mlx5, kernel 4.4"},
    {"mac_control_tx", "tx_mac_control_phy", "mlx5, kernel 4.4"},
    {"pause_ctrl_rx", "rx_pause_ctrl_phy", "mlx5, kernel 4.4"},
    {"pause_ctrl_tx", "tx_pause_ctrl_phy", "mlx5, kernel 4.4"},
    {"in_discards", "rx_discards_phy", "mlx5, kernel 4.4"},
    {"out_discards", "tx_discards_phy", "mlx5, kernel 4.4"},
    {"out_errors", "tx_errors_phy", "mlx5, kernel 4.4"},
    {"undersize_pkts", "rx_undersize_pkts_phy", "mlx5, kernel 4.4"},
    {"fragments", "rx_fragments_phy", "mlx5, kernel 4.4"},
    {"jabbers", "rx_jabbers_phy", "mlx5, kernel 4.4"},
    // Some 4.x en_stats.c spell the pause storm warning counter with a trailing space
    // (pport_pfc_stall_stats_desc: "tx_pause_storm_warning_events ").
    {"tx_pause_storm_warning_events ", "tx_pause_storm_warning_events", "mlx5, some 4.x kernels"},
    // ice (drivers/net/ethernet/intel/ice/ice_ethtool.c, ice_gstrings_stats: port counters
    // carry ".nic"). link_xoff_* count 802.3x XOFF frames, what mlx5 calls global pause.
    {"rx_crc_errors.nic", "rx_crc_errors_phy", "ice"},
    {"rx_undersize.nic", "rx_undersize_pkts_phy", "ice"},
    {"rx_fragments.nic", "rx_fragments_phy", "ice"},
    {"rx_oversize.nic", "rx_oversize_pkts_phy", "ice"},
    {"rx_jabber.nic", "rx_jabbers_phy", "ice"},
    {"link_xoff_rx.nic", "rx_global_pause", "ice"},
    {"link_xoff_tx.nic", "tx_global_pause", "ice"},
};

// Per-queue names: prefix, then a queue number when `indexed`, then '_' and the counter.
struct QueuePattern {
  std::string_view prefix;
  bool indexed;
  std::string_view queue_kind;
};
// Order matters: longer prefixes first. mlx5: "rx%d_", "tx%d_", "ch%d_", "ptp_tx%d_",
// "ptp_cq%d_", "ptp_rq%d_", "ptp_ch_", "qos_tx%d_", aggregates "rx_xsk_"/"tx_xsk_";
// ice, veth: "rx_queue_%u_", "tx_queue_%u_".
constexpr QueuePattern kQueuePatterns[] = {
    {"rx_queue_", true, "rx"},    {"tx_queue_", true, "tx"},  {"ptp_tx", true, "ptp_tx"},
    {"ptp_cq", true, "ptp_cq"},   {"ptp_rq", true, "ptp_rq"}, {"ptp_ch_", false, "ptp_ch"},
    {"ptp_", false, "ptp"},       {"qos_tx", true, "qos_tx"}, {"rx_xsk_", false, "rx_xsk"},
    {"tx_xsk_", false, "tx_xsk"}, {"rx", true, "rx"},         {"tx", true, "tx"},
    {"ch", true, "ch"},
};

const PortStatSpec* FindPortStat(std::string_view name) {
  for (const PortStatSpec& spec : kPortStats) {
    if (name == spec.driver_name) return &spec;
  }
  return nullptr;
}

const PortStatAlias* FindAlias(std::string_view name) {
  for (const PortStatAlias& alias : kPortStatAliases) {
    if (name == alias.spelling) return &alias;
  }
  return nullptr;
}

// Parses the decimal digits at the start of `s` into `value`; returns how many were used.
std::size_t ParseLeadingNumber(std::string_view s, std::uint32_t& value) {
  const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
  if (result.ec != std::errc{}) return 0;
  return static_cast<std::size_t>(result.ptr - s.data());
}

bool MatchPriority(std::string_view name, const PriorityPattern& p, std::uint8_t& priority) {
  if (!name.starts_with(p.prefix) || !name.ends_with(p.suffix)) return false;
  if (name.size() != p.prefix.size() + 1 + p.suffix.size()) return false;  // one digit
  const char digit = name[p.prefix.size()];
  if (digit < '0' || digit > '7') return false;
  priority = static_cast<std::uint8_t>(digit - '0');
  return true;
}

bool MatchQueue(std::string_view name, const QueuePattern& p, QueueStat& out) {
  if (!name.starts_with(p.prefix)) return false;
  std::string_view rest = name.substr(p.prefix.size());
  std::optional<std::uint32_t> queue;
  if (p.indexed) {
    std::uint32_t number = 0;
    const std::size_t used = ParseLeadingNumber(rest, number);
    if (used == 0) return false;
    rest = rest.substr(used);
    if (!rest.starts_with('_')) return false;
    rest = rest.substr(1);
    queue = number;
  }
  if (rest.empty()) return false;
  out.queue_kind = std::string(p.queue_kind);
  out.queue = queue;
  out.counter = std::string(rest);
  return true;
}

}  // namespace

std::string_view DirectionName(Direction direction) {
  return direction == Direction::kRx ? "rx" : "tx";
}

bool IsPfcPause(PriorityKind kind) {
  return kind == K::kPauseFrames || kind == K::kPauseDurationSeconds || kind == K::kPauseTransitions;
}

std::string_view PriorityKindName(PriorityKind kind) {
  switch (kind) {
    case K::kPauseFrames:
      return "pause_frames";
    case K::kPauseDurationSeconds:
      return "pause_duration_seconds";
    case K::kPauseTransitions:
      return "pause_transitions";
    case K::kBytes:
      return "bytes";
    case K::kPackets:
      return "packets";
    case K::kDiscards:
      return "discards";
    case K::kBufferDiscards:
      return "buffer_discards";
    case K::kCongestionDiscards:
      return "congestion_discards";
    case K::kEcnMarked:
      return "ecn_marked";
  }
  return "unknown";
}

std::span<const PriorityPattern> PriorityPatternTable() { return kPriorityPatterns; }
std::span<const PortStatSpec> PortStatTable() { return kPortStats; }
std::span<const PortStatAlias> PortStatAliasTable() { return kPortStatAliases; }

Classification ClassifyStrings(std::span<const std::string> names) {
  Classification out;
  out.name_count = names.size();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string_view name = names[i];
    const auto index = static_cast<std::uint32_t>(i);

    bool done = false;
    for (const PriorityPattern& p : kPriorityPatterns) {
      std::uint8_t priority = 0;
      if (MatchPriority(name, p, priority)) {
        out.per_priority.push_back(PriorityStat{index, priority, p.direction, p.kind, p.scale});
        done = true;
        break;
      }
    }
    if (done) continue;

    if (const PortStatSpec* spec = FindPortStat(name)) {
      out.port.push_back(PortStat{index, spec, nullptr});
      continue;
    }
    if (const PortStatAlias* alias = FindAlias(name)) {
      if (const PortStatSpec* spec = FindPortStat(alias->name)) {
        out.port.push_back(PortStat{index, spec, alias});
        continue;
      }
    }

    for (const QueuePattern& p : kQueuePatterns) {
      QueueStat stat;
      if (MatchQueue(name, p, stat)) {
        stat.index = index;
        out.per_queue.push_back(std::move(stat));
        done = true;
        break;
      }
    }
    if (done) continue;

    out.other.push_back(OtherStat{index, std::string(name)});
  }
  return out;
}

Result<StatValues> Apply(const Classification& classification, StatsView values,
                         bool include_per_queue) {
  if (values.size() != classification.name_count) {
    return Error{"ethtool statistics: " + std::to_string(values.size()) + " values for " +
                 std::to_string(classification.name_count) +
                 " classified names (the driver's statistics changed: classify again)"};
  }
  StatValues out;
  out.per_priority.reserve(classification.per_priority.size());
  for (const PriorityStat& s : classification.per_priority) {
    const std::uint64_t raw = values[s.index];
    out.per_priority.push_back(
        PriorityValue{s.priority, s.direction, s.kind, raw, static_cast<double>(raw) * s.scale});
  }
  out.port.reserve(classification.port.size());
  for (const PortStat& s : classification.port) {
    const std::uint64_t raw = values[s.index];
    out.port.push_back(PortValue{s.spec, raw, static_cast<double>(raw) * s.spec->scale});
  }
  if (include_per_queue) {
    out.per_queue.reserve(classification.per_queue.size());
    for (const QueueStat& s : classification.per_queue) {
      out.per_queue.push_back(QueueValue{&s, values[s.index]});
    }
  }
  out.other.reserve(classification.other.size());
  for (const OtherStat& s : classification.other) {
    out.other.push_back(OtherValue{s.name, values[s.index]});
  }
  return out;
}

}  // namespace rocewatch::ethtool
