// cabling.switch-port: a NIC cabled to another switch port than its planned switch_port (and
// whether its cable is crossed with the NIC planned there).

#include <algorithm>

#include "lint/checks/cabling/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::cabling {
namespace {

void SwitchPortOf(const Cluster& c, const CablingRecord& r, FindingSink& sink) {
  const plan::Nic& nic = c.Nic(r);
  if (!nic.switch_port || r.neighbors.empty() || MatchesPlan(c, r)) return;
  const SeenPort& seen = r.neighbors.front();
  const std::string& planned = *nic.switch_port;
  i18n::StoredArgs args = {{"where", c.Where(r)}, {"seen", seen.Text()}, {"planned", planned}};
  auto seen_rail = c.RailOf(seen.switch_name);
  if (nic.rail && seen_rail && *seen_rail != *nic.rail)
    i18n::AddMessageArg(args, "rail_note", "check.cabling.switch_port.rail_note",
                        {{"seen_rail", RailText(*seen_rail)}, {"rail", RailText(*nic.rail)}});
  else
    args.emplace_back("rail_note", "");
  bool crossed = false;
  if (const CablingRecord* other = PlannedAt(c, seen); other != nullptr && other != &r) {
    const plan::Nic& onic = c.Nic(*other);
    crossed = !other->neighbors.empty() &&
              std::any_of(other->neighbors.begin(), other->neighbors.end(), [&](const SeenPort& s) {
                return SamePort(ParsePlannedPort(planned), s);
              });
    const i18n::StoredArgs also = {{"other", c.Where(*other)}, {"seen", seen.Text()}};
    if (crossed) {
      i18n::AddMessageArg(args, "also", "check.cabling.switch_port.crossed", also);
      args.emplace_back("other", c.Where(*other));
      args.emplace_back("other_planned", *onic.switch_port);
    } else {
      i18n::AddMessageArg(args, "also", "check.cabling.switch_port.planned_for", also);
    }
  } else {
    args.emplace_back("also", "");
  }
  sink.Nic(kCablingSwitchPort, Subject(c.Node(r), nic, ""), planned, seen.Text(),
           i18n::Phrase::Of("check.cabling.switch_port.message", args),
           crossed ? i18n::Phrase::Of("check.cabling.switch_port.fix_crossed", args)
                   : i18n::Phrase::Of("check.cabling.switch_port.fix", args));
}

}  // namespace

void SwitchPort(const FleetContext& fleet, FindingSink& sink) {
  const Cluster& c = ClusterOf(fleet);
  for (const auto& r : c.records) SwitchPortOf(c, r, sink);
}

}  // namespace rocewatch::lint::checks::cabling
