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
  std::string message = c.Where(r) + " is cabled to " + seen.Text() + ", planned " + planned;
  auto seen_rail = c.RailOf(seen.switch_name);
  if (nic.rail && seen_rail && *seen_rail != *nic.rail)
    message += ": a switch of " + RailText(*seen_rail) + ", not of " + RailText(*nic.rail);
  message += ".";
  std::string fix = "move the cable of " + c.Where(r) + " from " + seen.Text() + " to " + planned;
  if (const CablingRecord* other = PlannedAt(c, seen); other != nullptr && other != &r) {
    const plan::Nic& onic = c.Nic(*other);
    const bool crossed =
        !other->neighbors.empty() &&
        std::any_of(other->neighbors.begin(), other->neighbors.end(), [&](const SeenPort& s) {
          return SamePort(ParsePlannedPort(planned), s);
        });
    if (crossed) {
      message += " Its cable is crossed with " + c.Where(*other) + "'s.";
      fix = "swap the cables of " + c.Where(r) + " and " + c.Where(*other) + ": " +
            c.Where(r) + " into " + planned + ", " + c.Where(*other) + " into " + *onic.switch_port;
    } else {
      message += " " + seen.Text() + " is planned for " + c.Where(*other) + ".";
    }
  }
  sink.Nic(kCablingSwitchPort, Subject(c.Node(r), nic, ""), planned, seen.Text(), message, fix);
}

}  // namespace

void SwitchPort(const FleetContext& fleet, FindingSink& sink) {
  const Cluster& c = ClusterOf(fleet);
  for (const auto& r : c.records) SwitchPortOf(c, r, sink);
}

}  // namespace rocewatch::lint::checks::cabling
