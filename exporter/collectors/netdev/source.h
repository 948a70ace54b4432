#pragma once

#include <memory>

#include "sources/source.h"

namespace rocewatch::sources {

// The netdevs of the RDMA ports (and those --netdev-include selects): MTU,
// operstate, carrier, carrier changes, speed.
Result<std::unique_ptr<Source>> MakeNetdevSource(const SourceEnv& env);

}  // namespace rocewatch::sources
