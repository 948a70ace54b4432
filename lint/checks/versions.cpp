// Versions: firmware and driver as the profile accepts.

#include <algorithm>

#include "lint/checks/check.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks {
namespace {

std::string OneOf(const std::vector<std::string>& accepted) {
  std::string out;
  for (const auto& a : accepted) out += (out.empty() ? "" : " or ") + a;
  return out;
}

bool Accepts(const std::vector<std::string>& accepted, const std::string& found) {
  return std::find(accepted.begin(), accepted.end(), found) != accepted.end();
}

}  // namespace

void CheckVersions(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  for (const auto& d : c.view.Select("roce_device_info", {{"device", c.nic.ib_dev}})) {
    std::string fw(d.Label("fw_version"));
    std::string pci(d.Label("pci_address"));
    if (!p->firmware.empty() && !Accepts(p->firmware, fw)) {
      sink.Nic(kFirmware, c, OneOf(p->firmware), fw,
               c.nic.ib_dev + " runs firmware " + fw + ", the profile accepts " + OneOf(p->firmware) + ".",
               "mlxfwmanager -d " + (pci.empty() ? c.nic.ib_dev : pci) + " -u (with the planned image), then reset the NIC");
    }
    std::string driver(d.Label("driver"));
    if (p->driver && !driver.empty() && driver != *p->driver) {
      sink.Nic(kDriver, c, *p->driver, driver,
               c.nic.ib_dev + " is bound to " + driver + ", the profile wants " + *p->driver + ".",
               "bind " + (pci.empty() ? c.nic.ib_dev : pci) + " to " + *p->driver);
    }
  }
  if (!p->driver_version.empty()) {
    for (const auto& d : c.view.Select("roce_ethtool_driver_info", {{"netdev", c.nic.netdev}})) {
      std::string version(d.Label("version"));
      if (Accepts(p->driver_version, version)) continue;
      sink.Nic(kDriverVersion, c, OneOf(p->driver_version), version,
               c.nic.netdev + " runs driver version " + version + ", the profile accepts " +
                   OneOf(p->driver_version) + ".",
               "install the planned driver (MLNX_OFED / DOCA-OFED or kernel) and reload it");
    }
  }
}

}  // namespace rocewatch::lint::checks
