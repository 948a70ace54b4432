// inventory.unplanned-device: an RDMA device on the node that the plan does not list. SR-IOV
// VFs are left out: they come and go with the VMs and pods they are handed to, and their QoS
// is their PF's, which this check (or the plan) covers.

#include <set>

#include "lint/checks/inventory/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::inventory {

void UnplannedDevice(const NodeContext& c, FindingSink& sink) {
  const auto& view = c.view;
  const plan::Node& node = c.node;
  if (!view.reachable()) return;
  std::set<std::string> planned;
  for (const auto& nic : node.nics) planned.insert(nic.ib_dev);
  for (const auto& d : view.Select(metric::roce_device_info)) {
    std::string device(d.Label(label::device));
    if (planned.count(device) || d.Label(label::pci_function) == "vf") continue;
    sink.Node(kUnplannedDevice, node.name, device, "",
              i18n::Phrase::Of("check.inventory.unplanned_device.expected", {}), device,
              i18n::Phrase::Of("check.inventory.unplanned_device.message", {{"device", device}, {"node", node.name}}),
              i18n::Phrase::Of("check.inventory.unplanned_device.fix", {{"device", device}}));
  }
}

}  // namespace rocewatch::lint::checks::inventory
