// link.roce-mtu: the port's active RoCE MTU differs from the profile's.

#include "lint/checks/link/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::link {

void RoceMtu(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  const std::string& dev = c.nic.ib_dev;
  if (p->roce_mtu) {
    auto active = c.view.Value(metric::roce_port_active_mtu_bytes, {{label::device, dev}, {label::port, c.port}});
    if (active && *active != static_cast<double>(*p->roce_mtu)) {
      sink.Nic(kRoceMtu, c, std::to_string(*p->roce_mtu), FormatNumber(*active),
               i18n::Phrase::Of("check.link.roce_mtu.message", {{"device", dev},
                                                              {"port", c.port},
                                                              {"found", FormatNumber(*active)},
                                                              {"expected", std::to_string(*p->roce_mtu)}}),
               SettingChange{"netdev_mtu", p->netdev_mtu ? *p->netdev_mtu : *p->roce_mtu + 96});
    }
  }
}

}  // namespace rocewatch::lint::checks::link
