#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// dcbnl IEEE QoS: PFC, ETS, APP table (trust, DSCP map), buffers, DCBX.
Result<std::unique_ptr<Source>> MakeDcbSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
