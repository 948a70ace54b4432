#pragma once

#include <memory>

#include "sources/source.h"

namespace rocewatch::sources {

// ethtool netlink link state (link-down reason) and 802.3x pause with statistics.
Result<std::unique_ptr<Source>> MakeEthtoolNetlinkSource(const SourceEnv& env);

}  // namespace rocewatch::sources
