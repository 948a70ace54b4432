// versions.firmware: the device runs a firmware version the profile does not accept.

#include "lint/checks/specs.h"
#include "lint/checks/versions/group.h"

namespace rocewatch::lint::checks::versions {

void Firmware(const NicContext& c, FindingSink& sink) {
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
  }
}

}  // namespace rocewatch::lint::checks::versions
