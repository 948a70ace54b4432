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
      const i18n::StoredArgs args = {{"node", c.plan.nodes[node].name},
                                     {"count", std::to_string(recs.size())},
                                     {"rail", RailText(rail)},
                                     {"seen", seen},
                                     {"move", move}};
      sink.Node(kCablingRailDuplicate, c.plan.nodes[node].name, "", nics,
                i18n::Phrase::Of("check.cabling.rail_duplicate.expected", args), seen,
                i18n::Phrase::Of("check.cabling.rail_duplicate.message", args),
                move.empty() ? i18n::Phrase::Of("check.cabling.rail_duplicate.fix_all", args)
                             : i18n::Phrase::Of("check.cabling.rail_duplicate.fix", args));
    }
  }
}

}  // namespace

void RailDuplicate(const FleetContext& fleet, FindingSink& sink) {
  RailDuplicateOf(ClusterOf(fleet), sink);
}

}  // namespace rocewatch::lint::checks::cabling
