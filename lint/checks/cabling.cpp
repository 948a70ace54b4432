// Cabling checks (docs/checks.md, cabling.*). A rail's switches are the ones the plan names in
// the switch_port of that rail's NICs; a switch the plan does not name belongs to the rail most
// of the NICs landing on it have (more than half), and to no rail without such a majority.

#include "lint/checks/cabling.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "lint/checks/check.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks {
namespace {

std::string RailText(std::int64_t rail) { return "rail " + std::to_string(rail); }

std::string Join(const std::set<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

struct Cluster {
  const plan::Plan& plan;
  const std::vector<CablingRecord>& records;
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

Cluster Build(const plan::Plan& plan, const std::vector<CablingRecord>& records) {
  Cluster c{plan, records, {}, {}};
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
  for (const auto& r : records) {
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

void SwitchPort(const Cluster& c, const CablingRecord& r, FindingSink& sink) {
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
  sink.Nic(kCablingSwitchPort, c.Node(r), nic, "", planned, seen.Text(), message, fix);
}

void RailSwitch(const Cluster& c, const CablingRecord& r, FindingSink& sink) {
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
  const std::string target = want.empty() ? "a switch of " + RailText(*nic.rail) : Join(want);
  sink.Nic(kCablingRailSwitch, c.Node(r), nic, "", RailText(*nic.rail) + " (" + target + ")",
           seen.Text() + " (" + RailText(*seen_rail) + ")",
           c.Where(r) + " is on " + RailText(*nic.rail) + " but its cable lands on " +
               seen.Text() + ", a switch of " + RailText(*seen_rail) + ".",
           "move the cable of " + c.Where(r) + " from " + seen.Text() + " to a free port of " +
               target);
}

void NoNeighbor(const Cluster& c, const CablingRecord& r, FindingSink& sink) {
  if (!r.lldp_reachable || !r.link_up || !r.neighbors.empty()) return;
  const plan::Nic& nic = c.Nic(r);
  const std::string planned = nic.switch_port ? *nic.switch_port : std::string("a neighbour");
  sink.Nic(kCablingNoNeighbor, c.Node(r), nic, "", planned, "no LLDP neighbour",
           c.Where(r) + " has link but lldpd holds no LLDP neighbour for it, so its cabling "
                        "cannot be checked.",
           "enable LLDP on the switch port" + (nic.switch_port ? " " + *nic.switch_port : "") +
               "; check that the host sees LLDP frames (tcpdump -ni " + nic.netdev +
               " ether proto 0x88cc) and, if not, whether the NIC's firmware LLDP agent takes "
               "them (docs/operations.md, LLDP); then lldpcli show neighbors ports " +
               nic.netdev);
}

void RailDuplicate(const Cluster& c, FindingSink& sink) {
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
      sink.Node(kCablingRailDuplicate, c.plan.nodes[node], "", nics, "one NIC on " + RailText(rail),
                seen,
                c.plan.nodes[node].name + " has " + std::to_string(recs.size()) + " NICs on " +
                    RailText(rail) + " (" + seen + "): another rail has none of its NICs.",
                "move " + (move.empty() ? std::string("all but one of them") : move) +
                    " to the switch of its planned rail (see cabling.switch-port / "
                    "cabling.rail-switch for each)");
    }
  }
}

void DuplicatePort(const Cluster& c, FindingSink& sink) {
  std::map<std::pair<std::string, std::string>, std::vector<const CablingRecord*>> at;
  for (const auto& r : c.records)
    for (const auto& s : r.neighbors) at[{s.switch_name, s.port_id}].push_back(&r);
  for (const auto& [key, recs] : at) {
    if (recs.size() < 2) continue;
    const std::string port = key.first + ":" + key.second;
    std::string all;
    for (const auto* r : recs) all += (all.empty() ? "" : ", ") + c.Where(*r);
    for (const auto* r : recs) {
      if (MatchesPlan(c, *r)) continue;  // the one planned there is where it belongs
      const plan::Nic& nic = c.Nic(*r);
      sink.Nic(kCablingDuplicatePort, c.Node(*r), nic, "", "one NIC on " + port, all,
               port + " is reported by " + std::to_string(recs.size()) + " NICs (" + all +
                   "): a switch port has one cable.",
               "trace the cable of " + c.Where(*r) + (nic.switch_port ? " to " + *nic.switch_port
                                                                       : std::string()) +
                   "; lldpcli show neighbors ports " + nic.netdev +
                   " (an unmanaged switch or a breakout in between repeats the port)");
    }
  }
}

}  // namespace

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
  auto reachable = view.Value("roce_lldp_daemon_reachable");
  if (!reachable) return r;  // the lldp collector did not run there
  r.observed = true;
  r.lldp_reachable = *reachable == 1;
  auto detected = view.Value("roce_link_detected", {{"netdev", nic.netdev}});
  auto carrier = view.Value("roce_netdev_carrier", {{"netdev", nic.netdev}});
  r.link_up = (detected && *detected == 1) || (!detected && carrier && *carrier == 1);
  for (const auto& s : view.Select("roce_lldp_neighbor_info", {{"netdev", nic.netdev}})) {
    SeenPort p;
    p.chassis_id = std::string(s.Label("chassis_id"));
    p.switch_name = std::string(s.Label("system_name"));
    if (p.switch_name.empty()) p.switch_name = p.chassis_id;
    p.port_id = std::string(s.Label("port_id"));
    p.port_description = std::string(s.Label("port_description"));
    r.neighbors.push_back(std::move(p));
  }
  return r;
}

void CheckCabling(const plan::Plan& plan, const std::vector<CablingRecord>& records,
                  FindingSink& sink) {
  std::vector<CablingRecord> observed;
  for (const auto& r : records)
    if (r.observed) observed.push_back(r);
  const Cluster c = Build(plan, observed);
  for (const auto& r : c.records) {
    SwitchPort(c, r, sink);
    RailSwitch(c, r, sink);
    NoNeighbor(c, r, sink);
  }
  RailDuplicate(c, sink);
  DuplicatePort(c, sink);
}

}  // namespace rocewatch::lint::checks
