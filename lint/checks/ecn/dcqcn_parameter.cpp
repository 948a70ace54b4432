// ecn.dcqcn-parameter: a DCQCN parameter of the notification or reaction point differs from
// the profile's.

#include "lint/checks/ecn/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::ecn {

void Dcqcn(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !p->dcqcn) return;
  const std::string& nd = c.nic.netdev;
  for (auto [point, planned] : {std::pair{"np", &p->dcqcn->np}, std::pair{"rp", &p->dcqcn->rp}}) {
    auto observed = DcqcnParameters(c.view, nd, point);
    for (const auto& [name, want] : *planned) {
      const DcqcnParameter* it = FindParameter(observed, name);
      if (it == nullptr || it->value == static_cast<double>(want)) continue;
      sink.Nic(kDcqcnParameter, c, point + std::string(".") + name + " = " + std::to_string(want),
               point + std::string(".") + name + " = " + FormatNumber(it->value),
               i18n::Phrase::Of("check.ecn.dcqcn_parameter.message", {{"netdev", nd},
                                                                     {"point", point},
                                                                     {"name", std::string(name)},
                                                                     {"found", FormatNumber(it->value)},
                                                                     {"expected", std::to_string(want)}}),
               SettingChange{"dcqcn." + std::string(point) + "." + name, want},
               {"dcqcn." + std::string(point) + "." + name, want, it->value});
    }
  }
}

}  // namespace rocewatch::lint::checks::ecn
