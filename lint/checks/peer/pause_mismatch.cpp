// peer.pause-mismatch: the two ends of one cable count different pause frames: the NIC received
// far more or far fewer than the switch port says it sent on a priority (or the reverse), over
// the same counter window. Both count the same frames on the same wire, so beyond noise
// (group.h: kPauseMismatchFloor, kPauseMismatchRatio) one of them does not count, or the LLDP
// neighbour is not the port the counters belong to (a cabling or LLDP mix-up).

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/peer/group.h"
#include "lint/checks/specs.h"

#include <tuple>

namespace rocewatch::lint::checks::peer {

void PauseMismatch(const NicContext& c, FindingSink& sink) {
  if (!c.view.has_increase()) return;  // the NIC was not observed at the window's start
  const switch_config::PortPauses* pauses = SwitchPausesOf(c);
  if (pauses == nullptr) return;
  auto side = NeighbourSideOf(c);
  if (!side) return;
  const auto nic_rx = NicPauseFrames(c, true), nic_tx = NicPauseFrames(c, false);
  std::vector<i18n::Phrase> expected, found;
  std::vector<std::int64_t> priorities;
  for (std::size_t p = 0; p < 8; ++p) {
    bool bad = false;
    // What the switch sent, the NIC received; what the NIC sent, the switch received.
    for (auto [nic, sw, what] : {std::tuple{nic_rx[p], pauses->tx[p], "received"}, std::tuple{nic_tx[p], pauses->rx[p], "sent"}}) {
      if (!nic || !sw || !PauseCountsDisagree(*nic, *sw)) continue;
      const bool nic_received = std::string_view(what) == "received";
      const i18n::StoredArgs args = {{"priority", std::to_string(p)}, {"nic", FormatNumber(*nic)}, {"switch", FormatNumber(*sw)}};
      expected.push_back(nic_received ? i18n::Phrase::Of("check.peer.pause_mismatch.expected_received", args)
                                      : i18n::Phrase::Of("check.peer.pause_mismatch.expected_sent", args));
      found.push_back(nic_received ? i18n::Phrase::Of("check.peer.pause_mismatch.found_received", args)
                                   : i18n::Phrase::Of("check.peer.pause_mismatch.found_sent", args));
      bad = true;
    }
    if (bad) priorities.push_back(static_cast<std::int64_t>(p));
  }
  if (priorities.empty()) return;
  const double w = c.switches->pauses().window_seconds();
  i18n::StoredArgs args = {{"ends", BothEnds(c, *side)},
                           {"window", counters::Window(w)},
                           {"profile", pauses->profile},
                           {"source", c.switches->pauses().source()},
                           {"netdev", c.nic.netdev},
                           {"where", side->Where()}};
  i18n::StoredArgs expected_args;
  i18n::AddListArg(expected_args, "list", expected, "check.peer.pause_mismatch.joiner");
  i18n::AddListArg(args, "found", found, "check.peer.pause_mismatch.joiner");
  sink.Nic(kPeerPauseMismatch, c, i18n::Phrase::Of("check.peer.pause_mismatch.expected", expected_args),
           i18n::Phrase::Of("check.peer.pause_mismatch.found", args),
           i18n::Phrase::Of("check.peer.pause_mismatch.message", args),
           i18n::Phrase::Of("check.peer.pause_mismatch.fix", args));
}

}  // namespace rocewatch::lint::checks::peer
