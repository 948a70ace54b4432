// counters.link-flaps: the link went down or changed carrier over the window.

#include <algorithm>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::counters {

void LinkFlaps(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const double w = v.window_seconds();
  const std::string& nd = c.nic.netdev;
  const std::string& dev = c.nic.ib_dev;
  double flaps = 0;
  for (const char* m : {"roce_netdev_carrier_changes_total", "roce_ethtool_link_down_events_total", "roce_link_down_events_total"})
    flaps = std::max(flaps, v.Increase(m, {{"netdev", nd}}).value_or(0));
  flaps = std::max(flaps, v.Increase("roce_port_stat_total", {{"device", dev}, {"port", c.port}, {"counter", "link_downed"}}).value_or(0));
  if (flaps > 0) {
    sink.Nic(kLinkFlaps, c, "stable link", FormatNumber(flaps) + " link changes in " + Window(w),
             nd + " went down or changed carrier " + FormatNumber(flaps) + " times in " + Window(w) + ".",
             "check the cable/module and the switch port" +
                 (c.nic.switch_port ? " " + *c.nic.switch_port : std::string()) + "; ethtool -S " + nd +
                 " | grep link_down; dmesg | grep " + nd);
  }
}

}  // namespace rocewatch::lint::checks::counters
