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
  const i18n::StoredArgs args = {{"priority", std::to_string(roce)},
                                 {"pfc", FormatPriorities(*s->pfc)},
                                 {"ends", BothEnds(c, *s)},
                                 {"source", s->source}};
  sink.Nic(kPeerRocePriorityPfc, c, i18n::Phrase::Of("check.peer.roce_priority_pfc.expected", args),
           i18n::Phrase::Of("check.peer.roce_priority_pfc.found", args),
           i18n::Phrase::Of("check.peer.roce_priority_pfc.message", args),
           NicNothingFix(SwitchPfcFixText(*s, *p->pfc_priorities), c.nic.netdev, kPfcPriorities.id));
}

}  // namespace rocewatch::lint::checks::peer
