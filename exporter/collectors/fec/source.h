#pragma once

#include <memory>

#include "sources/source.h"

namespace rocewatch::sources {

// ethtool netlink FEC_GET with statistics, per netdev.
Result<std::unique_ptr<Source>> MakeFecSource(const SourceEnv& env);

}  // namespace rocewatch::sources
