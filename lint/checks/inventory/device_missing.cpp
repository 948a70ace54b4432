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
    sink.Node(kDeviceMissing, node.name, nic.ib_dev, nic.netdev, nic.ib_dev + " present",
              present.empty() ? "no RDMA devices" : "present: " + present,
              nic.ib_dev + " is not in /sys/class/infiniband on " + node.name +
                  (present.empty() ? "; the node has no RDMA devices." : "; present: " + present + "."),
              "check the NIC is seated and the driver loaded: lspci -d 15b3: ; "
              "modprobe mlx5_ib; dmesg | grep mlx5");
  }
}

}  // namespace rocewatch::lint::checks::inventory
