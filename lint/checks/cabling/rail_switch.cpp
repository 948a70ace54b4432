// cabling.rail-switch: a NIC without a planned switch_port whose cable lands on a switch of
// another rail.

#include <set>

#include "lint/checks/cabling/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::cabling {
namespace {

void RailSwitchOf(const Cluster& c, const CablingRecord& r, FindingSink& sink) {
  const plan::Nic& nic = c.Nic(r);
  if (nic.switch_port || !nic.rail || r.neighbors.empty()) return;  // switch-port says it
  const SeenPort& seen = r.neighbors.front();
  auto seen_rail = c.RailOf(seen.switch_name);
  if (!seen_rail || *seen_rail == *nic.rail) return;
  std::set<std::string> want;
  auto it = c.planned_switches.find(*nic.rail);
  if (it != c.planned_switches.end()) want = it->second;
  for (const auto& [sw, rail] : c.rail_of_switch)
    if (rail == *nic.rail) want.insert(sw);
  const i18n::Phrase target = want.empty()
                                  ? i18n::Phrase::Of("check.cabling.rail_switch.any_switch", {{"rail", RailText(*nic.rail)}})
                                  : i18n::Phrase(Join(want));
  i18n::StoredArgs args = {{"where", c.Where(r)},
                           {"rail", RailText(*nic.rail)},
                           {"seen", seen.Text()},
                           {"seen_rail", RailText(*seen_rail)}};
  i18n::AddPhraseArg(args, "target", target);
  sink.Nic(kCablingRailSwitch, Subject(c.Node(r), nic, ""), i18n::Phrase::Of("check.cabling.rail_switch.expected", args),
           seen.Text() + " (" + RailText(*seen_rail) + ")", i18n::Phrase::Of("check.cabling.rail_switch.message", args),
           i18n::Phrase::Of("check.cabling.rail_switch.fix", args));
}

}  // namespace

void RailSwitch(const FleetContext& fleet, FindingSink& sink) {
  const Cluster& c = ClusterOf(fleet);
  for (const auto& r : c.records) RailSwitchOf(c, r, sink);
}

}  // namespace rocewatch::lint::checks::cabling
