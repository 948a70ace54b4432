// optics.module-missing: the cage holds no transceiver module or cable.

#include "lint/checks/optics/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::optics {

void ModuleMissing(const NicContext& c, FindingSink& sink) {
  if (!CageEmpty(c)) return;
  sink.Nic(kModuleMissing, c, "module present", "empty cage",
           c.nic.netdev + " has no transceiver module or cable in its cage.",
           "insert the planned module/cable in " + Where(c));
}

}  // namespace rocewatch::lint::checks::optics
