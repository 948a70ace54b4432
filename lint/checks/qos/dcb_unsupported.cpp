// qos.dcb-unsupported: the profile needs PFC and the netdev has no DCB support.

#include "lint/checks/observed.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::qos {

void DcbUnsupported(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !NoDcb(c) || !WantsPfc(*p)) return;
  const std::string& nd = c.nic.netdev;
  sink.Nic(kDcbUnsupported, c,
           i18n::Phrase::Of("check.qos.dcb_unsupported.expected", {{"pfc", FormatPriorities(*p->pfc_priorities)}}),
           i18n::Phrase::Of("check.qos.dcb_unsupported.found", {}),
           i18n::Phrase::Of("check.qos.dcb_unsupported.message", {{"netdev", nd}}),
           i18n::Phrase::Of("check.qos.dcb_unsupported.fix", {{"netdev", nd}}));
}

}  // namespace rocewatch::lint::checks::qos
