#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// ethtool netlink link state (link-down reason) and 802.3x pause with statistics.
Result<std::unique_ptr<Source>> MakeEthtoolNetlinkSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
