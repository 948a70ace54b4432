#pragma once

// The checks of the nodes against the plan and against each other: what each kind of check
// (lint/core/check_spec.h) is given, and the runner. Each check is one file,
// lint/checks/<group>/<check>.cpp, and one registration line in lint/checks/specs.h; it has a
// stable ID documented in docs/checks.md and adds Findings that name node, device, port and
// netdev, expected and found, and the command that fixes it.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lint/checks/cabling/cluster.h"
#include "lint/checks/settings.h"
#include "lint/core/check_spec.h"
#include "lint/core/finding.h"
#include "lint/core/finding_sink.h"
#include "lint/observe/node_view.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::switch_config {
class SwitchConfigs;
}

namespace rocewatch::lint::checks {

namespace cabling {
struct Cluster;
}

// A planned NIC as observed on its node.
struct NicContext {
  const plan::Plan& plan;
  const plan::Node& node;
  const plan::Nic& nic;
  const plan::Profile* profile;  // nullptr when the plan names an unknown profile
  const observe::NodeView& view;
  std::string port;     // the device's port seen in roce_port_info ("1" when none)
  bool device_present;  // roce_device_info has the planned ib_dev
  // The --switch-config files (peer.*: the switch port's side); nullptr when none.
  const switch_config::SwitchConfigs* switches = nullptr;

  // What the NIC's findings are about (FindingSink::Nic).
  operator FindingSubject() const { return {node.name, nic.ib_dev, port, nic.netdev}; }
};

// What a finding about a planned NIC's `port` (empty: not one port) is about.
inline FindingSubject Subject(const plan::Node& node, const plan::Nic& nic, std::string_view port) {
  return {node.name, nic.ib_dev, port, nic.netdev};
}

// An observed node (kNode checks). Its exporter may not have answered (view.reachable()).
struct NodeContext {
  const plan::Plan& plan;
  const plan::Node& node;
  const observe::NodeView& view;
};

// What drift keeps of a checked NIC once its node's metrics are gone: ids into the plan and
// into the SettingsPool (the port's text, the NIC's interned set of settings).
struct DriftRecord {
  std::uint32_t node = 0, nic = 0;  // indices into the plan
  std::uint32_t port = 0;           // SettingsPool::Text
  std::uint32_t settings = 0;       // SettingsPool::Set
};

// Every checked NIC, once the last node is in (kFleet checks): what drift and cabling keep of
// each NIC, not its node's metrics.
struct FleetContext {
  const plan::Plan& plan;
  const std::vector<DriftRecord>& drift;
  const SettingsPool& pool;
  const std::vector<CablingRecord>& cabling;
  // The cabling checks' view of `cabling`, built by the first that asks (cabling::ClusterOf).
  mutable std::shared_ptr<const cabling::Cluster> cabling_cluster = {};
};

// Runs the checks node by node, so a caller can observe a node, check it and
// drop its metrics (a fleet of 10,000 nodes keeps only each NIC's settings for
// drift). Nodes may come in any order, each once.
class CheckRunner {
 public:
  explicit CheckRunner(const plan::Plan& plan, const switch_config::SwitchConfigs* switches = nullptr)
      : plan_(plan), switches_(switches) {}
  void AddNode(std::size_t node_index, const observe::NodeView& view);
  // Drift across everything added, then every finding sorted by node (plan
  // order), device, check.
  std::vector<Finding> Finish();

 private:
  const plan::Plan& plan_;
  const switch_config::SwitchConfigs* switches_;
  FindingSink sink_;
  SettingsPool pool_;
  std::vector<DriftRecord> records_;
  std::vector<CablingRecord> cabling_;
};

// All checks on all nodes (a CheckRunner over `views`, one per plan node).
std::vector<Finding> RunChecks(const plan::Plan& plan, const std::vector<observe::NodeView>& views,
                               const switch_config::SwitchConfigs* switches = nullptr);

}  // namespace rocewatch::lint::checks
