// qos.dscp-priority: the RoCE or CNP DSCP is mapped to another priority than planned (or its
// mapping is not exported).

#include <tuple>

#include "lint/checks/observed.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/core/setting_table.h"

namespace rocewatch::lint::checks::qos {

void DscpPriority(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || NoDcb(c)) return;
  const auto& v = c.view;
  const std::string& nd = c.nic.netdev;
  if (!p->trust || *p->trust == "dscp") {
    if (auto map = DscpPriorities(v, nd)) {
      for (auto [dscp, prio, what] :
           {std::tuple{p->roce_dscp, p->roce_priority, "RoCE"}, std::tuple{p->cnp_dscp, p->cnp_priority, "CNP"}}) {
        if (!dscp || !prio) continue;
        const int mapped = *dscp >= 0 && *dscp < 64 ? (*map)[static_cast<std::size_t>(*dscp)] : -1;
        const i18n::StoredArgs args = {{"netdev", nd},
                                       {"what", what},
                                       {"dscp", std::to_string(*dscp)},
                                       {"priority", std::to_string(*prio)},
                                       {"mapped", std::to_string(mapped)}};
        if (mapped < 0 && DscpMapPartial(v, nd)) {
          // The exporter serves only the DSCPs the node uses (and --collector.dcb.dscps): this
          // one may be mapped; say how to see it instead of calling it unmapped.
          sink.Nic(kDscpPriority, c, i18n::Phrase::Of("check.qos.dscp_priority.expected", args),
                   i18n::Phrase::Of("check.qos.dscp_priority.found_not_exported", args),
                   i18n::Phrase::Of("check.qos.dscp_priority.message_not_exported", args),
                   i18n::Phrase::Of("check.qos.dscp_priority.fix_not_exported", args));
          continue;
        }
        if (mapped != *prio) {
          sink.Nic(kDscpPriority, c, i18n::Phrase::Of("check.qos.dscp_priority.expected", args),
                   mapped < 0 ? i18n::Phrase::Of("check.qos.dscp_priority.found_unmapped", args)
                              : i18n::Phrase::Of("check.qos.dscp_priority.found", args),
                   mapped < 0 ? i18n::Phrase::Of("check.qos.dscp_priority.message_unmapped", args)
                              : i18n::Phrase::Of("check.qos.dscp_priority.message", args),
                   SettingChange{std::string(setting::kDscp.key) + std::to_string(*dscp), *prio},
                   {std::string(setting::kDscp.key) + std::to_string(*dscp), *prio,
                    mapped < 0 ? SettingValue{} : SettingValue{std::int64_t{mapped}}});
        }
      }
    }
  }
}

}  // namespace rocewatch::lint::checks::qos
