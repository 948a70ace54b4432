#pragma once

#include <memory>

#include "sources/source.h"

namespace rocewatch::sources {

// SIOCETHTOOL driver info, link settings and classified statistics (per-priority PFC, PHY counters).
Result<std::unique_ptr<Source>> MakeEthtoolSource(const SourceEnv& env);

}  // namespace rocewatch::sources
