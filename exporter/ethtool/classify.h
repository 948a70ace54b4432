#pragma once

// Sorting a netdev's ethtool statistic names (ETH_SS_STATS) into what the exporter
// publishes, by its driver's table (exporter/drivers/<name>/, chosen by the GDRVINFO driver):
// per-priority PFC and traffic counters, port-wide counters with stable kind names,
// per-queue software counters (hundreds of them, not exported by default; their shapes are
// shared by drivers), and the rest. A name the driver's table does not know lands in `other`
// and is counted in `unclassified`, never dropped; a driver with no table has every name but
// the per-queue ones there. The real dumps of tests/fixtures/real/ethtool-S check the tables.
//
// Classify once per string set (names change only when the driver reconfigures: channels,
// PFC priorities), then Apply() the classification to each GSTATS answer.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/drivers/driver.h"
#include "exporter/ethtool/string_set.h"
#include "rocewatch/result.h"

namespace rocewatch::ethtool {

// The meanings are the drivers' vocabulary (exporter/drivers/meaning.h).
using drivers::Direction;
using drivers::DirectionName;
using drivers::IsPfcPause;
using drivers::PriorityKind;
using drivers::PriorityKindName;

enum class StatType : std::uint8_t { kCounter, kGauge };

// The port statistic kinds: a stable kind name the exporter publishes a port-wide statistic
// as (roce_ethtool_<kind>, _total for counters; snake_case, unit last), whichever driver's
// name feeds it (drivers::PortName::kind). Each kind is one meaning.
struct PortStatSpec {
  std::string_view kind;
  StatType type;
  std::string_view help;
};
std::span<const PortStatSpec> PortStatTable();
// The entry of `kind`; null when no kind has that name.
const PortStatSpec* FindPortKind(std::string_view kind);

struct PriorityStat {
  std::uint32_t index = 0;  // position in the string set / GSTATS values
  std::uint8_t priority = 0;
  Direction direction = Direction::kRx;
  PriorityKind kind = PriorityKind::kPauseFrames;
  double scale = 1;
};

struct PortStat {
  std::uint32_t index = 0;
  const PortStatSpec* spec = nullptr;  // points into PortStatTable()
  double scale = 1;                    // the driver's unit: raw value * scale = base units
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
  std::vector<OtherStat> other;  // the driver's table gives them no family: served raw only
  // How many of `other` the driver's table does not know at all (every one of them when the
  // driver has no table): roce_exporter_unclassified_statistics.
  std::size_t unclassified = 0;
};

// Classifies by `driver`'s table; null (a driver with no table) classifies the per-queue
// shapes only.
Classification ClassifyStrings(std::span<const std::string> names, const drivers::Driver* driver);

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
