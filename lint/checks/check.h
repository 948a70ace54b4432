#pragma once

// The checks of the nodes against the plan and against each other. Each check
// has a stable ID documented in docs/checks.md (why it matters, how to fix it),
// a severity, and produces Findings that name node, device, port and netdev,
// expected and found, and the command that fixes it.

#include <string>
#include <string_view>
#include <vector>

#include "lint/checks/cabling.h"
#include "lint/checks/settings.h"
#include "lint/finding.h"
#include "lint/finding_sink.h"
#include "lint/observe/node_view.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::fix {
struct NicTarget;
}

namespace rocewatch::lint::checks {

// How `roce-lint fix --only-findings` repairs a finding: brings `out` to what `profile` (the
// NIC's full target, fix::TargetFromProfile) or the finding's typed setting wants; false when
// there is nothing to set. Repairs live in lint/fix/repairs.cpp.
using Repair = bool (*)(const Finding& finding, const fix::NicTarget& profile, fix::NicTarget& out);

// One node check, registered by one line in lint/checks/specs.h: everything about a check that
// is not its logic travels here as values (ID, severity, titles, fix), and reports, fixes,
// docs and the daemon read it from here instead of repeating the ID.
struct CheckSpec {
  std::string_view id;        // "qos.pfc-priorities"; the group is the part before the dot
  Severity severity;
  std::string_view title;     // "PFC enabled on other priorities than planned"
  std::string_view title_zh;  // the same in Chinese, for --lang zh
  // Why `roce-lint fix` leaves the finding to the operator ("a traffic symptom, not a setting").
  std::string_view unfixable = "no script step sets it";
  Repair repair = nullptr;  // nullptr: no script step repairs it
  // Why, when `repair` finds nothing to set (empty: `unfixable`).
  std::string_view not_repaired = {};

  std::string_view group() const { return id.substr(0, id.find('.')); }
  // Where docs/checks.md explains it (SARIF helpUri, Alertmanager runbook_url).
  std::string DocsUrl() const { return "docs/checks.md#" + std::string(id); }
};

// Adds `spec` to the registry and returns it, with a stable address; specs.h's one line per
// check. Registration order is the order of AllCheckSpecs() (docs, SARIF rules).
const CheckSpec& RegisterCheck(CheckSpec spec);

// Every node check, for docs and reports (plan checks are in lint/plan/validate.h).
const std::vector<const CheckSpec*>& AllCheckSpecs();
const CheckSpec* FindCheckSpec(std::string_view id);

// A planned NIC as observed on its node.
struct NicContext {
  const plan::Plan& plan;
  const plan::Node& node;
  const plan::Nic& nic;
  const plan::Profile* profile;  // nullptr when the plan names an unknown profile
  const observe::NodeView& view;
  std::string port;     // the device's port seen in roce_port_info ("1" when none)
  bool device_present;  // roce_device_info has the planned ib_dev
};

// The check groups; each reads one planned NIC (or node) and adds findings.
void CheckInventory(const plan::Plan& plan, const plan::Node& node, const observe::NodeView& view,
                    FindingSink& sink);
void CheckLink(const NicContext& nic, FindingSink& sink);
void CheckQos(const NicContext& nic, FindingSink& sink);
void CheckEcn(const NicContext& nic, FindingSink& sink);
void CheckVersions(const NicContext& nic, FindingSink& sink);
void CheckOptics(const NicContext& nic, FindingSink& sink);
void CheckCounters(const NicContext& nic, FindingSink& sink);
// What drift keeps of a checked NIC once its node's metrics are gone.
struct DriftRecord {
  std::uint32_t node = 0, nic = 0;  // indices into the plan
  std::string port;
  SettingIds settings;
};

// Drift compares every NIC's settings with the NICs of the same profile.
void CheckDrift(const plan::Plan& plan, const std::vector<DriftRecord>& records,
                const SettingsPool& pool, FindingSink& sink);

// Runs the checks node by node, so a caller can observe a node, check it and
// drop its metrics (a fleet of 10,000 nodes keeps only each NIC's settings for
// drift). Nodes may come in any order, each once.
class CheckRunner {
 public:
  explicit CheckRunner(const plan::Plan& plan) : plan_(plan) {}
  void AddNode(std::size_t node_index, const observe::NodeView& view);
  // Drift across everything added, then every finding sorted by node (plan
  // order), device, check.
  std::vector<Finding> Finish();

 private:
  const plan::Plan& plan_;
  FindingSink sink_;
  SettingsPool pool_;
  std::vector<DriftRecord> records_;
  std::vector<CablingRecord> cabling_;
};

// All checks on all nodes (a CheckRunner over `views`, one per plan node).
std::vector<Finding> RunChecks(const plan::Plan& plan, const std::vector<observe::NodeView>& views);

}  // namespace rocewatch::lint::checks
