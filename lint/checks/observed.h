#pragma once

// Readers of the exporter's settings families for one NIC, shared by the
// checks and the drift comparison (metric names: docs/metrics.md).

#include <cstdint>
#include <map>
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
std::map<std::int64_t, std::int64_t> DscpPriorities(const observe::NodeView& view,
                                                    std::string_view netdev);
// DCQCN parameters of a point, by name (the sysfs value wins over debugfs).
std::map<std::string, double> DcqcnParameters(const observe::NodeView& view,
                                              std::string_view netdev, std::string_view point);

}  // namespace rocewatch::lint::checks
