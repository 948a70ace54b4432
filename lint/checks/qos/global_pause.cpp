// qos.global-pause: 802.3x global pause is on beside PFC.

#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"
#include "lint/core/setting_table.h"

namespace rocewatch::lint::checks::qos {

void GlobalPause(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || NoDcb(c) || !WantsPfc(*p)) return;
  const auto& v = c.view;
  const std::string& nd = c.nic.netdev;
  auto rx = v.Value(metric::roce_pause_rx_enabled, {{label::netdev, nd}});
  auto tx = v.Value(metric::roce_pause_tx_enabled, {{label::netdev, nd}});
  if ((rx && *rx == 1) || (tx && *tx == 1)) {
    i18n::StoredArgs states;
    for (auto [name, value] : {std::pair{"rx", rx}, std::pair{"tx", tx}}) {
      if (value && *value == 1)
        i18n::AddMessageArg(states, name, "check.qos.global_pause.on", {});
      else
        i18n::AddMessageArg(states, name, "check.qos.global_pause.off", {});
    }
    i18n::Phrase found = i18n::Phrase::Of("check.qos.global_pause.found", states);
    i18n::StoredArgs args = {{"netdev", nd}};
    i18n::AddPhraseArg(args, "found", found);
    sink.Nic(kGlobalPause, c, i18n::Phrase::Of("check.qos.global_pause.expected", {}), std::move(found),
             i18n::Phrase::Of("check.qos.global_pause.message", args),
             SettingChange{std::string(setting::kGlobalPause.key), std::int64_t{0}});
  }
}

}  // namespace rocewatch::lint::checks::qos
