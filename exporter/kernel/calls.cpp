#include "kernel/calls.h"

namespace rocewatch::kernel {
namespace {

using R = const Request&;
using K = KernelAnswers&;

// One row per call: Call, name, what it asks the kernel, capture key, method.
const std::vector<CallSpec> kCalls = {
    {Call::kDriverInfo, "EthtoolDriverInfo", "SIOCETHTOOL ETHTOOL_GDRVINFO",
     [](R r) { return key::DriverInfo(r.object); },
     [](K k, R r) { return k.EthtoolDriverInfo(r.object); }},
    {Call::kStringSetInfo, "EthtoolStringSetInfo", "SIOCETHTOOL ETHTOOL_GSSET_INFO",
     [](R r) { return key::StringSetInfo(r.object, r.set); },
     [](K k, R r) { return k.EthtoolStringSetInfo(r.object, r.set); }},
    {Call::kStrings, "EthtoolStrings", "SIOCETHTOOL ETHTOOL_GSTRINGS",
     [](R r) { return key::Strings(r.object, r.set); },
     [](K k, R r) { return k.EthtoolStrings(r.object, r.set, r.count); }},
    {Call::kStats, "EthtoolStats", "SIOCETHTOOL ETHTOOL_GSTATS",
     [](R r) { return key::Stats(r.object); },
     [](K k, R r) { return k.EthtoolStats(r.object, r.count); }},
    {Call::kLinkSettings, "EthtoolLinkSettings", "SIOCETHTOOL ETHTOOL_GLINKSETTINGS",
     [](R r) { return key::LinkSettings(r.object); },
     [](K k, R r) { return k.EthtoolLinkSettings(r.object); }},
    {Call::kModuleInfo, "EthtoolModuleInfo", "SIOCETHTOOL ETHTOOL_GMODULEINFO",
     [](R r) { return key::ModuleInfo(r.object); },
     [](K k, R r) { return k.EthtoolModuleInfo(r.object); }},
    {Call::kModuleEeprom, "EthtoolModuleEeprom", "SIOCETHTOOL ETHTOOL_GMODULEEEPROM",
     [](R r) { return key::ModuleEeprom(r.object, r.offset, r.length); },
     [](K k, R r) { return k.EthtoolModuleEeprom(r.object, r.offset, r.length); }},
    {Call::kDcbIeee, "DcbIeee", "rtnetlink RTM_GETDCB DCB_CMD_IEEE_GET",
     [](R r) { return key::DcbIeee(r.object); }, [](K k, R r) { return k.DcbIeee(r.object); }},
    {Call::kDcbDcbx, "DcbDcbx", "rtnetlink RTM_GETDCB DCB_CMD_GDCBX",
     [](R r) { return key::DcbDcbx(r.object); }, [](K k, R r) { return k.DcbDcbx(r.object); }},
    {Call::kLinkState, "LinkState", "ethtool netlink ETHTOOL_MSG_LINKSTATE_GET",
     [](R r) { return key::LinkState(r.object); }, [](K k, R r) { return k.LinkState(r.object); }},
    {Call::kPause, "Pause", "ethtool netlink ETHTOOL_MSG_PAUSE_GET with stats",
     [](R r) { return key::Pause(r.object); }, [](K k, R r) { return k.Pause(r.object); }},
    {Call::kModuleEepromPage, "ModuleEepromPage", "ethtool netlink ETHTOOL_MSG_MODULE_EEPROM_GET",
     [](R r) { return key::ModuleEepromPage(r.object, r.page); },
     [](K k, R r) { return k.ModuleEepromPage(r.object, r.page); }},
    {Call::kVerbsPortAttr, "VerbsPortAttr", "libibverbs ibv_query_port",
     [](R r) { return key::VerbsPortAttr(r.object, r.port); },
     [](K k, R r) { return k.VerbsPortAttr(r.object, r.port); }},
    {Call::kLldpNeighbors, "LldpNeighbors", "lldpd through liblldpctl",
     [](R) { return key::LldpNeighbors(); }, [](K k, R r) { return k.LldpNeighbors(r.object); }},
};

}  // namespace

const std::vector<CallSpec>& AllCalls() { return kCalls; }
const CallSpec& SpecOf(Call call) { return kCalls[static_cast<std::size_t>(call)]; }
std::string KeyOf(const Request& request) { return SpecOf(request.call).key(request); }
Answer Ask(KernelAnswers& kernel, const Request& request) {
  return SpecOf(request.call).ask(kernel, request);
}

Answer RequestAnswers::EthtoolDriverInfo(const std::string& n) {
  return Serve({.call = Call::kDriverInfo, .object = n});
}
Answer RequestAnswers::EthtoolStringSetInfo(const std::string& n, std::uint32_t set) {
  return Serve({.call = Call::kStringSetInfo, .object = n, .set = set});
}
Answer RequestAnswers::EthtoolStrings(const std::string& n, std::uint32_t set,
                                      std::uint32_t count) {
  return Serve({.call = Call::kStrings, .object = n, .set = set, .count = count});
}
Answer RequestAnswers::EthtoolStats(const std::string& n, std::uint32_t count) {
  return Serve({.call = Call::kStats, .object = n, .count = count});
}
Answer RequestAnswers::EthtoolLinkSettings(const std::string& n) {
  return Serve({.call = Call::kLinkSettings, .object = n});
}
Answer RequestAnswers::EthtoolModuleInfo(const std::string& n) {
  return Serve({.call = Call::kModuleInfo, .object = n});
}
Answer RequestAnswers::EthtoolModuleEeprom(const std::string& n, std::uint32_t offset,
                                           std::uint32_t length) {
  return Serve({.call = Call::kModuleEeprom, .object = n, .offset = offset, .length = length});
}
Answer RequestAnswers::DcbIeee(const std::string& n) {
  return Serve({.call = Call::kDcbIeee, .object = n});
}
Answer RequestAnswers::DcbDcbx(const std::string& n) {
  return Serve({.call = Call::kDcbDcbx, .object = n});
}
Answer RequestAnswers::LinkState(const std::string& n) {
  return Serve({.call = Call::kLinkState, .object = n});
}
Answer RequestAnswers::Pause(const std::string& n) {
  return Serve({.call = Call::kPause, .object = n});
}
Answer RequestAnswers::ModuleEepromPage(const std::string& n, const ModulePage& page) {
  return Serve({.call = Call::kModuleEepromPage, .object = n, .page = page});
}
Answer RequestAnswers::VerbsPortAttr(const std::string& d, std::uint32_t port) {
  return Serve({.call = Call::kVerbsPortAttr, .object = d, .port = port});
}
Answer RequestAnswers::LldpNeighbors(const std::string& socket) {
  return Serve({.call = Call::kLldpNeighbors, .object = socket});
}

}  // namespace rocewatch::kernel
