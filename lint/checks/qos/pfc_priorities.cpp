// qos.pfc-priorities: PFC is enabled on other priorities than the profile's.

#include "lint/checks/observed.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"
#include "lint/core/setting_table.h"

namespace rocewatch::lint::checks::qos {

void PfcPriorities(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || NoDcb(c)) return;
  const std::string& nd = c.nic.netdev;
  if (p->pfc_priorities) {
    auto pfc = EnabledPriorities(c.view, metric::roce_pfc_enabled, nd);
    if (pfc && *pfc != *p->pfc_priorities) {
      sink.Nic(kPfcPriorities, c, FormatPriorities(*p->pfc_priorities), FormatPriorities(*pfc),
               i18n::Phrase::Of("check.qos.pfc_priorities.message",
                                {{"netdev", nd},
                                 {"found", FormatPriorities(*pfc)},
                                 {"expected", FormatPriorities(*p->pfc_priorities)}}),
               SettingChange{std::string(setting::kPfc.key), *p->pfc_priorities});
    }
  }
}

}  // namespace rocewatch::lint::checks::qos
