#pragma once

// One check of roce-lint as values: its ID, kind, severity, titles, docs anchor, why `roce-lint
// fix` leaves it to the operator, and the function that runs it. Every check, plan checks
// included, is one CheckSpec in one registry (lint/core/check_registry.cpp): node checks are
// registered in lint/checks/specs.h, plan checks in lint/plan/plan_checks.h, one line each.
// Reports, fixes, the daemon and Alertmanager read a check from here, never its ID's text.
// Part of lint's core: it declares the checks' contexts only, so lint/plan registers its checks
// and lint/fix, lint/report read them without including lint/checks.

#include <string>
#include <string_view>
#include <vector>

#include "lint/core/finding.h"

namespace rocewatch::lint::checks {
struct NodeContext;
struct NicContext;
struct FleetContext;
}  // namespace rocewatch::lint

namespace rocewatch::lint {

class FindingSink;

// What a check looks at, which is when it runs:
//   kPlan   the plan alone (lint/plan/*_checks.cpp, run by plan::ValidatePlan);
//   kNode   one observed node (inventory.*), whether or not its exporter answered;
//   kNic    one planned NIC whose device the node has (link.*, qos.*, ecn.*, versions.*,
//           optics.*, counters.*);
//   kFleet  every checked NIC at once, after the last node (drift.*, cabling.*).
enum class CheckKind { kPlan, kNode, kNic, kFleet };

using NodeCheck = void (*)(const checks::NodeContext& node, FindingSink& sink);
using NicCheck = void (*)(const checks::NicContext& nic, FindingSink& sink);
using FleetCheck = void (*)(const checks::FleetContext& fleet, FindingSink& sink);

// Why `roce-lint fix` leaves a finding to the operator when its check says nothing else.
inline constexpr std::string_view kWhyNoStep = "no script step sets it";
// CheckSpec::setting of a check whose findings each name their setting (drift.setting).
inline constexpr std::string_view kSettingOfFinding = "*";

// The page that documents the node checks, one section per check with an explicit anchor
// `<a id="<id>">` (tests/lint/check_docs_test.cpp).
inline constexpr std::string_view kChecksDoc = "docs/checks.md";

struct CheckSpec {
  std::string_view id;        // "qos.pfc-priorities"; the group is the part before the dot
  Severity severity;
  std::string_view title;     // "PFC enabled on other priorities than planned"
  std::string_view title_zh = {};  // the same in Chinese, for --lang zh (empty: plan checks)
  // Why `roce-lint fix` leaves the finding to the operator ("a traffic symptom, not a setting").
  std::string_view unfixable = kWhyNoStep;
  // The setting the check compares, which `roce-lint fix --only-findings` repairs through
  // lint/fix/repairs.h ("pfc", "trust", "dscp", "netdev_mtu", …; kSettingOfFinding: each
  // finding's own SettingDelta::key); empty: no script step repairs it.
  std::string_view setting = {};
  // Where the check is documented: the page and the anchor on it (empty anchor: the ID).
  std::string_view docs_page = kChecksDoc;
  std::string_view docs_anchor = {};

  // Set by RegisterCheck from the function it is given.
  CheckKind kind = CheckKind::kPlan;
  NodeCheck node = nullptr;
  NicCheck nic = nullptr;
  FleetCheck fleet = nullptr;

  std::string_view group() const { return id.substr(0, id.find('.')); }
  std::string_view anchor() const { return docs_anchor.empty() ? id : docs_anchor; }
  // "docs/checks.md#qos.pfc-priorities": SARIF helpUri, Alertmanager runbook_url.
  std::string DocsUrl() const { return std::string(docs_page) + "#" + std::string(anchor()); }
};

// Adds a check to the registry and returns it, with a stable address: specs.h's and
// plan_checks.h's one line per check. The function given says the check's kind and runs it;
// a plan check has none (the plan checks run together, lint/plan/validate.cpp).
const CheckSpec& RegisterCheck(NodeCheck run, CheckSpec spec);
const CheckSpec& RegisterCheck(NicCheck run, CheckSpec spec);
const CheckSpec& RegisterCheck(FleetCheck run, CheckSpec spec);
const CheckSpec& RegisterPlanCheck(CheckSpec spec);

// The checks of the nodes (kinds node, NIC and fleet), in registration order: the order of
// docs/checks.md, of the SARIF rules and in which they run.
const std::vector<const CheckSpec*>& AllCheckSpecs();
// The plan checks, in the order of docs/plan.md.
const std::vector<const CheckSpec*>& PlanCheckSpecs();
// Any registered check, plan checks included; nullptr for an unknown ID.
const CheckSpec* FindCheckSpec(std::string_view id);

}  // namespace rocewatch::lint
