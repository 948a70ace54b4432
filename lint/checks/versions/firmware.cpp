// versions.firmware: the device runs a firmware version the profile does not accept.

#include "lint/checks/specs.h"
#include "lint/checks/versions/group.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::versions {

void Firmware(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  for (const auto& d : c.view.Select(metric::roce_device_info, {{label::device, c.nic.ib_dev}})) {
    std::string fw(d.Label(label::fw_version));
    std::string pci(d.Label(label::pci_address));
    if (!p->firmware.empty() && !Accepts(p->firmware, fw)) {
      sink.Nic(kFirmware, c, OneOf(p->firmware), fw,
               c.nic.ib_dev + " runs firmware " + fw + ", the profile accepts " + OneOf(p->firmware) + ".",
               "mlxfwmanager -d " + (pci.empty() ? c.nic.ib_dev : pci) + " -u (with the planned image), then reset the NIC");
    }
  }
}

}  // namespace rocewatch::lint::checks::versions
