#pragma once

// Readers of the exporter's settings families for one NIC, shared by the
// checks and the drift comparison (metric names: docs/metrics.md).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lint/observe/node_view.h"

namespace rocewatch::lint::checks {

// Priorities (0-7) whose per-priority gauge is 1; nullopt when the family has
// no series for the netdev (the collector could not read it).
std::optional<std::vector<std::int64_t>> EnabledPriorities(const observe::NodeView& view,
                                                           std::string_view metric,
                                                           std::string_view netdev,
                                                           std::string_view point = {});
// "3", "3,4", or "none".
std::string FormatPriorities(const std::vector<std::int64_t>& priorities);
std::string FormatNumber(double v);

std::optional<std::string> TrustMode(const observe::NodeView& view, std::string_view netdev);
// The priority each DSCP (0..63) maps to, -1 where unmapped; nullopt when the
// node exports no DSCP map for the netdev.
std::optional<std::array<std::int8_t, 64>> DscpPriorities(const observe::NodeView& view,
                                                          std::string_view netdev);
// True when the node serves only part of its DSCP map (the exporter's default: the DSCPs
// it uses): roce_dcb_table_entries{table="dscp_map"} counts more entries than
// roce_dscp_priority has series. A DSCP absent from the series is then unknown, not unmapped.
bool DscpMapPartial(const observe::NodeView& view, std::string_view netdev);

// DCQCN parameters of a point (the sysfs value wins over debugfs). The names
// view the node's exposition; a handful of entries, so a flat list.
struct DcqcnParameter {
  std::string_view name;
  double value;
};
std::vector<DcqcnParameter> DcqcnParameters(const observe::NodeView& view, std::string_view netdev,
                                            std::string_view point);
const DcqcnParameter* FindParameter(const std::vector<DcqcnParameter>& params, std::string_view name);

}  // namespace rocewatch::lint::checks
