#include "exporter/collectors/pcie/source.h"

#include "exporter/collectors/attribute_reader.h"
#include "exporter/collectors/sysfs_values.h"
#include "rocewatch/strings.h"

namespace rocewatch::collectors {
namespace {

using Outcome = AttributeReader::Outcome;

struct PcieState {
  PcieSnapshot fixed;  // max speed/width, NUMA node and ids: read at discovery
  std::string pci_dir;
  fs::Attribute current_speed, current_width;
};

class PcieSource final : public Source {
 public:
  explicit PcieSource(const SourceEnv& env) : sysfs_(*env.sysfs) {}

  void Prepare(const Inventory& inventory) override {
    functions_.clear();
    for (const auto& dev : inventory.devices) {
      if (dev.pci_dir.empty()) continue;  // virtual RDMA devices (rxe, siw) have no PCI link
      PcieState s;
      s.pci_dir = dev.pci_dir;
      s.fixed.device = dev.name;
      s.fixed.pci_address = dev.pci_address;
      auto text = sysfs_.ReadText(dev.pci_dir + "/max_link_speed");
      if (text) {
        auto v = ParsePcieSpeed(*text);
        if (v) s.fixed.max_speed_transfers = *v;
        else reader_.ParseError(sysfs_.Abs(dev.pci_dir + "/max_link_speed"), v.error().message);
      }
      text = sysfs_.ReadText(dev.pci_dir + "/max_link_width");
      if (text) {
        auto v = ParsePcieWidth(*text);
        if (v) s.fixed.max_width = *v;
        else reader_.ParseError(sysfs_.Abs(dev.pci_dir + "/max_link_width"), v.error().message);
      }
      text = sysfs_.ReadText(dev.pci_dir + "/numa_node");
      if (text) s.fixed.numa_node = ParseI64(*text);
      text = sysfs_.ReadText(dev.pci_dir + "/vendor");
      if (text) s.fixed.vendor_id = std::string(Trim(*text));
      text = sysfs_.ReadText(dev.pci_dir + "/device");
      if (text) s.fixed.device_id = std::string(Trim(*text));
      s.current_speed = fs::Attribute(&sysfs_, dev.pci_dir + "/current_link_speed");
      s.current_speed.set_vanish_sentinel(true);
      s.current_width = fs::Attribute(&sysfs_, dev.pci_dir + "/current_link_width");
      functions_.push_back(std::move(s));
    }
  }

  void Collect(const Inventory&, NodeSnapshot& out, SourceStatus& status) override {
    std::string text;
    for (auto& f : functions_) {
      PcieSnapshot snap = f.fixed;
      Outcome o = reader_.Read(f.current_speed, f.pci_dir, text, status);
      if (o == Outcome::kGone) {
        reader_.Vanished(status);
        continue;
      }
      if (o == Outcome::kOk) {
        auto v = ParsePcieSpeed(text);
        if (v) snap.current_speed_transfers = *v;
        else reader_.ParseError(sysfs_.Abs(f.current_speed.rel()), v.error().message);
      }
      o = reader_.Read(f.current_width, f.pci_dir, text, status);
      if (o == Outcome::kGone) {
        reader_.Vanished(status);
        continue;
      }
      if (o == Outcome::kOk) {
        auto v = ParsePcieWidth(text);
        if (v) snap.current_width = *v;
        else reader_.ParseError(sysfs_.Abs(f.current_width.rel()), v.error().message);
      }
      out.pcie.push_back(std::move(snap));
    }
    reader_.Finish(status);
  }

 private:
  const fs::Tree& sysfs_;
  std::vector<PcieState> functions_;
  AttributeReader reader_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakePcieSource(const SourceEnv& env) {
  return std::unique_ptr<Source>(std::make_unique<PcieSource>(env));
}

}  // namespace rocewatch::collectors
