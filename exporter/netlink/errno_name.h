#pragma once

// Names for the errno values a netlink or ioctl answer can carry, for error messages
// ("EOPNOTSUPP (operation not supported)"). A small fixed table: no strerror, no locale,
// safe from any thread.

#include <string>
#include <string_view>

namespace rocewatch::netlink {

// The symbolic name ("EOPNOTSUPP"), or "" for an errno outside the table. Takes a positive errno.
std::string_view ErrnoName(int errno_value);

// "EOPNOTSUPP (operation not supported)", or "errno 1234" for one outside the table.
std::string DescribeErrno(int errno_value);

}  // namespace rocewatch::netlink
