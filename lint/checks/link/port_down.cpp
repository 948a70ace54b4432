// link.port-down: the port is not ACTIVE / LinkUp.

#include "lint/checks/link/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::link {

void PortDown(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  const std::string& dev = c.nic.ib_dev;
  auto state = v.Value(metric::roce_port_state, {{label::device, dev}, {label::port, c.port}});
  auto phys = v.Value(metric::roce_port_physical_state, {{label::device, dev}, {label::port, c.port}});
  if ((state && *state != 4) || (phys && *phys != 5)) {
    std::string reason;
    for (const auto& r : v.Select(metric::roce_link_down_reason_info, {{label::netdev, c.nic.netdev}}))
      reason = std::string(r.Label(label::reason)) +
               (r.Label(label::detail).empty() ? "" : "/" + std::string(r.Label(label::detail)));
    std::string found = "state " + (state ? FormatNumber(*state) : "?") + ", physical state " +
                        (phys ? FormatNumber(*phys) : "?") + (reason.empty() ? "" : ", " + reason);
    sink.Nic(kPortDown, c, "state 4 (ACTIVE), physical state 5 (LinkUp)", found,
             dev + " port " + c.port + " is not up: " + found + ".",
             "ip link set dev " + c.nic.netdev + " up; check cable and switch port" +
                 (c.nic.switch_port ? " " + *c.nic.switch_port : "") + "; ethtool " + c.nic.netdev);
  }
}

}  // namespace rocewatch::lint::checks::link
