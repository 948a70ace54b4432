// CheckRunner: every registered node check, by kind (lint/core/check_spec.h), node by node, then
// the fleet checks once every node is in.

#include <algorithm>
#include <map>
#include <tuple>

#include "lint/checks/check.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks {

void CheckRunner::AddNode(std::size_t node_index, const observe::NodeView& view) {
  const plan::Node& node = plan_.nodes[node_index];
  const NodeContext at_node{plan_, node, view};
  for (const CheckSpec* spec : AllCheckSpecs())
    if (spec->node != nullptr) spec->node(at_node, sink_);
  if (!view.reachable()) return;
  for (std::size_t n = 0; n < node.nics.size(); ++n) {
    const plan::Nic& nic = node.nics[n];
    cabling_.push_back(ObserveCabling(node_index, n, nic, view));
    bool present = inventory::HasDevice(view, nic);
    if (!present) continue;  // inventory.device-missing says so; nothing else to compare
    std::string port = "1";
    auto ports = view.Select(metric::roce_port_info, {{label::device, nic.ib_dev}});
    if (!ports.empty()) port = std::string(ports.front().Label(label::port));
    NicContext c{plan_, node, nic, plan_.FindProfile(nic.profile), view, port, present, switches_};
    for (const CheckSpec* spec : AllCheckSpecs())
      if (spec->nic != nullptr) spec->nic(c, sink_);
    records_.push_back({static_cast<std::uint32_t>(node_index), static_cast<std::uint32_t>(n), pool_.Intern(port),
                        pool_.InternSet(ExtractSettings(view, nic.ib_dev, port, nic.netdev, pool_))});
  }
}

std::vector<Finding> CheckRunner::Finish() {
  const FleetContext fleet{plan_, records_, pool_, cabling_};
  for (const CheckSpec* spec : AllCheckSpecs())
    if (spec->fleet != nullptr) spec->fleet(fleet, sink_);
  std::vector<Finding> findings = std::move(sink_.findings());
  std::map<std::string, std::size_t> node_order;
  for (std::size_t i = 0; i < plan_.nodes.size(); ++i) node_order[plan_.nodes[i].name] = i;
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    return std::tie(node_order[a.node], a.device, a.check) < std::tie(node_order[b.node], b.device, b.check);
  });
  return findings;
}

std::vector<Finding> RunChecks(const plan::Plan& plan, const std::vector<observe::NodeView>& views,
                               const switch_config::SwitchConfigs* switches) {
  CheckRunner runner(plan, switches);
  for (std::size_t i = 0; i < plan.nodes.size() && i < views.size(); ++i) runner.AddNode(i, views[i]);
  return runner.Finish();
}

}  // namespace rocewatch::lint::checks
