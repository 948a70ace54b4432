// versions.driver: the device runs another driver than the profile's, as the kernel reports it
// (roce_device_info's driver, nic_driver.h). A software RDMA device (Soft-RoCE, siw: no PCI
// function) is named as such, never skipped, and given no bind command.

#include "lint/checks/specs.h"
#include "lint/checks/versions/group.h"
#include "lint/checks/versions/nic_driver.h"

namespace rocewatch::lint::checks::versions {

void Driver(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !p->driver) return;
  const NicDriver d = DriverOf(c.view, c.nic.ib_dev);
  if (!d.observed || d.name == *p->driver) return;
  const i18n::StoredArgs args = {{"device", c.nic.ib_dev},
                                 {"found", d.name},
                                 {"expected", *p->driver},
                                 {"pci", d.pci_address.empty() ? c.nic.ib_dev : d.pci_address}};
  if (d.software()) {
    sink.Nic(kDriver, c, *p->driver,
             d.name.empty() ? i18n::Phrase::Of("check.versions.driver.found_none", {}) : i18n::Phrase(d.name),
             i18n::Phrase::Of("check.versions.driver.message_none", args),
             i18n::Phrase::Of("check.versions.driver.fix_none", args));
    return;
  }
  sink.Nic(kDriver, c, *p->driver, d.name, i18n::Phrase::Of("check.versions.driver.message", args),
           i18n::Phrase::Of("check.versions.driver.fix", args));
}

}  // namespace rocewatch::lint::checks::versions
