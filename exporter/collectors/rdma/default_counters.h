#pragma once

// Which counter files of a port the rdma collector reads and serves by default
// (issue 15): every file but the fixed lists below, which
// --collector.rdma.all-hw-counters / all-port-counters bring back. A file left out is
// not read at all (each is a pread a scrape, and on mlx5 a firmware query when the
// driver's cache has expired), so the source and the renderer agree by construction.
// A capture reads with both options on (their CollectorOption::capture_value).

#include <string_view>

#include "exporter/collectors/rdma/section.h"

namespace rocewatch {

// A hw_counters/ file of a port whose device runs `driver`.
bool ReadsHwCounter(const RdmaDetail& detail, std::string_view driver, std::string_view name);

// A counters/ file of a port of `link_layer` ("Ethernet", "InfiniBand").
bool ReadsPortCounter(const RdmaDetail& detail, std::string_view link_layer, std::string_view name);

}  // namespace rocewatch
