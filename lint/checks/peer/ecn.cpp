// peer.ecn: the switch's egress queue of the RoCE priority does not mark ECN (only a
// --switch-config file says so; DCBX carries no ECN): DCQCN gets no congestion signal there.

#include <algorithm>

#include "lint/checks/peer/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::peer {

void Ecn(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !p->roce_priority) return;
  const std::int64_t roce = *p->roce_priority;
  // A profile that states ECN points without the RoCE priority plans no ECN there.
  for (const auto* points : {&p->ecn.np_priorities, &p->ecn.rp_priorities})
    if (*points && std::find((*points)->begin(), (*points)->end(), roce) == (*points)->end()) return;
  auto s = SwitchSideOf(c);
  if (!s || !s->ecn) return;
  if (std::find(s->ecn->begin(), s->ecn->end(), roce) != s->ecn->end()) return;
  sink.Nic(kPeerEcn, c, "ECN marking on the switch queue of priority " + std::to_string(roce),
           "no ECN on priority " + std::to_string(roce),
           BothEnds(c, *s) + ": the switch port's egress queue of the RoCE priority " + std::to_string(roce) +
               " does not mark ECN (" + s->source + "): the NIC's DCQCN gets no congestion notification "
               "from it, and PFC alone must hold the traffic back.",
           SwitchEcnFix(*s, roce) + "; NIC " + c.nic.netdev + ": nothing (ecn.* checks it)");
}

}  // namespace rocewatch::lint::checks::peer
