// link.rate: an active port runs at another rate than the profile's link speed.

#include <cmath>

#include "lint/checks/link/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::link {

void Rate(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  const auto& v = c.view;
  const std::string& dev = c.nic.ib_dev;
  auto state = v.Value(metric::roce_port_state, {{label::device, dev}, {label::port, c.port}});
  if (p->link_speed_gbps && state && *state == 4) {
    auto rate = v.Value(metric::roce_port_rate_bytes_per_second, {{label::device, dev}, {label::port, c.port}});
    double want = static_cast<double>(*p->link_speed_gbps) * 1e9 / 8;
    if (rate && std::fabs(*rate - want) > 1) {
      const i18n::StoredArgs args = {{"device", dev},
                                     {"port", c.port},
                                     {"found", Gbps(*rate)},
                                     {"expected", Gbps(want)},
                                     {"netdev", c.nic.netdev},
                                     {"mbps", std::to_string(*p->link_speed_gbps * 1000)}};
      sink.Nic(kLinkRate, c, Gbps(want), Gbps(*rate), i18n::Phrase::Of("check.link.rate.message", args),
               i18n::Phrase::Of("check.link.rate.fix", args));
    }
  }
}

}  // namespace rocewatch::lint::checks::link
