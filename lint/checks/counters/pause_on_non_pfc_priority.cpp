// counters.pause-on-non-pfc-priority: pause frames on a priority without PFC — something sends
// PFC for a class that should be lossy (a switch or peer with another QoS plan). The fix shows
// PFC with mlnx_qos on mlx5 only, with iproute2's dcb (every dcbnl driver) elsewhere.

#include <algorithm>
#include <map>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/checks/versions/nic_driver.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {

void PauseOnNonPfcPriority(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const double w = v.window_seconds();
  const std::string& nd = c.nic.netdev;
  auto pfc = EnabledPriorities(v, metric::roce_pfc_enabled, nd);
  if (pfc) {
    const bool mlx5 = DriverOf(v, c.nic.ib_dev).mlx5();
    // mlx5's ethtool stats list only the priorities with PFC enabled; dcbnl
    // counts all eight (the same counters on mlx5): take the larger per priority. bnxt_en counts
    // PFC frames naming a priority, XON included (roce_pfc_frames_total): on a priority without
    // PFC, a resume is as foreign as a pause.
    std::map<std::string, double> per_priority;
    for (std::string_view family : {metric::roce_pfc_pause_frames_total, metric::roce_dcb_pfc_pause_frames_total,
                                    metric::roce_pfc_frames_total}) {
      std::map<std::string, double> counted;
      for (const auto& s : v.SelectIncrease(family, {{label::netdev, nd}}))
        counted[std::string(s.Label(label::priority))] += s.value();
      for (const auto& [prio, inc] : counted) per_priority[prio] = std::max(per_priority[prio], inc);
    }
    for (const auto& [prio, inc] : per_priority) {
      bool enabled = false;
      for (auto p : *pfc) enabled = enabled || std::to_string(p) == prio;
      if (enabled || inc <= 0) continue;
      const i18n::StoredArgs args = {
          {"netdev", nd}, {"priority", prio}, {"count", FormatNumber(inc)}, {"window", Window(w)}, {"rate", PerSecond(inc, w)}};
      sink.Nic(kPauseNonPfc, c, i18n::Phrase::Of("check.counters.pause_non_pfc.expected", args),
               i18n::Phrase::Of("check.counters.count_in_window", args),
               i18n::Phrase::Of("check.counters.pause_non_pfc.message", args),
               i18n::Phrase::Of(mlx5 ? i18n::MessageId("check.counters.pause_non_pfc.fix")
                                     : i18n::MessageId("check.counters.pause_non_pfc.fix_dcb"),
                                args));
    }
  }
}

}  // namespace rocewatch::lint::checks::counters
