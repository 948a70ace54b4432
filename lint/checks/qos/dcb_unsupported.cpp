// qos.dcb-unsupported: the profile needs PFC and the netdev has no DCB support. The fix says
// why the NIC's driver, as the kernel reports it, serves no DCB: ice in Safe Mode, bnxt_en
// without a firmware agent, a software RDMA device; else a wrong netdev in the plan.

#include "lint/checks/observed.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/checks/versions/nic_driver.h"

namespace rocewatch::lint::checks::qos {

void DcbUnsupported(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !NoDcb(c) || !WantsPfc(*p)) return;
  const std::string& nd = c.nic.netdev;
  const NicDriver d = DriverOf(c.view, c.nic.ib_dev);
  const i18n::MessageId fix = d.software()          ? i18n::MessageId("check.qos.dcb_unsupported.fix_software")
                              : d.name == "ice"     ? i18n::MessageId("check.qos.dcb_unsupported.fix_ice")
                              : d.name == "bnxt_en" ? i18n::MessageId("check.qos.dcb_unsupported.fix_bnxt")
                                                    : i18n::MessageId("check.qos.dcb_unsupported.fix");
  sink.Nic(kDcbUnsupported, c,
           i18n::Phrase::Of("check.qos.dcb_unsupported.expected", {{"pfc", FormatPriorities(*p->pfc_priorities)}}),
           i18n::Phrase::Of("check.qos.dcb_unsupported.found", {}),
           i18n::Phrase::Of("check.qos.dcb_unsupported.message", {{"netdev", nd}}),
           i18n::Phrase::Of(fix, {{"netdev", nd}}));
}

}  // namespace rocewatch::lint::checks::qos
