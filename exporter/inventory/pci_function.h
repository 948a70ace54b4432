#pragma once

// The PCI function behind an RDMA device or a netdev (docs/metrics.md#pci-functions): its
// address, and whether it is an SR-IOV virtual function and of which physical function. The
// PCI core links a VF's directory to its PF as `physfn` and the PF's to each VF as `virtfn<N>`
// (drivers/pci/iov.c, pci_iov_sysfs_link); a VF's QoS (PFC, ETS, trust, DSCP map) belongs to
// the PF, so the collectors that read those skip VFs.

#include <string>
#include <string_view>

#include "exporter/fs/tree.h"

namespace rocewatch {

struct PciFunction {
  std::string dir;         // devices/…/0000:81:00.2; empty when the parent is not on PCI
  std::string address;     // 0000:81:00.2; empty when not on PCI (rxe, virtio, …)
  std::string pf_address;  // the PF a VF belongs to; on a PF its own address; empty off PCI
  bool is_vf = false;
};

// "pf", "vf", or "none" when `address` is empty (not on PCI): the `pci_function` label of
// roce_device_info and roce_netdev_info.
std::string_view PciFunctionKind(std::string_view address, bool is_vf);

// Whether `name` is a PCI function's sysfs name, DDDD:BB:DD.F in hex (pci_name()).
bool IsPciAddress(std::string_view name);

// The function whose directory is `parent_dir` (the resolved target of a device's `device`
// link, sysfs-relative; empty when it has none). Reads only the `physfn` link.
PciFunction ReadPciFunction(const fs::Tree& sysfs, const std::string& parent_dir);

}  // namespace rocewatch
