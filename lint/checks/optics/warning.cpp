// optics.warning: a module reading beyond its own warning threshold (within the alarm ones), or
// a warning flag raised.

#include "lint/checks/optics/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::optics {

void Warning(const NicContext& c, FindingSink& sink) {
  auto module = ReadModule(c);
  if (!module) return;
  for (const auto& r : module->readings) {
    const Beyond b = BeyondModule(*module, r);
    if (b.spec == &kOpticsWarning) AddBeyond(c, sink, r, b);
  }
}

}  // namespace rocewatch::lint::checks::optics
