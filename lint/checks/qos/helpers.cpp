// What the qos.* checks share (group.h).

#include "lint/checks/qos/group.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::qos {

bool NoDcb(const NicContext& c) {
  auto supported = c.view.Value(metric::roce_dcb_supported, {{label::netdev, c.nic.netdev}});
  return supported && *supported == 0;
}

bool WantsPfc(const plan::Profile& p) { return p.pfc_priorities && !p.pfc_priorities->empty(); }

}  // namespace rocewatch::lint::checks::qos
