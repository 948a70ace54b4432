// peer.switch-pause-non-pfc: the switch port sent PFC pause frames on a priority the NIC has no
// PFC on (the switch's pause counters, read through --prometheus): the switch treats the
// priority as lossless and asks the NIC to stop, the NIC ignores it and keeps sending, and the
// switch's full queue drops what the plan meant to be lossless, or the switch enables PFC where
// the plan does not.

#include <algorithm>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/peer/group.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::peer {

void SwitchPauseNonPfc(const NicContext& c, FindingSink& sink) {
  if (qos::NoDcb(c)) return;
  auto nic = EnabledPriorities(c.view, metric::roce_pfc_enabled, c.nic.netdev);
  if (!nic) return;
  const switch_config::PortPauses* pauses = SwitchPausesOf(c);
  if (pauses == nullptr) return;
  auto side = NeighbourSideOf(c);
  if (!side) return;
  const double w = c.switches->pauses().window_seconds();
  std::vector<std::int64_t> priorities;
  std::vector<i18n::Phrase> items;
  for (std::int64_t p = 0; p < 8; ++p) {
    const auto& sent = pauses->tx[static_cast<std::size_t>(p)];
    if (!sent || *sent <= 0 || std::find(nic->begin(), nic->end(), p) != nic->end()) continue;
    priorities.push_back(p);
    items.push_back(i18n::Phrase::Of("check.peer.switch_pause_non_pfc.item",
                                     {{"count", FormatNumber(*sent)}, {"priority", std::to_string(p)}}));
  }
  if (priorities.empty()) return;
  const plan::Profile* profile = c.profile;
  // The plan decides which end is wrong: a priority it makes lossless wants PFC on the NIC;
  // otherwise the switch must stop pausing it (without a plan, the NIC's setting stands).
  const std::vector<std::int64_t> want =
      profile != nullptr && profile->pfc_priorities ? *profile->pfc_priorities : *nic;
  FixText fix;
  bool nic_wrong = false;
  for (auto p : priorities) nic_wrong = nic_wrong || std::find(want.begin(), want.end(), p) != want.end();
  if (nic_wrong)
    fix = FixText::In(i18n::Phrase::Of("check.peer.fix.nic", {{"netdev", c.nic.netdev}}), SettingChange{"pfc", want});
  bool switch_wrong = false;
  for (auto p : priorities) switch_wrong = switch_wrong || std::find(want.begin(), want.end(), p) == want.end();
  if (switch_wrong) {
    if (!fix.empty()) fix += i18n::Phrase::Of("fix.separator", {});
    fix += SwitchPfcFixText(*side, want);
  }
  i18n::StoredArgs args = {{"ends", BothEnds(c, *side)},
                           {"priorities", FormatPriorities(priorities)},
                           {"pfc", FormatPriorities(*nic)},
                           {"profile", pauses->profile},
                           {"source", c.switches->pauses().source()}};
  i18n::StoredArgs sent = {{"window", counters::Window(w)}};
  i18n::AddListArg(sent, "sent", items, "check.list.comma");
  i18n::Phrase found = i18n::Phrase::Of("check.peer.switch_pause_non_pfc.found", sent);
  i18n::AddPhraseArg(args, "found", found);
  sink.Nic(kPeerSwitchPauseNonPfc, c, i18n::Phrase::Of("check.peer.switch_pause_non_pfc.expected", args), found,
           i18n::Phrase::Of("check.peer.switch_pause_non_pfc.message", args),
           fix);
}

}  // namespace rocewatch::lint::checks::peer
