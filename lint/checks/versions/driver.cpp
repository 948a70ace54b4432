// versions.driver: the device is bound to another driver than the profile's.

#include "lint/checks/specs.h"
#include "lint/checks/versions/group.h"

namespace rocewatch::lint::checks::versions {

void Driver(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  for (const auto& d : c.view.Select("roce_device_info", {{"device", c.nic.ib_dev}})) {
    std::string pci(d.Label("pci_address"));
    std::string driver(d.Label("driver"));
    if (p->driver && !driver.empty() && driver != *p->driver) {
      sink.Nic(kDriver, c, *p->driver, driver,
               c.nic.ib_dev + " is bound to " + driver + ", the profile wants " + *p->driver + ".",
               "bind " + (pci.empty() ? c.nic.ib_dev : pci) + " to " + *p->driver);
    }
  }
}

}  // namespace rocewatch::lint::checks::versions
