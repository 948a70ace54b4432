#pragma once

// The driver a planned NIC runs, as the kernel reports it: the `driver` label of
// roce_device_info{device} (the driver bound to the RDMA device's PCI function, the name
// `ethtool -i <netdev>` prints for the same function: mlx5_core, bnxt_en, ice, ionic). A
// software RDMA device (Soft-RoCE's rxe, siw) has no PCI function: no PCI driver either (an
// exporter that names its RDMA driver, rdma_rxe, still gives no PCI address). Checks
// choose a fix's tool by it (mlxfwmanager, mlnx_qos only on mlx5), never by a device or
// counter name (docs/checks.md, "One set of findings for every vendor").

#include <string>
#include <string_view>

#include "lint/observe/node_view.h"

namespace rocewatch::lint::checks {

struct NicDriver {
  bool observed = false;     // roce_device_info has the device
  std::string name;          // "" when the kernel reports none (a software device)
  std::string pci_address;   // "" off PCI

  // A software RDMA device: no PCI function (and so no firmware, no PCI driver to bind).
  bool software() const { return observed && pci_address.empty(); }
  bool mlx5() const { return name == "mlx5_core"; }
};

NicDriver DriverOf(const observe::NodeView& view, std::string_view ib_dev);

}  // namespace rocewatch::lint::checks
