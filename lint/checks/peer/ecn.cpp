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
  const i18n::StoredArgs args = {{"priority", std::to_string(roce)}, {"ends", BothEnds(c, *s)}, {"source", s->source}};
  sink.Nic(kPeerEcn, c, i18n::Phrase::Of("check.peer.ecn.expected", args), i18n::Phrase::Of("check.peer.ecn.found", args),
           i18n::Phrase::Of("check.peer.ecn.message", args),
           NicNothingFix(SwitchEcnFixText(*s, roce), c.nic.netdev, "ecn.*"));
}

}  // namespace rocewatch::lint::checks::peer
