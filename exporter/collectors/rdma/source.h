#pragma once

#include <memory>

#include "sources/source.h"

namespace rocewatch::sources {

// RDMA devices from class/infiniband: identity, port state and rate, every
// counters/ and hw_counters/ file, and the GID table (re-read every
// --collector.rdma.gid-interval, since it changes only when addresses do).
Result<std::unique_ptr<Source>> MakeRdmaSource(const SourceEnv& env);

}  // namespace rocewatch::sources
