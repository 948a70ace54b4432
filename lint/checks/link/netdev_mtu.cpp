// link.netdev-mtu: the netdev MTU differs from the profile's.

#include "lint/checks/link/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::link {

void NetdevMtu(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  if (p->netdev_mtu) {
    auto mtu = c.view.Value(metric::roce_netdev_mtu_bytes, {{label::netdev, c.nic.netdev}});
    if (mtu && *mtu != static_cast<double>(*p->netdev_mtu)) {
      sink.Nic(kNetdevMtu, c, std::to_string(*p->netdev_mtu), FormatNumber(*mtu),
               i18n::Phrase::Of("check.link.netdev_mtu.message",
                                {{"netdev", c.nic.netdev},
                                 {"found", FormatNumber(*mtu)},
                                 {"expected", std::to_string(*p->netdev_mtu)}}),
               SettingChange{"netdev_mtu", *p->netdev_mtu});
    }
  }
}

}  // namespace rocewatch::lint::checks::link
