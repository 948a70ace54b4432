#include "exporter/inventory/pci_function.h"

#include <cctype>

namespace rocewatch {

std::string_view PciFunctionKind(std::string_view address, bool is_vf) {
  if (address.empty()) return "none";
  return is_vf ? "vf" : "pf";
}

bool IsPciAddress(std::string_view name) {
  // pci_name(): "%04x:%02x:%02x.%d" (a domain can be wider than 4 digits on some hosts).
  const auto hex = [](std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
      if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
  };
  const auto colon1 = name.find(':');
  if (colon1 == std::string_view::npos) return false;
  const auto colon2 = name.find(':', colon1 + 1);
  const auto dot = name.find('.', colon1 + 1);
  if (colon2 == std::string_view::npos || dot == std::string_view::npos || dot < colon2) return false;
  const std::string_view domain = name.substr(0, colon1);
  const std::string_view bus = name.substr(colon1 + 1, colon2 - colon1 - 1);
  const std::string_view slot = name.substr(colon2 + 1, dot - colon2 - 1);
  const std::string_view function = name.substr(dot + 1);
  return domain.size() >= 4 && hex(domain) && bus.size() == 2 && hex(bus) && slot.size() == 2 &&
         hex(slot) && function.size() == 1 && function[0] >= '0' && function[0] <= '7';
}

PciFunction ReadPciFunction(const fs::Tree& sysfs, const std::string& parent_dir) {
  PciFunction f;
  if (parent_dir.empty() || !IsPciAddress(fs::BaseName(parent_dir))) return f;
  f.dir = parent_dir;
  f.address = std::string(fs::BaseName(parent_dir));
  f.pf_address = f.address;
  auto pf = sysfs.Resolve(fs::Join(parent_dir, "physfn"));
  if (pf && IsPciAddress(fs::BaseName(*pf))) {
    f.is_vf = true;
    f.pf_address = std::string(fs::BaseName(*pf));
  }
  return f;
}

}  // namespace rocewatch
