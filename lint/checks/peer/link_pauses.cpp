// The pause frames of both ends of a NIC's link over the counter window (group.h), for
// peer.switch-pause-non-pfc and peer.pause-mismatch.

#include <algorithm>

#include "lint/checks/peer/group.h"
#include "lint/metric_contract.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::checks::peer {

std::array<std::optional<double>, 8> NicPauseFrames(const NicContext& c, bool rx) {
  std::array<std::optional<double>, 8> out;
  if (!c.view.has_increase()) return out;
  for (std::string_view family : {metric::roce_pfc_pause_frames_total, metric::roce_dcb_pfc_pause_frames_total}) {
    std::array<std::optional<double>, 8> counted;
    for (const auto& s : c.view.SelectIncrease(family, {{label::netdev, c.nic.netdev}, {label::direction, rx ? "rx" : "tx"}})) {
      auto p = ParseI64(s.Label(label::priority));
      if (!p || *p < 0 || *p > 7) continue;
      auto& slot = counted[static_cast<std::size_t>(*p)];
      slot = slot.value_or(0) + s.value();
    }
    for (std::size_t p = 0; p < 8; ++p)
      if (counted[p]) out[p] = std::max(out[p].value_or(0), *counted[p]);
  }
  return out;
}

bool PauseCountsDisagree(double a, double b) {
  const double larger = std::max(a, b), smaller = std::min(a, b);
  return larger >= kPauseMismatchFloor && smaller * kPauseMismatchRatio < larger;
}

}  // namespace rocewatch::lint::checks::peer
