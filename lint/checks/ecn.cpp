// ECN/DCQCN: congestion notification on the planned priorities at both ends,
// with the planned DCQCN parameters.

#include <algorithm>

#include "lint/checks/check.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/fix/commands.h"

namespace rocewatch::lint::checks {

void CheckEcn(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  const std::string& nd = c.nic.netdev;
  for (auto [point, planned, spec] : {std::tuple{"np", &p->ecn.np_priorities, &kEcnNp},
                                      std::tuple{"rp", &p->ecn.rp_priorities, &kEcnRp}}) {
    if (!*planned) continue;
    auto on = EnabledPriorities(c.view, "roce_ecn_enabled", nd, point);
    if (!on || *on == **planned) continue;
    std::string fixes;
    for (int prio = 0; prio < 8; ++prio) {
      bool want = std::find((*planned)->begin(), (*planned)->end(), prio) != (*planned)->end();
      bool have = std::find(on->begin(), on->end(), prio) != on->end();
      if (want != have) fixes += (fixes.empty() ? "" : "; ") + fix::SetEcn(nd, point, prio, want);
    }
    sink.Nic(*spec, c, FormatPriorities(**planned), FormatPriorities(*on),
             nd + " has ECN (" + point + ") on " + FormatPriorities(*on) + ", the profile wants " +
                 FormatPriorities(**planned) + ".",
             fixes);
  }
  if (!p->dcqcn) return;
  for (auto [point, planned] : {std::pair{"np", &p->dcqcn->np}, std::pair{"rp", &p->dcqcn->rp}}) {
    auto observed = DcqcnParameters(c.view, nd, point);
    for (const auto& [name, want] : *planned) {
      const DcqcnParameter* it = FindParameter(observed, name);
      if (it == nullptr || it->value == static_cast<double>(want)) continue;
      sink.Nic(kDcqcnParameter, c, point + std::string(".") + name + " = " + std::to_string(want),
               point + std::string(".") + name + " = " + FormatNumber(it->value),
               nd + " DCQCN " + point + " parameter " + name + " is " + FormatNumber(it->value) +
                   ", the profile wants " + std::to_string(want) + ".",
               fix::SetDcqcnParameter(nd, point, name, want),
               {"dcqcn." + std::string(point) + "." + name, want, it->value});
    }
  }
}

}  // namespace rocewatch::lint::checks
