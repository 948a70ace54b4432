#pragma once

// The inventory: which RDMA devices, ports and netdevs this node has, and where
// their attributes live. Built by Discover() on start and again whenever the
// device listing changes or a read finds a device gone; sources read through it
// every collection without walking the tree again (docs/design.md#where-the-time-goes).

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "exporter/fs/directory.h"
#include "exporter/fs/tree.h"
#include "exporter/inventory/pci_function.h"

namespace rocewatch {

struct PortRef {
  std::uint32_t number = 0;
  std::string dir;  // sysfs-relative, canonical: devices/…/infiniband/mlx5_0/ports/1
  std::string link_layer;
  std::string netdev;  // empty when none maps to this port
};

struct DeviceRef {
  std::string name;         // mlx5_0
  std::string dir;          // devices/…/0000:17:00.0/infiniband/mlx5_0
  std::string pci_dir;      // devices/…/0000:17:00.0 (empty off PCI: rxe, virtio, …)
  std::string pci_address;  // 0000:17:00.0 (empty off PCI)
  std::string driver;       // mlx5_core
  std::vector<PortRef> ports;
  // Last and default-initialized so `DeviceRef{name, dir, pci_dir, pci_address, driver, ports}`
  // stays complete.
  std::string pf_address{};  // its PF's address on a VF, its own on a PF (pci_function.h)
  bool is_vf = false;        // an SR-IOV virtual function: its QoS belongs to the PF
};

struct NetdevRef {
  std::string name;
  std::string dir;     // canonical sysfs-relative directory
  std::string device;  // owning ibdev, empty for netdevs selected by --netdev-include
  std::uint32_t port = 0;
  // Default-initialized so `NetdevRef{name, dir, device, port}` stays complete.
  std::string pci_address{};  // its PCI function (its `device` link), empty off PCI
  std::string pf_address{};   // its PF's address on a VF, its own on a PF
  bool is_vf = false;         // on an SR-IOV VF: the dcb collector and PFC series skip it
};

struct Inventory {
  std::uint64_t generation = 0;
  std::string listing_key;  // what the class directories held when this was built
  std::vector<DeviceRef> devices;
  std::vector<NetdevRef> netdevs;
  std::vector<std::string> errors;  // devices skipped, with the reason

  const DeviceRef* FindDevice(std::string_view name) const;
  const NetdevRef* FindNetdev(std::string_view name) const;
};

// Regex filters applied to names before anything of the device is read.
struct NameFilter {
  std::optional<std::regex> include;
  std::optional<std::regex> exclude;
  bool Accepts(const std::string& name) const;
};

struct DiscoverOptions {
  NameFilter devices;                      // --device-include / --device-exclude (ibdev names)
  std::optional<std::regex> extra_netdevs;  // --netdev-include: netdevs without an RDMA device
};

// Walks class/infiniband and class/net once. Never fails as a whole: a device
// that cannot be read is left out and named in `errors`.
Inventory Discover(const fs::Tree& sysfs, const DiscoverOptions& options, std::uint64_t generation);

// A cheap fingerprint of class/infiniband and class/net (two readdirs), compared
// every collection to notice devices that came or went.
std::string ListingKey(const fs::Tree& sysfs);

// The same fingerprint from the two class directories held open (fs/directory.h): what the
// collector compares on every pass, without walking to them each time.
class ClassListing {
 public:
  explicit ClassListing(const fs::Tree& sysfs);
  std::string Key();

 private:
  std::vector<fs::Directory> dirs_;
};

}  // namespace rocewatch
