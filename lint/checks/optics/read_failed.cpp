// optics.read-failed: the exporter could not read or decode the module's EEPROM.

#include "lint/checks/optics/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::optics {

void ReadFailed(const NicContext& c, FindingSink& sink) {
  if (CageEmpty(c) || !ReadFails(c)) return;  // an empty cage is optics.module-missing
  const std::string& nd = c.nic.netdev;
  sink.Nic(kOpticsReadFailed, c, "module EEPROM read", "read failed",
           nd + ": the exporter could not read or decode the module's EEPROM, so its optics "
                "are not monitored.",
           "ethtool -m " + nd + " (as root); give roce_exporter CAP_NET_ADMIN; see the exporter's log");
}

}  // namespace rocewatch::lint::checks::optics
