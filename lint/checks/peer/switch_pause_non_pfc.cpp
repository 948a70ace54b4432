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
#include "lint/fix/commands.h"
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
  std::string found;
  for (std::int64_t p = 0; p < 8; ++p) {
    const auto& sent = pauses->tx[static_cast<std::size_t>(p)];
    if (!sent || *sent <= 0 || std::find(nic->begin(), nic->end(), p) != nic->end()) continue;
    priorities.push_back(p);
    found += (found.empty() ? "" : ", ") + FormatNumber(*sent) + " on priority " + std::to_string(p);
  }
  if (priorities.empty()) return;
  found = "switch sent " + found + " in " + counters::Window(w);
  const plan::Profile* profile = c.profile;
  // The plan decides which end is wrong: a priority it makes lossless wants PFC on the NIC;
  // otherwise the switch must stop pausing it (without a plan, the NIC's setting stands).
  const std::vector<std::int64_t> want =
      profile != nullptr && profile->pfc_priorities ? *profile->pfc_priorities : *nic;
  std::string fix;
  bool nic_wrong = false;
  for (auto p : priorities) nic_wrong = nic_wrong || std::find(want.begin(), want.end(), p) != want.end();
  if (nic_wrong)
    fix = "NIC " + c.nic.netdev + ": " + fix::SetPfc(fix::Toolset::kUpstream, c.nic.netdev, want);
  bool switch_wrong = false;
  for (auto p : priorities) switch_wrong = switch_wrong || std::find(want.begin(), want.end(), p) == want.end();
  if (switch_wrong) fix += (fix.empty() ? "" : "; ") + SwitchPfcFix(*side, want);
  sink.Nic(kPeerSwitchPauseNonPfc, c, "switch pauses only on the NIC's PFC priorities (" + FormatPriorities(*nic) + ")",
           found,
           BothEnds(c, *side) + ": the switch port sent pause frames on priority " + FormatPriorities(priorities) +
               ", where the NIC has no PFC (it has PFC on " + FormatPriorities(*nic) + "; " + found +
               ", counters of " + pauses->profile + " from " + c.switches->pauses().source() +
               "): the NIC ignores them and keeps sending, and the switch drops on a priority it treats as lossless.",
           fix);
}

}  // namespace rocewatch::lint::checks::peer
