// qos.cm-roce-mode: rdma_cm's default RoCE mode is not RoCE v2. An RDMA core setting
// (configfs), not DCB: it is checked whether or not the netdev has DCB.

#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::qos {

void CmRoceMode(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  if (p->roce_mode) {
    for (const auto& m : c.view.Select(metric::roce_cm_default_roce_mode_info, {{label::device, c.nic.ib_dev}, {label::port, c.port}})) {
      if (m.Label(label::mode) == "RoCE v2") continue;
      sink.Nic(kCmRoceMode, c, "RoCE v2", std::string(m.Label(label::mode)),
               i18n::Phrase::Of("check.qos.cm_roce_mode.message",
                                {{"device", c.nic.ib_dev}, {"port", c.port}, {"mode", std::string(m.Label(label::mode))}}),
               SettingChange{"cm.roce_mode", std::string("RoCE v2")});
    }
  }
}

}  // namespace rocewatch::lint::checks::qos
