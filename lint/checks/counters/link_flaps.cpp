// counters.link-flaps: the link went down or changed carrier over the window.

#include <algorithm>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {

void LinkFlaps(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const double w = v.window_seconds();
  const std::string& nd = c.nic.netdev;
  const std::string& dev = c.nic.ib_dev;
  double flaps = 0;
  for (std::string_view m : {metric::roce_netdev_carrier_changes_total, metric::roce_ethtool_link_down_events_total, metric::roce_link_down_events_total})
    flaps = std::max(flaps, v.Increase(m, {{label::netdev, nd}}).value_or(0));
  flaps = std::max(flaps, v.Increase(metric::roce_port_stat_total, {{label::device, dev}, {label::port, c.port}, {label::counter, "link_downed"}}).value_or(0));
  if (flaps > 0) {
    const i18n::StoredArgs args = {{"netdev", nd},
                                   {"count", FormatNumber(flaps)},
                                   {"window", Window(w)},
                                   {"switch_port", c.nic.switch_port ? " " + *c.nic.switch_port : std::string()}};
    sink.Nic(kLinkFlaps, c, i18n::Phrase::Of("check.counters.link_flaps.expected", {}),
             i18n::Phrase::Of("check.counters.link_flaps.found", args),
             i18n::Phrase::Of("check.counters.link_flaps.message", args),
             i18n::Phrase::Of("check.counters.link_flaps.fix", args));
  }
}

}  // namespace rocewatch::lint::checks::counters
