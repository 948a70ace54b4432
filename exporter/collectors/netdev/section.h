#pragma once

// The netdev collector's section: the RDMA netdevs from sysfs.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

struct NetdevSnapshot {
  std::string name;
  std::string device;  // ibdev it belongs to, empty for extra netdevs
  std::uint32_t port = 0;
  std::optional<double> mtu_bytes;
  std::string operstate;
  std::optional<std::uint32_t> operstate_id;
  std::optional<bool> carrier;
  std::optional<double> carrier_changes;
  std::optional<double> speed_bytes_per_second;
  std::string address;
  std::string pci_address;     // its PCI function, empty off PCI (veth, virtio, lo)
  std::string pci_function;    // "pf", "vf", "none" (inventory/pci_function.h)
  std::string pf_pci_address;  // its PF's address on a VF, its own on a PF, empty off PCI
  // --collector.netdev.repeats: roce_netdev_up and roce_netdev_speed_bytes_per_second too,
  // which repeat roce_netdev_operstate and roce_ethtool_link_speed_bytes_per_second.
  bool repeats = false;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct NetdevSection {
  std::vector<NetdevSnapshot> netdevs;
  void Append(NetdevSection&& part) { AppendSection(netdevs, part.netdevs); }
};

}  // namespace rocewatch
