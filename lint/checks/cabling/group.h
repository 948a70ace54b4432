#pragma once

// Cabling (cabling.*): where each planned NIC's cable lands, from the LLDP neighbour its
// exporter serves, against the plan's switch_port and rail and across the cluster. One file per
// check; each is registered in lint/checks/specs.h. They run once every node is in, on the
// cluster's view built once from the CablingRecords (cluster.h) by the first that asks.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lint/checks/cabling/cluster.h"
#include "lint/checks/check.h"

namespace rocewatch::lint::checks::cabling {

void SwitchPort(const FleetContext& fleet, FindingSink& sink);
void RailSwitch(const FleetContext& fleet, FindingSink& sink);
void RailDuplicate(const FleetContext& fleet, FindingSink& sink);
void NoNeighbor(const FleetContext& fleet, FindingSink& sink);
void DuplicatePort(const FleetContext& fleet, FindingSink& sink);

// The observed NICs and the rails' switches: the ones the plan names in the switch_port of that
// rail's NICs; a switch the plan does not name belongs to the rail most of the NICs landing on
// it have (more than half), and to no rail without such a majority.
struct Cluster {
  const plan::Plan& plan;
  std::vector<CablingRecord> records;  // the NICs whose node ran the lldp collector
  std::map<std::int64_t, std::set<std::string>> planned_switches;  // rail -> switches
  std::map<std::string, std::int64_t> rail_of_switch;

  const plan::Node& Node(const CablingRecord& r) const { return plan.nodes[r.node]; }
  const plan::Nic& Nic(const CablingRecord& r) const { return plan.nodes[r.node].nics[r.nic]; }
  std::string Where(const CablingRecord& r) const { return Node(r).name + " " + Nic(r).netdev; }

  std::optional<std::int64_t> RailOf(const std::string& sw) const {
    auto it = rail_of_switch.find(sw);
    if (it == rail_of_switch.end()) return std::nullopt;
    return it->second;
  }
};

// The cluster of `fleet`'s records (those observed), built on the first call.
const Cluster& ClusterOf(const FleetContext& fleet);

// "rail 2".
std::string RailText(std::int64_t rail);
// "a, b, c".
std::string Join(const std::set<std::string>& items);
// The record planned at `seen`, if any.
const CablingRecord* PlannedAt(const Cluster& c, const SeenPort& seen);
// Whether one of the record's neighbours is its planned switch_port.
bool MatchesPlan(const Cluster& c, const CablingRecord& r);

}  // namespace rocewatch::lint::checks::cabling
