// peer.roce-priority-pfc: the switch port does not enable PFC on the plan's RoCE priority: the
// NIC's pauses on it are ignored and the switch drops RoCE traffic under congestion.

#include <algorithm>

#include "lint/checks/observed.h"
#include "lint/checks/peer/group.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::peer {

void RocePriorityPfc(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !qos::WantsPfc(*p) || !p->roce_priority) return;
  const std::int64_t roce = *p->roce_priority;
  if (std::find(p->pfc_priorities->begin(), p->pfc_priorities->end(), roce) == p->pfc_priorities->end()) return;
  auto s = SwitchSideOf(c);
  if (!s || !s->pfc) return;
  if (std::find(s->pfc->begin(), s->pfc->end(), roce) != s->pfc->end()) return;
  sink.Nic(kPeerRocePriorityPfc, c, "switch PFC on " + std::to_string(roce) + " (the RoCE priority)",
           "switch PFC on " + FormatPriorities(*s->pfc),
           BothEnds(c, *s) + ": the switch port does not enable PFC on the RoCE priority " + std::to_string(roce) +
               " (it has " + FormatPriorities(*s->pfc) + ", from " + s->source +
               "): it ignores the NIC's pauses there and drops RoCE traffic when congested.",
           SwitchPfcFix(*s, *p->pfc_priorities) + "; NIC " + c.nic.netdev + ": nothing (qos.pfc-priorities checks it)");
}

}  // namespace rocewatch::lint::checks::peer
