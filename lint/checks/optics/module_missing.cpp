// optics.module-missing: the cage holds no transceiver module or cable.

#include "lint/checks/optics/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::optics {

void ModuleMissing(const NicContext& c, FindingSink& sink) {
  if (!CageEmpty(c)) return;
  i18n::StoredArgs where;
  i18n::AddPhraseArg(where, "where", Where(c));
  sink.Nic(kModuleMissing, c, i18n::Phrase::Of("check.optics.module_missing.expected", {}),
           i18n::Phrase::Of("check.optics.module_missing.found", {}),
           i18n::Phrase::Of("check.optics.module_missing.message", {{"netdev", c.nic.netdev}}),
           i18n::Phrase::Of("check.optics.module_missing.fix", where));
}

}  // namespace rocewatch::lint::checks::optics
