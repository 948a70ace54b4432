// versions.driver: the device is bound to another driver than the profile's.

#include "lint/checks/specs.h"
#include "lint/checks/versions/group.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::versions {

void Driver(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  for (const auto& d : c.view.Select(metric::roce_device_info, {{label::device, c.nic.ib_dev}})) {
    std::string pci(d.Label(label::pci_address));
    std::string driver(d.Label(label::driver));
    if (p->driver && !driver.empty() && driver != *p->driver) {
      const i18n::StoredArgs args = {
          {"device", c.nic.ib_dev}, {"found", driver}, {"expected", *p->driver}, {"pci", pci.empty() ? c.nic.ib_dev : pci}};
      sink.Nic(kDriver, c, *p->driver, driver, i18n::Phrase::Of("check.versions.driver.message", args),
               i18n::Phrase::Of("check.versions.driver.fix", args));
    }
  }
}

}  // namespace rocewatch::lint::checks::versions
