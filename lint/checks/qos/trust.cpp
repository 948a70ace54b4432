// qos.trust: the trust mode (pcp or dscp) differs from the profile's.

#include <map>

#include "lint/checks/observed.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/core/setting_table.h"

namespace rocewatch::lint::checks::qos {

void Trust(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || NoDcb(c)) return;
  const std::string& nd = c.nic.netdev;
  if (p->trust) {
    auto trust = TrustMode(c.view, nd);
    if (trust && *trust != *p->trust) {
      std::map<std::int64_t, std::int64_t> entries;
      if (p->roce_dscp && p->roce_priority) entries[*p->roce_dscp] = *p->roce_priority;
      if (p->cnp_dscp && p->cnp_priority) entries[*p->cnp_dscp] = *p->cnp_priority;
      sink.Nic(kTrust, c, *p->trust, *trust,
               i18n::Phrase::Of("check.qos.trust.message", {{"netdev", nd}, {"found", *trust}, {"expected", *p->trust}}),
               *p->trust == "dscp" ? SettingChange{std::string(setting::kTrust.key), entries} : SettingChange{std::string(setting::kTrust.key), std::string("pcp")});
    }
  }
}

}  // namespace rocewatch::lint::checks::qos
