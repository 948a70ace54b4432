// cabling.no-neighbor: a NIC with link but no LLDP neighbour, so its cabling cannot be checked.

#include "lint/checks/cabling/group.h"
#include "lint/checks/specs.h"
namespace rocewatch::lint::checks::cabling {
namespace {

void NoNeighborOf(const Cluster& c, const CablingRecord& r, FindingSink& sink) {
  if (!r.lldp_reachable || !r.link_up || !r.neighbors.empty()) return;
  const plan::Nic& nic = c.Nic(r);
  const std::string planned = nic.switch_port ? *nic.switch_port : std::string("a neighbour");
  sink.Nic(kCablingNoNeighbor, Subject(c.Node(r), nic, ""), planned, "no LLDP neighbour",
           c.Where(r) + " has link but lldpd holds no LLDP neighbour for it, so its cabling "
                        "cannot be checked.",
           "enable LLDP on the switch port" + (nic.switch_port ? " " + *nic.switch_port : "") +
               "; check that the host sees LLDP frames (tcpdump -ni " + nic.netdev +
               " ether proto 0x88cc) and, if not, whether the NIC's firmware LLDP agent takes "
               "them (docs/operations.md, LLDP); then lldpcli show neighbors ports " +
               nic.netdev);
}

}  // namespace

void NoNeighbor(const FleetContext& fleet, FindingSink& sink) {
  const Cluster& c = ClusterOf(fleet);
  for (const auto& r : c.records) NoNeighborOf(c, r, sink);
}

}  // namespace rocewatch::lint::checks::cabling
