// versions.firmware: the device runs a firmware version the profile does not accept. A device
// that reports no firmware (Soft-RoCE and siw have an empty fw_ver) has none to compare: no
// finding (versions.driver names a software device where the profile plans a NIC's driver).
// The fix's tool follows the driver the kernel reports (nic_driver.h): mlxfwmanager on mlx5
// only, devlink's flash update on other PCI NICs.

#include "lint/checks/specs.h"
#include "lint/checks/versions/group.h"
#include "lint/checks/versions/nic_driver.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::versions {

void Firmware(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || p->firmware.empty()) return;
  const NicDriver d = DriverOf(c.view, c.nic.ib_dev);
  for (const auto& s : c.view.Select(metric::roce_device_info, {{label::device, c.nic.ib_dev}})) {
    std::string fw(s.Label(label::fw_version));
    if (fw.empty() || Accepts(p->firmware, fw)) continue;
    i18n::StoredArgs args = {{"device", c.nic.ib_dev},
                             {"found", fw},
                             {"pci", d.pci_address.empty() ? c.nic.ib_dev : d.pci_address},
                             {"driver", d.name}};
    AddOneOfArg(args, p->firmware);
    const i18n::MessageId fix = d.mlx5()                 ? i18n::MessageId("check.versions.firmware.fix")
                                : !d.pci_address.empty() ? i18n::MessageId("check.versions.firmware.fix_devlink")
                                                         : i18n::MessageId("check.versions.firmware.fix_vendor");
    sink.Nic(kFirmware, c, i18n::Phrase::Of("check.versions.accepted", args), fw,
             i18n::Phrase::Of("check.versions.firmware.message", args), i18n::Phrase::Of(fix, args));
  }
}

}  // namespace rocewatch::lint::checks::versions
