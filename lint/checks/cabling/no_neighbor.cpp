// cabling.no-neighbor: a NIC with link but no LLDP neighbour, so its cabling cannot be checked.

#include "lint/checks/cabling/group.h"
#include "lint/checks/specs.h"
namespace rocewatch::lint::checks::cabling {
namespace {

void NoNeighborOf(const Cluster& c, const CablingRecord& r, FindingSink& sink) {
  if (!r.lldp_reachable || !r.link_up || !r.neighbors.empty()) return;
  const plan::Nic& nic = c.Nic(r);
  const i18n::StoredArgs args = {{"where", c.Where(r)},
                                 {"netdev", nic.netdev},
                                 {"switch_port", nic.switch_port ? " " + *nic.switch_port : std::string()}};
  sink.Nic(kCablingNoNeighbor, Subject(c.Node(r), nic, ""),
           nic.switch_port ? i18n::Phrase(*nic.switch_port) : i18n::Phrase::Of("check.cabling.no_neighbor.expected", {}),
           i18n::Phrase::Of("check.cabling.no_neighbor.found", {}),
           i18n::Phrase::Of("check.cabling.no_neighbor.message", args),
           i18n::Phrase::Of("check.cabling.no_neighbor.fix", args));
}

}  // namespace

void NoNeighbor(const FleetContext& fleet, FindingSink& sink) {
  const Cluster& c = ClusterOf(fleet);
  for (const auto& r : c.records) NoNeighborOf(c, r, sink);
}

}  // namespace rocewatch::lint::checks::cabling
