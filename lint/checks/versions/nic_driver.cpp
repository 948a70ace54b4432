// The driver the kernel reports for a planned NIC (nic_driver.h).

#include "lint/checks/versions/nic_driver.h"

#include "lint/metric_contract.h"

namespace rocewatch::lint::checks {

NicDriver DriverOf(const observe::NodeView& view, std::string_view ib_dev) {
  NicDriver d;
  for (const auto& s : view.Select(metric::roce_device_info, {{label::device, ib_dev}})) {
    d.observed = true;
    d.name = std::string(s.Label(label::driver));
    d.pci_address = std::string(s.Label(label::pci_address));
    break;
  }
  return d;
}

}  // namespace rocewatch::lint::checks
