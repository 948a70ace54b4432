#include <algorithm>

#include "exporter/inventory/inventory.h"
#include "rocewatch/strings.h"

namespace rocewatch {
namespace {

constexpr std::string_view kClassInfiniband = "class/infiniband";
constexpr std::string_view kClassNet = "class/net";

std::string ReadTrimmed(const fs::Tree& tree, const std::string& rel) {
  auto text = tree.ReadText(rel);
  return text ? std::string(Trim(*text)) : std::string();
}

// The netdev of a port: the netdev of GID 0 (RoCE), else the PCI function's
// netdev whose dev_port matches (mlx4-style multi-port), else its only netdev.
std::string PortNetdev(const fs::Tree& sysfs, const std::string& parent_dir, const PortRef& port,
                       const std::vector<std::string>& pci_netdevs) {
  auto ndev = sysfs.ReadText(fs::Join(port.dir, "gid_attrs/ndevs/0"));
  if (ndev && !Trim(*ndev).empty()) return std::string(Trim(*ndev));
  if (pci_netdevs.size() == 1) return pci_netdevs.front();
  for (const auto& name : pci_netdevs) {
    auto dev_port = ParseU64(ReadTrimmed(sysfs, fs::Join(parent_dir, "net", name) + "/dev_port"));
    if (dev_port && *dev_port + 1 == port.number) return name;
  }
  return {};
}

// A netdev with the PCI function its `device` link names (none for virtual netdevs).
NetdevRef MakeNetdevRef(const fs::Tree& sysfs, const std::string& name, const std::string& dir,
                        const std::string& device, std::uint32_t port) {
  NetdevRef ref{name, dir, device, port};
  auto parent = sysfs.Resolve(fs::Join(dir, "device"));
  if (parent) {
    const PciFunction pci = ReadPciFunction(sysfs, *parent);
    ref.pci_address = pci.address;
    ref.pf_address = pci.pf_address;
    ref.is_vf = pci.is_vf;
  }
  return ref;
}

}  // namespace

bool NameFilter::Accepts(const std::string& name) const {
  if (include && !std::regex_search(name, *include)) return false;
  if (exclude && std::regex_search(name, *exclude)) return false;
  return true;
}

const DeviceRef* Inventory::FindDevice(std::string_view name) const {
  for (const auto& d : devices)
    if (d.name == name) return &d;
  return nullptr;
}

const NetdevRef* Inventory::FindNetdev(std::string_view name) const {
  for (const auto& n : netdevs)
    if (n.name == name) return &n;
  return nullptr;
}

namespace {

// The fingerprint's text: each class directory's names, comma-separated, then ';'.
void AppendListing(std::string& key, const Result<std::vector<std::string>>& names) {
  if (!names) return;
  for (const auto& n : *names) key += n + ",";
  key += ";";
}

}  // namespace

std::string ListingKey(const fs::Tree& sysfs) {
  std::string key;
  for (auto dir : {kClassInfiniband, kClassNet}) AppendListing(key, sysfs.List(dir));
  return key;
}

ClassListing::ClassListing(const fs::Tree& sysfs) {
  for (auto dir : {kClassInfiniband, kClassNet}) dirs_.emplace_back(&sysfs, std::string(dir));
}

std::string ClassListing::Key() {
  std::string key;
  for (auto& dir : dirs_) AppendListing(key, dir.List());
  return key;
}

Inventory Discover(const fs::Tree& sysfs, const DiscoverOptions& options,
                   std::uint64_t generation) {
  Inventory inv;
  inv.generation = generation;
  inv.listing_key = ListingKey(sysfs);

  auto devices = sysfs.List(kClassInfiniband);
  // No class/infiniband means no RDMA stack loaded: an empty inventory, not an error.
  if (devices) {
    for (const auto& name : *devices) {
      if (!options.devices.Accepts(name)) continue;
      DeviceRef dev;
      dev.name = name;
      auto dir = sysfs.Resolve(fs::Join(kClassInfiniband, name));
      if (!dir) {
        inv.errors.push_back("device " + name + ": " + dir.error().message);
        continue;
      }
      dev.dir = *dir;
      // The parent device: a PCI function on real NICs, something else (or nothing) for
      // software devices; its driver and netdevs are read either way.
      auto parent = sysfs.Resolve(fs::Join(dev.dir, "device"));
      std::string parent_dir;
      std::vector<std::string> pci_netdevs;
      if (parent) {
        parent_dir = *parent;
        const PciFunction pci = ReadPciFunction(sysfs, *parent);
        dev.pci_dir = pci.dir;
        dev.pci_address = pci.address;
        dev.pf_address = pci.pf_address;
        dev.is_vf = pci.is_vf;
        auto driver = sysfs.ReadLink(fs::Join(*parent, "driver"));
        if (driver) dev.driver = std::string(fs::BaseName(*driver));
        auto nets = sysfs.List(fs::Join(*parent, "net"));
        if (nets) pci_netdevs = *nets;
      }
      auto ports = sysfs.List(fs::Join(dev.dir, "ports"));
      if (!ports) {
        inv.errors.push_back("device " + name + ": " + ports.error().message);
        continue;
      }
      for (const auto& p : *ports) {
        auto number = ParseU64(p);
        if (!number || *number == 0 || *number > 255) continue;
        PortRef port;
        port.number = static_cast<std::uint32_t>(*number);
        port.dir = fs::Join(dev.dir, "ports", p);
        port.link_layer = ReadTrimmed(sysfs, port.dir + "/link_layer");
        port.netdev = PortNetdev(sysfs, parent_dir, port, pci_netdevs);
        dev.ports.push_back(std::move(port));
      }
      std::sort(dev.ports.begin(), dev.ports.end(),
                [](const PortRef& a, const PortRef& b) { return a.number < b.number; });
      for (const auto& port : dev.ports) {
        if (port.netdev.empty() || inv.FindNetdev(port.netdev) != nullptr) continue;
        auto ndir = sysfs.Resolve(fs::Join(kClassNet, port.netdev));
        if (!ndir) {
          inv.errors.push_back("netdev " + port.netdev + " of " + name + ": " + ndir.error().message);
          continue;
        }
        inv.netdevs.push_back(MakeNetdevRef(sysfs, port.netdev, *ndir, name, port.number));
      }
      inv.devices.push_back(std::move(dev));
    }
  }

  if (options.extra_netdevs) {
    auto nets = sysfs.List(kClassNet);
    if (nets) {
      for (const auto& name : *nets) {
        if (!std::regex_search(name, *options.extra_netdevs) || inv.FindNetdev(name)) continue;
        auto ndir = sysfs.Resolve(fs::Join(kClassNet, name));
        if (!ndir) {
          inv.errors.push_back("netdev " + name + ": " + ndir.error().message);
          continue;
        }
        inv.netdevs.push_back(MakeNetdevRef(sysfs, name, *ndir, "", 0));
      }
    }
  }
  return inv;
}

}  // namespace rocewatch
