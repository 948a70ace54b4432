#include "exporter/netlink/interface_name.h"

#include <net/if.h>

#include <string>

#include "rocewatch/strings.h"

namespace rocewatch::netlink {

Status ValidateInterfaceName(std::string_view ifname) {
  if (ifname.empty()) return Error{"interface name is empty"};
  if (ifname.size() >= IFNAMSIZ) {
    return Error{"interface name " + Quote(ifname) + " is " + std::to_string(ifname.size()) +
                 " bytes; the kernel allows at most " + std::to_string(IFNAMSIZ - 1)};
  }
  if (ifname == "." || ifname == "..") {
    return Error{"interface name " + Quote(ifname) + " is not allowed"};
  }
  for (char c : ifname) {
    if (c == '/' || c == ':' || c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
        c == '\v' || c == '\f') {
      return Error{"interface name " + Quote(ifname) +
                   " contains a character the kernel rejects ('/', ':', NUL or whitespace)"};
    }
  }
  return {};
}

}  // namespace rocewatch::netlink
