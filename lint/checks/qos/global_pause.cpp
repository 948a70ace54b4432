// qos.global-pause: 802.3x global pause is on beside PFC.

#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::qos {

void GlobalPause(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || NoDcb(c) || !WantsPfc(*p)) return;
  const auto& v = c.view;
  const std::string& nd = c.nic.netdev;
  auto rx = v.Value(metric::roce_pause_rx_enabled, {{label::netdev, nd}});
  auto tx = v.Value(metric::roce_pause_tx_enabled, {{label::netdev, nd}});
  if ((rx && *rx == 1) || (tx && *tx == 1)) {
    std::string found = std::string("rx ") + (rx && *rx == 1 ? "on" : "off") + ", tx " + (tx && *tx == 1 ? "on" : "off");
    sink.Nic(kGlobalPause, c, "rx off, tx off", found,
             nd + " has 802.3x global pause on (" + found + ") beside PFC: a pause stops every priority.",
             SettingChange{"global_pause", std::int64_t{0}});
  }
}

}  // namespace rocewatch::lint::checks::qos
