// What the cabling.* checks share (group.h, cluster.h): a NIC's CablingRecord, planned ports,
// and the cluster's view of rails and switches.

#include "lint/checks/cabling/cluster.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "lint/checks/cabling/group.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::cabling {

std::string RailText(std::int64_t rail) { return "rail " + std::to_string(rail); }

std::string Join(const std::set<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

namespace {

Cluster Build(const plan::Plan& plan, std::vector<CablingRecord> records) {
  Cluster c{plan, std::move(records), {}, {}};
  std::map<std::string, std::set<std::int64_t>> planned_rails;  // switch -> rails planned on it
  for (const auto& node : plan.nodes) {
    for (const auto& nic : node.nics) {
      if (!nic.rail || !nic.switch_port) continue;
      PlannedPort p = ParsePlannedPort(*nic.switch_port);
      if (p.switch_name.empty()) continue;
      c.planned_switches[*nic.rail].insert(p.switch_name);
      planned_rails[p.switch_name].insert(*nic.rail);
    }
  }
  for (const auto& [sw, rails] : planned_rails)
    if (rails.size() == 1) c.rail_of_switch[sw] = *rails.begin();
  // Switches the plan does not name: the majority rail of the NICs seen on them.
  std::map<std::string, std::map<std::int64_t, int>> votes;
  std::map<std::string, int> totals;
  for (const auto& r : c.records) {
    const plan::Nic& nic = c.Nic(r);
    if (!nic.rail || r.neighbors.empty()) continue;
    const std::string& sw = r.neighbors.front().switch_name;
    if (planned_rails.count(sw)) continue;
    votes[sw][*nic.rail] += 1;
    totals[sw] += 1;
  }
  for (const auto& [sw, by_rail] : votes) {
    for (const auto& [rail, n] : by_rail)
      if (2 * n > totals[sw]) c.rail_of_switch[sw] = rail;
  }
  return c;
}

}  // namespace

// The record planned at `seen`, if any.
const CablingRecord* PlannedAt(const Cluster& c, const SeenPort& seen) {
  for (const auto& r : c.records) {
    const plan::Nic& nic = c.Nic(r);
    if (nic.switch_port && SamePort(ParsePlannedPort(*nic.switch_port), seen)) return &r;
  }
  return nullptr;
}

bool MatchesPlan(const Cluster& c, const CablingRecord& r) {
  const plan::Nic& nic = c.Nic(r);
  if (!nic.switch_port) return false;
  const PlannedPort p = ParsePlannedPort(*nic.switch_port);
  return std::any_of(r.neighbors.begin(), r.neighbors.end(),
                     [&](const SeenPort& s) { return SamePort(p, s); });
}

}  // namespace rocewatch::lint::checks::cabling

namespace rocewatch::lint::checks {

PlannedPort ParsePlannedPort(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) return {text, ""};
  return {text.substr(0, colon), text.substr(colon + 1)};
}

bool SamePort(const PlannedPort& planned, const SeenPort& seen) {
  const bool same_switch =
      planned.switch_name == seen.switch_name || planned.switch_name == seen.chassis_id;
  const bool same_port = planned.port.empty() || planned.port == seen.port_id ||
                         (!seen.port_description.empty() && planned.port == seen.port_description);
  return same_switch && same_port;
}

CablingRecord ObserveCabling(std::size_t node_index, std::size_t nic_index, const plan::Nic& nic,
                             const observe::NodeView& view) {
  CablingRecord r;
  r.node = static_cast<std::uint32_t>(node_index);
  r.nic = static_cast<std::uint32_t>(nic_index);
  if (!view.reachable()) return r;
  auto reachable = view.Value(metric::roce_lldp_daemon_reachable);
  if (!reachable) return r;  // the lldp collector did not run there
  r.observed = true;
  r.lldp_reachable = *reachable == 1;
  auto detected = view.Value(metric::roce_link_detected, {{label::netdev, nic.netdev}});
  auto carrier = view.Value(metric::roce_netdev_carrier, {{label::netdev, nic.netdev}});
  r.link_up = (detected && *detected == 1) || (!detected && carrier && *carrier == 1);
  for (const auto& s : view.Select(metric::roce_lldp_neighbor_info, {{label::netdev, nic.netdev}})) {
    SeenPort p;
    p.chassis_id = std::string(s.Label(label::chassis_id));
    p.switch_name = std::string(s.Label(label::system_name));
    if (p.switch_name.empty()) p.switch_name = p.chassis_id;
    p.port_id = std::string(s.Label(label::port_id));
    p.port_description = std::string(s.Label(label::port_description));
    r.neighbors.push_back(std::move(p));
  }
  return r;
}

}  // namespace rocewatch::lint::checks

namespace rocewatch::lint::checks::cabling {

const Cluster& ClusterOf(const FleetContext& fleet) {
  if (!fleet.cabling_cluster) {
    std::vector<CablingRecord> observed;
    for (const auto& r : fleet.cabling)
      if (r.observed) observed.push_back(r);
    // Nodes arrive in the order their metrics do (parsed on every core): the plan's order makes
    // the texts that list NICs ("reported by 2 NICs (n6 …, n8 …)") the same on every run.
    std::sort(observed.begin(), observed.end(), [](const CablingRecord& a, const CablingRecord& b) {
      return std::tie(a.node, a.nic) < std::tie(b.node, b.nic);
    });
    fleet.cabling_cluster = std::make_shared<const Cluster>(Build(fleet.plan, std::move(observed)));
  }
  return *fleet.cabling_cluster;
}

}  // namespace rocewatch::lint::checks::cabling
