// optics.read-failed: the exporter could not read or decode the module's EEPROM.

#include "lint/checks/optics/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::optics {

void ReadFailed(const NicContext& c, FindingSink& sink) {
  if (CageEmpty(c) || !ReadFails(c)) return;  // an empty cage is optics.module-missing
  const std::string& nd = c.nic.netdev;
  sink.Nic(kOpticsReadFailed, c, i18n::Phrase::Of("check.optics.read_failed.expected", {}),
           i18n::Phrase::Of("check.optics.read_failed.found", {}),
           i18n::Phrase::Of("check.optics.read_failed.message", {{"netdev", nd}}),
           i18n::Phrase::Of("check.optics.read_failed.fix", {{"netdev", nd}}));
}

}  // namespace rocewatch::lint::checks::optics
