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
      i18n::StoredArgs args = {{"device", c.nic.ib_dev}, {"found", fw}, {"pci", pci.empty() ? c.nic.ib_dev : pci}};
      AddOneOfArg(args, p->firmware);
      sink.Nic(kFirmware, c, i18n::Phrase::Of("check.versions.accepted", args), fw,
               i18n::Phrase::Of("check.versions.firmware.message", args),
               i18n::Phrase::Of("check.versions.firmware.fix", args));
    }
  }
}

}  // namespace rocewatch::lint::checks::versions
