// peer.pfc-priorities: the switch port enables PFC on other priorities than the NIC does (where
// the switch has PFC on the RoCE priority: peer.roce-priority-pfc says the worse).

#include <algorithm>

#include "lint/checks/observed.h"
#include "lint/checks/peer/group.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::peer {

void PfcPriorities(const NicContext& c, FindingSink& sink) {
  if (qos::NoDcb(c)) return;
  auto nic = EnabledPriorities(c.view, metric::roce_pfc_enabled, c.nic.netdev);
  if (!nic) return;
  auto s = SwitchSideOf(c);
  if (!s || !s->pfc || *s->pfc == *nic) return;
  const plan::Profile* p = c.profile;
  if (p != nullptr && qos::WantsPfc(*p) && p->roce_priority &&
      std::find(p->pfc_priorities->begin(), p->pfc_priorities->end(), *p->roce_priority) != p->pfc_priorities->end() &&
      std::find(s->pfc->begin(), s->pfc->end(), *p->roce_priority) == s->pfc->end())
    return;  // peer.roce-priority-pfc
  // The plan decides which end is wrong; without one, the NIC's setting is the one to match.
  const std::vector<std::int64_t> want = p != nullptr && p->pfc_priorities ? *p->pfc_priorities : *nic;
  FixText fix;
  if (*s->pfc != want) fix = SwitchPfcFixText(*s, want);
  if (*nic != want) {
    if (!fix.empty()) fix += i18n::Phrase::Of("fix.separator", {});
    fix += FixText::In(i18n::Phrase::Of("check.peer.fix.nic", {{"netdev", c.nic.netdev}}), SettingChange{"pfc", want});
  }
  const i18n::StoredArgs args = {
      {"nic", FormatPriorities(*nic)}, {"pfc", FormatPriorities(*s->pfc)}, {"ends", BothEnds(c, *s)}, {"source", s->source}};
  sink.Nic(kPeerPfcPriorities, c, i18n::Phrase::Of("check.peer.pfc_priorities.expected", args),
           i18n::Phrase::Of("check.peer.pfc_priorities.found", args),
           i18n::Phrase::Of("check.peer.pfc_priorities.message", args),
           fix);
}

}  // namespace rocewatch::lint::checks::peer
