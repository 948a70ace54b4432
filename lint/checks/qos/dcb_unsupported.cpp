// qos.dcb-unsupported: the profile needs PFC and the netdev has no DCB support.

#include "lint/checks/observed.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::qos {

void DcbUnsupported(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !NoDcb(c) || !WantsPfc(*p)) return;
  const std::string& nd = c.nic.netdev;
  sink.Nic(kDcbUnsupported, c, "DCB (PFC on " + FormatPriorities(*p->pfc_priorities) + ")",
           "no DCB support",
           nd + " answers dcbnl with EOPNOTSUPP: PFC cannot be enabled on it.",
           "use a RoCE-capable NIC and driver (mlx5_core) for " + nd + ", or fix the plan");
}

}  // namespace rocewatch::lint::checks::qos
