#include "exporter/collectors/gpudirect/source.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>
#include <utility>

#include <unistd.h>

#include "exporter/collectors/attribute_reader.h"
#include "exporter/collectors/gpudirect/pci_config.h"
#include "exporter/collectors/gpudirect/topology.h"
#include "exporter/collectors/sysfs_values.h"
#include "rocewatch/strings.h"

namespace rocewatch::collectors {
namespace {

using gpudirect::PciChain;

constexpr std::string_view kPeerMemoryModules[] = {"nvidia_peermem", "nv_peer_mem", "ib_peer_mem"};

// PCI classes of a GPU (class code >> 8): VGA controller, 3D controller.
bool IsGpuClass(std::uint64_t cls) { return (cls >> 8) == 0x0300 || (cls >> 8) == 0x0302; }
bool IsGpuVendor(std::string_view vendor) { return vendor == "0x10de" || vendor == "0x1002"; }

// A PCI function's AER and link attributes and where its control registers are, found when
// the inventory changes and read on every pass.
struct Watched {
  std::string address, dir;
  bool bridge = false;
  fs::Attribute aer[3];
  fs::Attribute speed, width;
  gpudirect::PciConfig config;  // the offsets; the values are read again each pass
};

std::optional<std::uint64_t> AerTotal(std::string_view text, std::string_view name) {
  for (std::string_view line : Split(text, '\n')) {
    line = Trim(line);
    auto space = line.find(' ');
    if (space == std::string_view::npos) continue;
    if (line.substr(0, space) == name) return ParseU64(line.substr(space + 1));
  }
  return std::nullopt;
}

// The PCI function that carries a device's traffic: its own parent, or for a software device
// (rxe, siw: no PCI parent) the function of the netdev it runs over, the NIC its packets leave
// through. {dir, address}; both empty when neither is on PCI (a veth, a virtual netdev).
std::pair<std::string, std::string> NicFunction(const DeviceRef& dev, const Inventory& inventory) {
  if (!dev.pci_dir.empty()) return {dev.pci_dir, dev.pci_address};
  for (const auto& port : dev.ports) {
    const NetdevRef* n = port.netdev.empty() ? nullptr : inventory.FindNetdev(port.netdev);
    if (n == nullptr || n->pci_address.empty()) continue;
    // The netdev's directory is <PCI function>/net/<name>.
    const std::string tail = "/net/" + n->name;
    if (n->dir.size() <= tail.size() || n->dir.compare(n->dir.size() - tail.size(), tail.size(), tail) != 0) continue;
    std::string dir = n->dir.substr(0, n->dir.size() - tail.size());
    if (fs::BaseName(dir) != n->pci_address) continue;
    return {std::move(dir), n->pci_address};
  }
  return {};
}

class GpuDirectSource final : public Source {
 public:
  explicit GpuDirectSource(const SourceEnv& env) : sysfs_(*env.sysfs) {}

