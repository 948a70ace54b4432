#include <cstdio>

#include "kernel/answers.h"

namespace rocewatch::kernel::key {

std::string DriverInfo(const std::string& netdev) { return "ethtool/" + netdev + "/drvinfo"; }
std::string StringSetInfo(const std::string& netdev, std::uint32_t set) {
  return "ethtool/" + netdev + "/sset_info." + std::to_string(set);
}
std::string Strings(const std::string& netdev, std::uint32_t set) {
  return "ethtool/" + netdev + "/strings." + std::to_string(set);
}
std::string Stats(const std::string& netdev) { return "ethtool/" + netdev + "/stats"; }
std::string LinkSettings(const std::string& netdev) {
  return "ethtool/" + netdev + "/link_settings";
}
std::string ModuleInfo(const std::string& netdev) { return "ethtool/" + netdev + "/module_info"; }
std::string ModuleEeprom(const std::string& netdev, std::uint32_t offset, std::uint32_t length) {
  return "ethtool/" + netdev + "/module_eeprom." + std::to_string(offset) + "." +
         std::to_string(length);
}
std::string DcbIeee(const std::string& netdev) { return "dcbnl/" + netdev + "/ieee"; }
std::string DcbDcbx(const std::string& netdev) { return "dcbnl/" + netdev + "/dcbx"; }
std::string LinkState(const std::string& netdev) {
  return "ethtool-netlink/" + netdev + "/linkstate";
}
std::string Pause(const std::string& netdev) { return "ethtool-netlink/" + netdev + "/pause"; }
std::string ModuleEepromPage(const std::string& netdev, const ModulePage& p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "/module_eeprom.a%02x.b%u.p%02x.o%u.l%u", p.i2c_address, p.bank,
                p.page, p.offset, p.length);
  return "ethtool-netlink/" + netdev + buf;
}

std::string VerbsPortAttr(const std::string& device, std::uint32_t port) {
  return "verbs/" + device + "/port" + std::to_string(port);
}

std::string LldpNeighbors() { return "lldp/neighbors.json"; }

}  // namespace rocewatch::kernel::key
