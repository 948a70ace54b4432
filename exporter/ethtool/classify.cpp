#include "exporter/ethtool/classify.h"

#include <charconv>
#include <optional>
#include <string>

namespace rocewatch::ethtool {
namespace {

using T = StatType;

// The port statistic kinds. Meanings from IEEE 802.3 / RFC 2863 / RFC 2819 and, for the
// mlx5-only kinds, Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst;
// which driver name feeds each is in exporter/drivers/<name>/.
constexpr PortStatSpec kPortStats[] = {
    {"rx_bytes", T::kCounter, "Bytes received on the physical port."},
    {"tx_bytes", T::kCounter, "Bytes sent on the physical port."},
    {"rx_packets", T::kCounter, "Frames received on the physical port."},
    {"tx_packets", T::kCounter, "Frames sent on the physical port."},
    {"rx_crc_error_frames", T::kCounter, "Frames received with a bad frame check sequence."},
    {"rx_symbol_errors", T::kCounter, "Symbol errors during carrier (IEEE 802.3 aSymbolErrorDuringCarrier)."},
    {"rx_pcs_symbol_errors", T::kCounter, "Symbol errors seen by the PCS (uncorrectable by FEC)."},
    {"rx_fec_corrected_bit_errors", T::kCounter, "Bits corrected by forward error correction."},
    {"rx_discarded_packets", T::kCounter, "Received packets dropped for lack of resources (ifInDiscards), pause storms included."},
    {"tx_discarded_packets", T::kCounter, "Packets dropped before sending (ifOutDiscards), e.g. held back too long by pause."},
    {"tx_error_packets", T::kCounter, "Packets that failed to send."},
    {"rx_out_of_buffer_packets", T::kCounter, "Packets dropped because no receive descriptor was posted (host too slow)."},
    {"rx_buffer_almost_full_events", T::kCounter, "Times the port receive buffer passed its almost-full threshold."},
    {"rx_pause_control_frames", T::kCounter, "MAC control pause frames received."},
    {"tx_pause_control_frames", T::kCounter, "MAC control pause frames sent."},
    {"rx_mac_control_frames", T::kCounter, "MAC control frames received."},
    {"tx_mac_control_frames", T::kCounter, "MAC control frames sent."},
    {"rx_oversize_frames", T::kCounter, "Received frames longer than the MTU allows."},
    {"rx_undersize_frames", T::kCounter, "Received frames shorter than 64 bytes with a good FCS."},
    {"rx_fragment_frames", T::kCounter, "Received frames shorter than 64 bytes with a bad FCS."},
    {"rx_jabber_frames", T::kCounter, "Received frames longer than the MTU with a bad FCS."},
    {"link_down_events", T::kCounter, "Times the physical link went down."},
    {"link_recovery_events", T::kCounter, "Successful link recovery events (link kept up by the PHY)."},
    {"tx_pause_storm_warning_events", T::kCounter, "Times the device sent pause frames for longer than the warning threshold."},
    {"tx_pause_storm_error_events", T::kCounter, "Times a pause storm passed the error threshold and the device stopped sending pause."},
    {"rx_global_pause_frames", T::kCounter, "Global (802.3x) pause frames received."},
    {"tx_global_pause_frames", T::kCounter, "Global (802.3x) pause frames sent."},
    {"rx_global_pause_duration_seconds", T::kCounter, "Time the link partner asked this port to pause (global pause)."},
    {"tx_global_pause_duration_seconds", T::kCounter, "Time this port asked the link partner to pause (global pause)."},
    {"rx_global_pause_transitions", T::kCounter, "XOFF to XON transitions of global pause."},
    {"pcie_rx_signal_integrity_errors", T::kCounter, "PCIe physical layer errors on receive."},
    {"pcie_tx_signal_integrity_errors", T::kCounter, "PCIe physical layer errors reported by the link partner (recovery entries)."},
    {"pcie_outbound_buffer_overflow_packets", T::kCounter, "Packets dropped because the PCIe buffer overflowed (host cannot take the rate)."},
    {"pcie_outbound_read_stalled_ratio", T::kGauge, "Share of the last second outbound PCIe reads waited for credits."},
    {"pcie_outbound_write_stalled_ratio", T::kGauge, "Share of the last second outbound PCIe writes waited for credits."},
    {"pcie_outbound_read_stalled_seconds", T::kCounter, "Seconds in which outbound PCIe reads were stalled more than 30% of the time."},
    {"pcie_outbound_write_stalled_seconds", T::kCounter, "Seconds in which outbound PCIe writes were stalled more than 30% of the time."},
    {"rx_rdma_unicast_packets", T::kCounter, "RDMA unicast packets received by this function."},
    {"rx_rdma_unicast_bytes", T::kCounter, "RDMA unicast bytes received by this function."},
    {"tx_rdma_unicast_packets", T::kCounter, "RDMA unicast packets sent by this function."},
    {"tx_rdma_unicast_bytes", T::kCounter, "RDMA unicast bytes sent by this function."},
    {"rx_steering_missed_packets", T::kCounter, "Received packets that matched no steering rule and were dropped."},
    {"rx_interface_down_packets", T::kCounter, "Packets dropped while the interface was down."},
    {"device_internal_queue_out_of_buffer_packets", T::kCounter, "Packets dropped because a device-internal queue had no buffer."},
    {"rx_oversize_buffer_packets", T::kCounter, "Packets dropped because they were larger than the receive buffer."},
    {"module_unplug_events", T::kCounter, "Transceiver module unplugs."},
    {"module_bus_stuck_events", T::kCounter, "Transceiver module I2C bus stuck errors."},
    {"module_high_temperature_events", T::kCounter, "Transceiver module high temperature errors."},
    {"module_bad_cable_events", T::kCounter, "Transceiver module bad or shorted cable errors."},

};

// Per-queue names: prefix, then a queue number when `indexed`, then `separator` and the
// counter. The shapes are shared by drivers, so they are not in a driver's table.
struct QueuePattern {
  std::string_view prefix;
  bool indexed;
  std::string_view queue_kind;
  std::string_view separator = "_";
};
// Order matters: longer prefixes first. mlx5: "rx%d_", "tx%d_", "ch%d_", "ptp_tx%d_",
// "ptp_cq%d_", "ptp_rq%d_", "ptp_ch_", "qos_tx%d_", aggregates "rx_xsk_"/"tx_xsk_";
// ice, veth: "rx_queue_%u_", "tx_queue_%u_". A driver's own shapes are in its table
// (drivers::QueueName: ionic "rx_%d_", bnxt_en "[%d]: "), tried first.
constexpr QueuePattern kQueuePatterns[] = {
    {"rx_queue_", true, "rx"},    {"tx_queue_", true, "tx"},  {"ptp_tx", true, "ptp_tx"},
    {"ptp_cq", true, "ptp_cq"},   {"ptp_rq", true, "ptp_rq"}, {"ptp_ch_", false, "ptp_ch"},
    {"ptp_", false, "ptp"},       {"qos_tx", true, "qos_tx"}, {"rx_xsk_", false, "rx_xsk"},
    {"tx_xsk_", false, "tx_xsk"}, {"rx", true, "rx"},         {"tx", true, "tx"},
    {"ch", true, "ch"},
};

// Parses the decimal digits at the start of `s` into `value`; returns how many were used.
std::size_t ParseLeadingNumber(std::string_view s, std::uint32_t& value) {
  const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
  if (result.ec != std::errc{}) return 0;
  return static_cast<std::size_t>(result.ptr - s.data());
}

// prefix, one digit 0-7, suffix.
bool MatchDigit(std::string_view name, std::string_view prefix, std::string_view suffix,
                std::uint8_t& priority) {
  if (name.size() != prefix.size() + 1 + suffix.size()) return false;
  if (!name.starts_with(prefix) || !name.ends_with(suffix)) return false;
  const char digit = name[prefix.size()];
  if (digit < '0' || digit > '7') return false;
  priority = static_cast<std::uint8_t>(digit - '0');
  return true;
}

bool Known(const drivers::Driver& driver, std::string_view name) {
  for (const drivers::KnownName& k : driver.known) {
    std::uint8_t digit = 0;
    if (k.digit ? MatchDigit(name, k.prefix, k.suffix, digit) : name == k.prefix) return true;
  }
  return false;
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
    if (!rest.starts_with(p.separator)) return false;
    rest = rest.substr(p.separator.size());
    queue = number;
  }
  if (rest.empty()) return false;
  out.queue_kind = std::string(p.queue_kind);
  out.queue = queue;
  out.counter = std::string(rest);
  return true;
}

// Sorts one name by the driver's table; false when the table has no family for it.
bool ClassifyByDriver(const drivers::Driver& driver, std::string_view name, std::uint32_t index,
                      Classification& out) {
  for (const drivers::PriorityName& p : driver.priority) {
    std::uint8_t priority = 0;
    if (MatchDigit(name, p.prefix, p.suffix, priority)) {
      out.per_priority.push_back(PriorityStat{index, priority, p.direction, p.kind, p.scale});
      return true;
    }
  }
  for (const drivers::PortName& p : driver.port) {
    if (name != p.name) continue;
    const PortStatSpec* spec = FindPortKind(p.kind);
    if (spec == nullptr) return false;  // a table naming no kind: a test catches it
    out.port.push_back(PortStat{index, spec, p.scale});
    return true;
  }
  return false;
}

}  // namespace

