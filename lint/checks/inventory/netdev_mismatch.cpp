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
      i18n::Phrase found = netdev.empty() ? i18n::Phrase::Of("check.inventory.netdev_mismatch.no_netdev", {})
                                          : i18n::Phrase(netdev);
      i18n::StoredArgs args = {{"device", nic.ib_dev}, {"planned", nic.netdev}};
      i18n::AddPhraseArg(args, "found", found);
      sink.Node(kNetdevMismatch, node.name, nic.ib_dev, nic.netdev, nic.netdev, std::move(found),
                i18n::Phrase::Of("check.inventory.netdev_mismatch.message", args),
                i18n::Phrase::Of("check.inventory.netdev_mismatch.fix", args));
    }
  }
}

}  // namespace rocewatch::lint::checks::inventory
