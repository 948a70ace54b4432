#pragma once

// Sorting a driver's ethtool statistic names (ETH_SS_STATS) into what the exporter
// publishes: per-priority PFC and traffic counters, port-wide counters with stable kind
// names, per-queue software counters (hundreds of them, not exported by default), and the
// rest. Table-driven: the patterns, the port table and its alias table (every other known
// spelling of a port counter: older kernels, other drivers) below are the only knowledge of
// driver names; a name no table knows lands in `other`, never dropped. The real dumps of
// tests/fixtures/real/ethtool-S check the tables.
//
// Classify once per string set (names change only when the driver reconfigures: channels,
// PFC priorities), then Apply() the classification to each GSTATS answer.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/ethtool/string_set.h"
#include "rocewatch/result.h"

namespace rocewatch::ethtool {

enum class Direction : std::uint8_t { kRx, kTx };
std::string_view DirectionName(Direction direction);  // "rx", "tx"

enum class PriorityKind : std::uint8_t {
  kPauseFrames,           // PFC pause frames (XOFF)
  kPauseDurationSeconds,  // time paused; mlx5 counts microseconds, converted to seconds
  kPauseTransitions,      // XOFF -> XON transitions
  kBytes,
  kPackets,
  kDiscards,            // dropped on this priority (any reason)
  kBufferDiscards,      // dropped for lack of receive buffer
  kCongestionDiscards,  // dropped by congestion control (WRED)
  kEcnMarked,           // ECN-marked (CE) packets
};
// "pause_frames", "pause_duration_seconds", "pause_transitions", "bytes", "packets",
// "discards", "buffer_discards", "congestion_discards", "ecn_marked".
std::string_view PriorityKindName(PriorityKind kind);
// The kinds that count PFC pauses: frames, time paused, XOFF -> XON transitions.
bool IsPfcPause(PriorityKind kind);

enum class StatType : std::uint8_t { kCounter, kGauge };

// A per-priority name: prefix, one priority digit 0-7, suffix ("rx_prio" 3 "_pause").
struct PriorityPattern {
  std::string_view prefix;
  std::string_view suffix;
  Direction direction;
  PriorityKind kind;
  double scale;  // raw value * scale = base units
};
std::span<const PriorityPattern> PriorityPatternTable();

// The port table: a driver's exact name for a port-wide statistic and the stable kind the
// exporter publishes it as (snake_case, unit last). Several drivers' names may map to one
// kind; each kind is one meaning.
struct PortStatSpec {
  std::string_view driver_name;
  std::string_view kind;
  StatType type;
  double scale;  // raw value * scale = base units (µs -> s: 1e-6; percent -> ratio: 0.01)
  std::string_view help;
};
std::span<const PortStatSpec> PortStatTable();

// Another spelling of a PortStatTable() counter: older kernels and other drivers name the same
// hardware counter differently (mlx5 in kernel 4.4: "pause_ctrl_rx" for "rx_pause_ctrl_phy").
struct PortStatAlias {
  std::string_view spelling;  // the name in the driver's string set
  std::string_view name;      // the PortStatSpec::driver_name it means
  std::string_view seen;      // the drivers and kernels it was seen in
};
std::span<const PortStatAlias> PortStatAliasTable();

struct PriorityStat {
  std::uint32_t index = 0;  // position in the string set / GSTATS values
  std::uint8_t priority = 0;
  Direction direction = Direction::kRx;
  PriorityKind kind = PriorityKind::kPauseFrames;
  double scale = 1;
};

struct PortStat {
  std::uint32_t index = 0;
  const PortStatSpec* spec = nullptr;    // points into PortStatTable()
  const PortStatAlias* alias = nullptr;  // into PortStatAliasTable() when the name is an alias
};

struct QueueStat {
  std::uint32_t index = 0;
  std::string queue_kind;              // "rx", "tx", "ch", "ptp_tx", "rx_xsk"…
  std::optional<std::uint32_t> queue;  // absent for aggregates such as rx_xsk_packets
  std::string counter;                 // "packets", "xdp_tx_xmit"…
};

struct OtherStat {
  std::uint32_t index = 0;
  std::string name;
};

struct Classification {
  std::size_t name_count = 0;  // the number of names classified (= GSTATS values expected)
  std::vector<PriorityStat> per_priority;
  std::vector<PortStat> port;
  std::vector<QueueStat> per_queue;
  std::vector<OtherStat> other;
};

Classification ClassifyStrings(std::span<const std::string> names);

struct PriorityValue {
  std::uint8_t priority = 0;
  Direction direction = Direction::kRx;
  PriorityKind kind = PriorityKind::kPauseFrames;
  std::uint64_t raw = 0;
  double value = 0;  // base units
};
struct PortValue {
  const PortStatSpec* spec = nullptr;
  std::uint64_t raw = 0;
  double value = 0;  // base units
};
struct QueueValue {
  const QueueStat* stat = nullptr;  // points into the Classification
  std::uint64_t value = 0;
};
struct OtherValue {
  std::string_view name;  // points into the Classification
  std::uint64_t value = 0;
};
struct StatValues {
  std::vector<PriorityValue> per_priority;
  std::vector<PortValue> port;
  std::vector<QueueValue> per_queue;  // empty unless asked for
  std::vector<OtherValue> other;
};

// Pairs a classification with one GSTATS answer. Errors when the number of values differs
// from the number of names classified (the driver changed its set: classify again). The
// result points into `classification`, which must outlive it.
Result<StatValues> Apply(const Classification& classification, StatsView values,
                         bool include_per_queue = false);

}  // namespace rocewatch::ethtool
