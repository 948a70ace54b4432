// inventory.netdev-mismatch: a planned RDMA device maps to another netdev than planned.

#include "lint/checks/inventory/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::inventory {

void NetdevMismatch(const NodeContext& c, FindingSink& sink) {
  const auto& view = c.view;
  const plan::Node& node = c.node;
  if (!view.reachable()) return;
  for (const auto& nic : node.nics) {
    if (!HasDevice(view, nic)) continue;
    auto ports = view.Select(metric::roce_port_info, {{label::device, nic.ib_dev}});
    std::string netdev = ports.empty() ? "" : std::string(ports.front().Label(label::netdev));
    if (!ports.empty() && netdev != nic.netdev) {
      sink.Node(kNetdevMismatch, node.name, nic.ib_dev, nic.netdev, nic.netdev,
                netdev.empty() ? "no netdev" : netdev,
                nic.ib_dev + " maps to " + (netdev.empty() ? "no netdev" : netdev) +
                    ", the plan says " + nic.netdev + ".",
                "fix the plan or the interface naming (udev rules / biosdevname); rdma link show " +
                    nic.ib_dev);
    }
  }
}

}  // namespace rocewatch::lint::checks::inventory
