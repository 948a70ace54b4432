// counters.pause-storm: the NIC's own storm detector fired, or a priority was paused most of
// the window. Names the jobs with QPs on the NIC where the exporter serves the per-job view.

#include <cmath>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {

void PauseStorm(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const double w = v.window_seconds();
  const std::string& nd = c.nic.netdev;
  double storms = 0;
  for (std::string_view m : {metric::roce_ethtool_tx_pause_storm_warning_events_total, metric::roce_ethtool_tx_pause_storm_error_events_total})
    storms += v.Increase(m, {{label::netdev, nd}}).value_or(0);
  double worst_paused = 0;
  std::string direction, priority;
  for (const auto& s : v.SelectIncrease(metric::roce_pfc_pause_duration_seconds_total, {{label::netdev, nd}})) {
    if (w > 0 && s.value() / w > worst_paused) {
      worst_paused = s.value() / w;
      direction = std::string(s.Label(label::direction));
      priority = std::string(s.Label(label::priority));
    }
  }
  if (storms > 0 || worst_paused > 0.5) {
    const i18n::StoredArgs found_args = {{"count", FormatNumber(storms)},
                                         {"window", Window(w)},
                                         {"direction", direction},
                                         {"priority", priority},
                                         {"percent", FormatNumber(std::round(worst_paused * 100))}};
    i18n::Phrase found = storms > 0 ? i18n::Phrase::Of("check.counters.pause_storm.found_events", found_args)
                                    : i18n::Phrase::Of("check.counters.pause_storm.found_paused", found_args);
    i18n::StoredArgs args = {{"netdev", nd}};
    i18n::AddPhraseArg(args, "found", found);
    sink.Nic(kPauseStorm, c, i18n::Phrase::Of("check.counters.pause_storm.expected", {}), std::move(found),
             WithJobsOnPort(c, i18n::Phrase::Of("check.counters.pause_storm.message", args)),
             i18n::Phrase::Of("check.counters.pause_storm.fix", args));
  }
}

}  // namespace rocewatch::lint::checks::counters
