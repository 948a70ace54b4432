// The one registry of roce-lint's checks (lint/core/check_spec.h): node checks register in
// lint/checks/specs.h, plan checks in lint/plan/plan_checks.h. Both are included here so that
// whatever links the registry has every check in it.

#include <deque>

#include "lint/core/check_spec.h"

namespace rocewatch::lint {

namespace {

std::deque<CheckSpec>& Registry() {
  static std::deque<CheckSpec> specs;  // a deque: registered specs keep their address
  return specs;
}

std::vector<const CheckSpec*>& NodeList() {
  static std::vector<const CheckSpec*> list;
  return list;
}

std::vector<const CheckSpec*>& PlanList() {
  static std::vector<const CheckSpec*> list;
  return list;
}

const CheckSpec& Store(CheckSpec spec) {
  const CheckSpec& stored = Registry().emplace_back(spec);
  (stored.kind == CheckKind::kPlan ? PlanList() : NodeList()).push_back(&stored);
  return stored;
}

}  // namespace

const CheckSpec& RegisterCheck(NodeCheck run, CheckSpec spec) {
  spec.kind = CheckKind::kNode;
  spec.node = run;
  return Store(spec);
}

const CheckSpec& RegisterCheck(NicCheck run, CheckSpec spec) {
  spec.kind = CheckKind::kNic;
  spec.nic = run;
  return Store(spec);
}

const CheckSpec& RegisterCheck(FleetCheck run, CheckSpec spec) {
  spec.kind = CheckKind::kFleet;
  spec.fleet = run;
  return Store(spec);
}

const CheckSpec& RegisterPlanCheck(CheckSpec spec) {
  spec.kind = CheckKind::kPlan;
  return Store(spec);
}

const std::vector<const CheckSpec*>& AllCheckSpecs() { return NodeList(); }
const std::vector<const CheckSpec*>& PlanCheckSpecs() { return PlanList(); }

const CheckSpec* FindCheckSpec(std::string_view id) {
  for (const auto& s : Registry())
    if (s.id == id) return &s;
  return nullptr;
}

}  // namespace rocewatch::lint
