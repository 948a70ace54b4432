// versions.driver-version: the netdev's driver version is not one the profile accepts. The fix
// names MLNX_OFED / DOCA-OFED only where the kernel reports mlx5 (nic_driver.h).

#include "lint/checks/specs.h"
#include "lint/checks/versions/group.h"
#include "lint/checks/versions/nic_driver.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::versions {

void DriverVersion(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  if (!p->driver_version.empty()) {
    const bool mlx5 = DriverOf(c.view, c.nic.ib_dev).mlx5();
    for (const auto& d : c.view.Select(metric::roce_ethtool_driver_info, {{label::netdev, c.nic.netdev}})) {
      std::string version(d.Label(label::version));
      if (Accepts(p->driver_version, version)) continue;
      i18n::StoredArgs args = {{"netdev", c.nic.netdev}, {"found", version}, {"driver", std::string(d.Label(label::driver))}};
      AddOneOfArg(args, p->driver_version);
      sink.Nic(kDriverVersion, c, i18n::Phrase::Of("check.versions.accepted", args), version,
               i18n::Phrase::Of("check.versions.driver_version.message", args),
               i18n::Phrase::Of(mlx5 ? i18n::MessageId("check.versions.driver_version.fix")
                                     : i18n::MessageId("check.versions.driver_version.fix_other"),
                                args));
    }
  }
}

}  // namespace rocewatch::lint::checks::versions
