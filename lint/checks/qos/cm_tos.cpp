// qos.cm-tos: rdma_cm's default ToS does not carry the profile's RoCE DSCP. rdma_cm's ToS is
// an RDMA core setting (configfs), not DCB: it is checked whether or not the netdev has DCB.

#include "lint/checks/observed.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/core/tos.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::qos {

void CmTos(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  if (p->roce_dscp) {
    auto tos = c.view.Value(metric::roce_cm_default_tos, {{label::device, c.nic.ib_dev}, {label::port, c.port}});
    if (tos && static_cast<std::int64_t>(*tos) >> 2 != *p->roce_dscp) {
      sink.Nic(kCmTos, c, "DSCP " + std::to_string(*p->roce_dscp) + " (ToS " + std::to_string(TosForDscp(*p->roce_dscp)) + ")",
               "ToS " + FormatNumber(*tos) + " (DSCP " + std::to_string(static_cast<std::int64_t>(*tos) >> 2) + ")",
               i18n::Phrase::Of("check.qos.cm_tos.message", {{"device", c.nic.ib_dev},
                                                            {"port", c.port},
                                                            {"tos", FormatNumber(*tos)},
                                                            {"dscp", std::to_string(*p->roce_dscp)}}),
               SettingChange{"cm.tos", TosForDscp(*p->roce_dscp)});
    }
  }
}

}  // namespace rocewatch::lint::checks::qos
