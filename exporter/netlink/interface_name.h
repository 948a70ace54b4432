#pragma once

// The kernel's rule for a network interface name (net/core/dev.c dev_valid_name), checked
// before a name goes into a request so that a bad name fails here with a clear message.

#include <string_view>

#include "rocewatch/result.h"

namespace rocewatch::netlink {

// Non-empty, at most IFNAMSIZ-1 (15) bytes, not "." or "..", no '/', ':', NUL or whitespace.
Status ValidateInterfaceName(std::string_view ifname);

}  // namespace rocewatch::netlink
