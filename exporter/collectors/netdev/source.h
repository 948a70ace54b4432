#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// The netdevs of the RDMA ports (and those --netdev-include selects): MTU,
// operstate, carrier, carrier changes, speed.
Result<std::unique_ptr<Source>> MakeNetdevSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
