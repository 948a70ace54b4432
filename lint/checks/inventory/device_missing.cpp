// inventory.device-missing: a planned RDMA device is not on the node.

#include "lint/checks/inventory/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::inventory {

void DeviceMissing(const NodeContext& c, FindingSink& sink) {
  const auto& view = c.view;
  const plan::Node& node = c.node;
  if (!view.reachable()) return;
  for (const auto& nic : node.nics) {
    if (HasDevice(view, nic)) continue;
    std::string present;
    for (const auto& d : view.Select(metric::roce_device_info))
      present += (present.empty() ? "" : " ") + std::string(d.Label(label::device));
    i18n::StoredArgs args = {{"device", nic.ib_dev}, {"node", node.name}, {"present", present}};
    sink.Node(kDeviceMissing, node.name, nic.ib_dev, nic.netdev,
              i18n::Phrase::Of("check.inventory.device_missing.expected", args),
              present.empty() ? i18n::Phrase::Of("check.inventory.device_missing.found_none", {})
                              : i18n::Phrase::Of("check.inventory.device_missing.found", args),
              present.empty() ? i18n::Phrase::Of("check.inventory.device_missing.message_none", args)
                              : i18n::Phrase::Of("check.inventory.device_missing.message", args),
              i18n::Phrase::Of("check.inventory.device_missing.fix", {}));
  }
}

}  // namespace rocewatch::lint::checks::inventory
