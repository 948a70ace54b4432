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
  std::string expected, found;
  std::vector<std::int64_t> priorities;
  for (std::size_t p = 0; p < 8; ++p) {
    bool bad = false;
    // What the switch sent, the NIC received; what the NIC sent, the switch received.
    for (auto [nic, sw, what] : {std::tuple{nic_rx[p], pauses->tx[p], "received"}, std::tuple{nic_tx[p], pauses->rx[p], "sent"}}) {
      if (!nic || !sw || !PauseCountsDisagree(*nic, *sw)) continue;
      const std::string prio = "priority " + std::to_string(p);
      const bool nic_received = std::string_view(what) == "received";
      expected += (expected.empty() ? "" : "; ") + std::string("the NIC ") + what + " about as many as the switch " +
                  (nic_received ? "sent" : "received") + " on " + prio;
      found += (found.empty() ? "" : "; ") + prio + ": NIC " + what + " " + FormatNumber(*nic) + ", switch " +
               (nic_received ? "sent " : "received ") + FormatNumber(*sw);
      bad = true;
    }
    if (bad) priorities.push_back(static_cast<std::int64_t>(p));
  }
  if (priorities.empty()) return;
  const double w = c.switches->pauses().window_seconds();
  sink.Nic(kPeerPauseMismatch, c, expected, found + " in " + counters::Window(w),
           BothEnds(c, *side) + ": the two ends of the link count different pause frames (" + found + " in " +
               counters::Window(w) + "; switch counters of " + pauses->profile + " from " +
               c.switches->pauses().source() +
               "), beyond the noise of two counters read a scrape apart: one end does not count what it "
               "sends or receives, or the switch port is not this NIC's link partner.",
           "check that the switch's LLDP Port ID names the port this NIC is cabled to (cabling.* checks the "
           "plan's cabling); compare `ethtool -S " + c.nic.netdev + " | grep prio` with the switch port's PFC "
           "counters over a minute (" + side->Where() + "); reseat or replace the cable if both count but differ");
}

}  // namespace rocewatch::lint::checks::peer
