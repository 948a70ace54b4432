#pragma once

// Cabling: where each planned NIC's cable lands, from the LLDP neighbour its exporter serves
// (roce_lldp_neighbor_info), against the plan's switch_port and rail, and across the cluster
// (rails' switches, switch ports reported twice). Node by node, CheckRunner keeps one small
// CablingRecord per NIC; the cabling.* checks (group.h) compare them once every node is in.

#include <cstdint>
#include <string>
#include <vector>

#include "lint/core/finding_sink.h"
#include "lint/observe/node_view.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::checks {

// A neighbour as a NIC reports it.
struct SeenPort {
  std::string switch_name;  // the System Name, or the chassis ID when the switch sends none
  std::string chassis_id;
  std::string port_id;
  std::string port_description;
  std::string Text() const { return switch_name + ":" + port_id; }
};

struct CablingRecord {
  std::uint32_t node = 0, nic = 0;  // indices into the plan
  bool observed = false;            // the node answered and its exporter ran the lldp collector
  bool lldp_reachable = false;      // roce_lldp_daemon_reachable == 1
  bool link_up = false;             // roce_link_detected or roce_netdev_carrier == 1
  std::vector<SeenPort> neighbors;
};

// What one node's metrics say about one planned NIC's cable.
CablingRecord ObserveCabling(std::size_t node_index, std::size_t nic_index, const plan::Nic& nic,
                             const observe::NodeView& view);

// A plan switch_port "leaf-0:Ethernet8" as {switch, port} (split at the first ':'); the port
// is empty when there is no ':'.
struct PlannedPort {
  std::string switch_name, port;
};
PlannedPort ParsePlannedPort(const std::string& text);
// Whether `seen` is `planned`: the switch by System Name or chassis ID, the port by port ID or
// port description.
bool SamePort(const PlannedPort& planned, const SeenPort& seen);

}  // namespace rocewatch::lint::checks