std::span<const PortStatSpec> PortStatTable() { return kPortStats; }

const PortStatSpec* FindPortKind(std::string_view kind) {
  for (const PortStatSpec& spec : kPortStats) {
    if (spec.kind == kind) return &spec;
  }
  return nullptr;
}

Classification ClassifyStrings(std::span<const std::string> names, const drivers::Driver* driver) {
  Classification out;
  out.name_count = names.size();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string_view name = names[i];
    const auto index = static_cast<std::uint32_t>(i);
    if (driver != nullptr && ClassifyByDriver(*driver, name, index, out)) continue;

    bool queued = false;
    if (driver != nullptr) {
      for (const drivers::QueueName& q : driver->queues) {
        QueueStat stat;
        if (MatchQueue(name, QueuePattern{q.prefix, true, q.queue_kind, q.separator}, stat)) {
          stat.index = index;
          out.per_queue.push_back(std::move(stat));
          queued = true;
          break;
        }
      }
    }
    for (const QueuePattern& p : kQueuePatterns) {
      if (queued) break;
      QueueStat stat;
      if (MatchQueue(name, p, stat)) {
        stat.index = index;
        out.per_queue.push_back(std::move(stat));
        queued = true;
        break;
      }
    }
    if (queued) continue;

    if (driver == nullptr || !Known(*driver, name)) ++out.unclassified;
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
    out.port.push_back(PortValue{s.spec, raw, static_cast<double>(raw) * s.scale});
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
