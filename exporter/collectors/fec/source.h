#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// ethtool netlink FEC_GET with statistics, per netdev.
Result<std::unique_ptr<Source>> MakeFecSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
