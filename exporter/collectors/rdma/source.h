#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// RDMA devices from class/infiniband: identity, port state and rate, the
// counters/ and hw_counters/ files default_counters.h reads, and the GID table (re-read every
// --collector.rdma.gid-interval, since it changes only when addresses do). A port's hw counters
// come from one RDMA netlink STAT_GET answer (kernel::call::RdmaStat) where the kernel gives
// one, optional counters included, and from the files otherwise: the same series either way.
Result<std::unique_ptr<Source>> MakeRdmaSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
