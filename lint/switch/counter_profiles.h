#pragma once

// Where a switch's per-priority PFC pause counters are in a fleet's Prometheus, source by
// source: a counter profile is a table of metric names, each with its direction (rx: pause
// frames the switch port received from the NIC; tx: pause frames it sent to the NIC) and its
// priority (a label, or fixed where the metric's name carries it, as CUMULUS-COUNTERS-MIB's
// clIntInPfc3Pkt does), and the labels that name the switch and the port. `roce-lint check
// --prometheus` reads every profile's series over the counter window and joins them to a NIC
// through its LLDP neighbour: the switch label's value is the neighbour's System Name, the port
// label's its Port ID (docs/operations.md "The switch side" lists the built-in profiles, their
// provenance and what each source needs enabled). A user adds or replaces profiles with
// `--switch-counters FILE` (JSON, read as hostile input) without a rebuild.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::lint::switch_config {

enum class PauseDirection { kRx, kTx };
std::string_view DirectionName(PauseDirection d);  // "rx", "tx"

struct CounterSeries {
  std::string metric;             // "cpfcIfPriorityRequests"
  PauseDirection direction = PauseDirection::kTx;
  std::optional<int> priority;    // fixed by the metric's name; nullopt: the priority label says
};

struct CounterProfile {
  std::string name;            // "snmp-cisco-pfc-ext"
  std::string description;     // where the series come from, for --help and the docs
  std::string switch_label;    // "instance"
  std::string port_label;      // "ifName"
  std::string priority_label;  // "cpfcIfPriorityValue"; empty when every series fixes its priority
  std::vector<CounterSeries> series;
};

// Limits on a --switch-counters file.
inline constexpr std::size_t kMaxCounterProfilesBytes = 1u << 20;
inline constexpr std::size_t kMaxCounterProfilesDepth = 8;
inline constexpr std::size_t kMaxCounterProfiles = 64;
inline constexpr std::size_t kMaxSeriesPerProfile = 64;

// The profiles roce-lint knows (builtin_counter_profiles.cpp), in the order of the docs.
const std::vector<CounterProfile>& BuiltinCounterProfiles();

// A --switch-counters file: {"profiles": [{...}, ...]}. Each profile has "name", "series"
// ([{"metric", "direction": "rx"|"tx", "priority"?: 0-7}]), "switch_label", "port_label",
// "priority_label" (unless every series has its priority) and an optional "description"; or
// "extends": a built-in profile's name, whose fields it takes where it states none (so
// {"name": "my-cisco", "extends": "snmp-cisco-pfc-ext", "switch_label": "sysName"} only renames a
// label). Unknown keys are errors (a misspelt label must not silently read nothing). Errors name
// the file and the JSON path: "sw.json: /profiles/0/series/1/direction: \"in\" is not rx or tx".
Result<std::vector<CounterProfile>> ParseCounterProfiles(std::string_view text, const std::string& source);
Result<std::vector<CounterProfile>> ReadCounterProfilesFile(const std::string& path);

// The built-in profiles with `added`'s: one of the same name replaces the built-in one.
std::vector<CounterProfile> MergeProfiles(const std::vector<CounterProfile>& builtin,
                                          const std::vector<CounterProfile>& added);

}  // namespace rocewatch::lint::switch_config