  void Prepare(const Inventory& inventory) override {
    topology_ = GpuDirectNode{};
    watched_.clear();
    functions_.clear();
    std::map<std::string, PciChain> chains;  // by address
    std::map<std::string, std::optional<std::int64_t>> numa;
    std::set<std::string> bridges, aer_functions;

    // The node's GPUs: bus/pci/devices lists every function once (links, no recursion).
    auto listed = sysfs_.List("bus/pci/devices");
    if (listed) {
      for (const auto& addr : *listed) {
        if (!IsPciAddress(addr)) continue;
        const std::string link = "bus/pci/devices/" + addr;
        auto cls = sysfs_.ReadText(link + "/class");
        auto vendor = sysfs_.ReadText(link + "/vendor");
        if (!cls || !vendor) continue;
        auto c = ParseU64Auto(*cls);
        const std::string v(Trim(*vendor));
        if (!c || !IsGpuClass(*c) || !IsGpuVendor(v)) continue;
        auto dir = sysfs_.Resolve(link);
        if (!dir) continue;
        GpuState g;
        g.pci_address = addr;
        g.vendor_id = v;
        if (auto d = sysfs_.ReadText(*dir + "/device")) g.device_id = std::string(Trim(*d));
        if (auto n = sysfs_.ReadText(*dir + "/numa_node")) g.numa_node = ParseI64(*n);
        chains[addr] = gpudirect::ParsePciChain(*dir);
        numa[addr] = g.numa_node;
        topology_.gpus.push_back(std::move(g));
      }
    }

    std::vector<std::pair<std::string, std::string>> nic_functions;  // {dir, address}
    for (const auto& dev : inventory.devices) {
      auto [pci_dir, pci_address] = NicFunction(dev, inventory);
      if (pci_dir.empty()) continue;
      nic_functions.emplace_back(pci_dir, pci_address);
      GpuDirectNic nic;
      nic.device = dev.name;
      nic.pci_address = pci_address;
      const PciChain chain = gpudirect::ParsePciChain(pci_dir);
      for (std::size_t i = chain.chain.size(); i-- > 1;) {
        nic.upstream.push_back(chain.chain[i - 1]);
        bridges.insert(chain.chain[i - 1]);
        aer_functions.insert(chain.chain[i - 1]);
      }
      aer_functions.insert(pci_address);
      std::optional<std::int64_t> nic_numa;
      if (auto n = sysfs_.ReadText(pci_dir + "/numa_node")) nic_numa = ParseI64(*n);
      // No iommu_group link: the IOMMU is off (or absent) for the function, "none"; a group
      // whose type cannot be read (a kernel before 5.11) leaves the type absent.
      if (!sysfs_.ReadLink(pci_dir + "/iommu_group")) {
        nic.iommu_group_type = "none";
      } else if (auto t = sysfs_.ReadText(pci_dir + "/iommu_group/type")) {
        nic.iommu_group_type = std::string(Trim(*t));
      }
      for (const auto& g : topology_.gpus) {
        auto between = gpudirect::Between(chains[g.pci_address], numa[g.pci_address], chain, nic_numa);
        for (const auto& b : between.bridges) bridges.insert(b);
        topology_.paths.push_back({dev.name, g.pci_address, std::string(gpudirect::RelationName(between.relation)),
                                   std::move(between.bridges)});
      }
      topology_.nics.push_back(std::move(nic));
    }
    // Every bridge's directory is its chain's prefix: found from the NICs' and GPUs' paths.
    auto remember = [&](const PciChain& c) {
      for (std::size_t i = 0; i < c.chain.size(); ++i) functions_.emplace(c.chain[i], c.dirs[i]);
    };
    for (const auto& [dir, address] : nic_functions) remember(gpudirect::ParsePciChain(dir));
    for (const auto& [addr, c] : chains) remember(c);
    std::set<std::string> watch = bridges;
    watch.insert(aer_functions.begin(), aer_functions.end());
    for (const auto& addr : watch) {
      auto it = functions_.find(addr);
      if (it == functions_.end()) continue;
      Watched w;
      w.address = addr;
      w.dir = it->second;
      static constexpr const char* kAer[3] = {"aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal"};
      // A function without AER (no capability, or a kernel without the files) has none of the
      // three files: looked for once here, not counted as unavailable on every pass.
      if (aer_functions.count(addr) != 0 && sysfs_.Exists(w.dir + "/" + kAer[0]))
        for (int i = 0; i < 3; ++i) w.aer[i] = fs::Attribute(&sysfs_, w.dir + "/" + kAer[i]);
      if (bridges.count(addr) != 0) {
        w.speed = fs::Attribute(&sysfs_, w.dir + "/current_link_speed");
        w.width = fs::Attribute(&sysfs_, w.dir + "/current_link_width");
      }
      if (auto config = sysfs_.ReadText(w.dir + "/config")) w.config = gpudirect::DecodePciConfig(*config);
      w.bridge = bridges.count(addr) != 0;
      watched_.push_back(std::move(w));
    }
  }

