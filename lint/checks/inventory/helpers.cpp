// What the inventory.* checks share (group.h).

#include "lint/checks/inventory/group.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::inventory {

bool HasDevice(const observe::NodeView& view, const plan::Nic& nic) {
  return !view.Select(metric::roce_device_info, {{label::device, nic.ib_dev}}).empty();
}

}  // namespace rocewatch::lint::checks::inventory
