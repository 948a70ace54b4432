#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// SIOCETHTOOL driver info, link settings and classified statistics (per-priority PFC, PHY counters).
Result<std::unique_ptr<Source>> MakeEthtoolSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