  void Collect(const Inventory&, NodeSnapshot& out, SourceStatus& status) override {
    GpuDirectNode node = topology_;
    std::map<std::string, const Watched*> by_address;
    std::string text;
    for (auto& w : watched_) {
      by_address[w.address] = &w;
      if (!sysfs_.Exists(w.dir)) {  // the function left: walk again next pass
        reader_.Vanished(status);
        continue;
      }
      // Config space past 64 bytes needs CAP_SYS_ADMIN: ACS, ATS and Device Control are absent.
      if (!w.config.extended_readable) status.unavailable_values += 1;
      if (w.bridge) {
        PcieBridgeState b;
        b.pci_address = w.address;
        b.may_have_acs = !w.config.extended_readable || w.config.acs_control_offset != 0;
        if (w.config.acs_control_offset != 0) b.acs_control = Register16(w.dir, w.config.acs_control_offset, status);
        if (reader_.Read(w.speed, w.dir, text, status) == AttributeReader::Outcome::kOk)
          if (auto v = ParsePcieSpeed(text); v && *v) b.link_speed_transfers = **v;
        if (reader_.Read(w.width, w.dir, text, status) == AttributeReader::Outcome::kOk)
          if (auto v = ParsePcieWidth(text); v && *v) b.link_width = **v;
        node.bridges.push_back(std::move(b));
      }
      if (w.aer[0].tree() != nullptr) {
        PcieAerCounts a;
        a.pci_address = w.address;
        static constexpr std::string_view kTotals[3] = {"TOTAL_ERR_COR", "TOTAL_ERR_NONFATAL", "TOTAL_ERR_FATAL"};
        std::optional<std::uint64_t>* slots[3] = {&a.correctable, &a.nonfatal, &a.fatal};
        for (int i = 0; i < 3; ++i) {
          if (w.aer[i].absent()) continue;  // no AER capability or a kernel without the files
          if (reader_.Read(w.aer[i], w.dir, text, status) != AttributeReader::Outcome::kOk) continue;
          *slots[i] = AerTotal(text, kTotals[i]);
          if (!*slots[i]) reader_.ParseError(sysfs_.Abs(w.aer[i].rel()), "no " + std::string(kTotals[i]) + " line");
        }
        if (a.correctable || a.nonfatal || a.fatal) node.aer.push_back(std::move(a));
      }
    }
    for (auto& nic : node.nics) {
      auto it = by_address.find(nic.pci_address);
      if (it == by_address.end()) continue;
      const Watched& w = *it->second;
      if (w.config.devctl_offset != 0) {
        if (auto devctl = Register16(w.dir, w.config.devctl_offset, status)) {
          const auto d = gpudirect::DecodeDeviceControl(*devctl);
          nic.relaxed_ordering = d.relaxed_ordering;
          nic.max_payload_bytes = d.max_payload_bytes;
          nic.max_read_request_bytes = d.max_read_request_bytes;
        }
      }
      if (w.config.ats_control_offset != 0)
        if (auto ctl = Register16(w.dir, w.config.ats_control_offset, status)) nic.ats_enabled = gpudirect::AtsEnabled(*ctl);
    }
    // Peer memory only matters, and is only served, where there is a GPU to share.
    for (std::string_view module : kPeerMemoryModules) {
      if (topology_.gpus.empty()) break;
      auto state = sysfs_.ReadText("module/" + std::string(module) + "/initstate");
      node.peer_memory.emplace_back(std::string(module), state && Trim(*state) == "live");
    }
    out.gpudirect = std::move(node);
    reader_.Finish(status);
  }

 private:
  // Two bytes of `dir`/config at `offset`, read with one pread: the register as it is now.
  std::optional<std::uint16_t> Register16(const std::string& dir, std::size_t offset, SourceStatus& status) {
    const std::string rel = dir + "/config";
    if (sysfs_.recorder() != nullptr) sysfs_.recorder()->OnRead(sysfs_.name(), rel);
    const int fd = sysfs_.Open(rel);
    if (fd < 0) {
      status.unavailable_values += 1;
      return std::nullopt;
    }
    unsigned char b[2];
    const ssize_t n = ::pread(fd, b, 2, static_cast<off_t>(offset));
    ::close(fd);
    if (n != 2) {
      status.unavailable_values += 1;
      return std::nullopt;
    }
    return static_cast<std::uint16_t>(b[0] | (b[1] << 8));
  }

  const fs::Tree& sysfs_;
  GpuDirectNode topology_;  // what changes only with the device set
  std::vector<Watched> watched_;
  std::map<std::string, std::string> functions_;  // address → canonical directory
  AttributeReader reader_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeGpuDirectSource(const SourceEnv& env) {
  return std::unique_ptr<Source>(std::make_unique<GpuDirectSource>(env));
}

}  // namespace rocewatch::collectors
