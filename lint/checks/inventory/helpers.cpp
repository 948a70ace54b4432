// What the inventory.* checks share (group.h).

#include "lint/checks/inventory/group.h"

namespace rocewatch::lint::checks::inventory {

bool HasDevice(const observe::NodeView& view, const plan::Nic& nic) {
  return !view.Select("roce_device_info", {{"device", nic.ib_dev}}).empty();
}

}  // namespace rocewatch::lint::checks::inventory
