// ecn.np-priorities: the ECN notification point is enabled on other priorities than planned.

#include "lint/checks/ecn/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::ecn {

void NpPriorities(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr) return;
  PointPriorities(c, sink, kEcnNp, "np", c.profile->ecn.np_priorities);
}

}  // namespace rocewatch::lint::checks::ecn
