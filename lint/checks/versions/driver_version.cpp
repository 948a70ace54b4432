// versions.driver-version: the netdev's driver version is not one the profile accepts.

#include "lint/checks/specs.h"
#include "lint/checks/versions/group.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::versions {

void DriverVersion(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  if (!p->driver_version.empty()) {
    for (const auto& d : c.view.Select(metric::roce_ethtool_driver_info, {{label::netdev, c.nic.netdev}})) {
      std::string version(d.Label(label::version));
      if (Accepts(p->driver_version, version)) continue;
      sink.Nic(kDriverVersion, c, OneOf(p->driver_version), version,
               c.nic.netdev + " runs driver version " + version + ", the profile accepts " +
                   OneOf(p->driver_version) + ".",
               "install the planned driver (MLNX_OFED / DOCA-OFED or kernel) and reload it");
    }
  }
}

}  // namespace rocewatch::lint::checks::versions
