#pragma once

#include <memory>

#include "sources/source.h"

namespace rocewatch::sources {

// dcbnl IEEE QoS: PFC, ETS, APP table (trust, DSCP map), buffers, DCBX.
Result<std::unique_ptr<Source>> MakeDcbSource(const SourceEnv& env);

}  // namespace rocewatch::sources
