// cabling.rail-duplicate: two NICs of one node land on switches of the same rail.

#include <map>
#include <vector>

#include "lint/checks/cabling/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::cabling {
namespace {

void RailDuplicateOf(const Cluster& c, FindingSink& sink) {
  // node -> rail of the switch seen -> the NICs landing there
  std::map<std::uint32_t, std::map<std::int64_t, std::vector<const CablingRecord*>>> by_node;
  for (const auto& r : c.records) {
    if (r.neighbors.empty()) continue;
    auto rail = c.RailOf(r.neighbors.front().switch_name);
    if (rail) by_node[r.node][*rail].push_back(&r);
  }
  for (const auto& [node, rails] : by_node) {
    for (const auto& [rail, recs] : rails) {
      if (recs.size() < 2) continue;
      std::string nics, seen;
      for (const auto* r : recs) {
        nics += (nics.empty() ? "" : ", ") + c.Nic(*r).netdev;
        seen += (seen.empty() ? "" : ", ") + c.Nic(*r).netdev + " " + r->neighbors.front().Text();
      }
      // The NICs that are not planned on this rail are the ones to move.
      std::string move;
      for (const auto* r : recs)
        if (!c.Nic(*r).rail || *c.Nic(*r).rail != rail)
          move += (move.empty() ? "" : ", ") + c.Nic(*r).netdev;
      sink.Node(kCablingRailDuplicate, c.plan.nodes[node].name, "", nics, "one NIC on " + RailText(rail),
                seen,
                c.plan.nodes[node].name + " has " + std::to_string(recs.size()) + " NICs on " +
                    RailText(rail) + " (" + seen + "): another rail has none of its NICs.",
                "move " + (move.empty() ? std::string("all but one of them") : move) +
                    " to the switch of its planned rail (see cabling.switch-port / "
                    "cabling.rail-switch for each)");
    }
  }
}

}  // namespace

void RailDuplicate(const FleetContext& fleet, FindingSink& sink) {
  RailDuplicateOf(ClusterOf(fleet), sink);
}

}  // namespace rocewatch::lint::checks::cabling
