// optics.alarm: a module reading beyond its own alarm threshold, or an alarm flag raised.

#include "lint/checks/optics/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::optics {

void Alarm(const NicContext& c, FindingSink& sink) {
  auto module = ReadModule(c);
  if (!module) return;
  for (const auto& r : module->readings) {
    const Beyond b = BeyondModule(*module, r);
    if (b.spec == &kOpticsAlarm) AddBeyond(c, sink, r, b);
  }
}

}  // namespace rocewatch::lint::checks::optics
