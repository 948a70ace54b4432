// ecn.rp-priorities: the ECN reaction point is enabled on other priorities than planned.

#include "lint/checks/ecn/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::ecn {

void RpPriorities(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr) return;
  PointPriorities(c, sink, kEcnRp, "rp", c.profile->ecn.rp_priorities);
}

}  // namespace rocewatch::lint::checks::ecn
