#pragma once

// FindingSink: where every check of roce-lint puts its findings, the plan checks
// (lint/plan/*_checks.cpp, which locate each finding in the plan's text) and the node checks
// (lint/checks/*.cpp, which name a node's NIC). One collector for both: findings come back in
// the order they were added, or, for a sink made over a plan's source, in document order.

#include <string>
#include <string_view>
#include <vector>

#include "lint/finding.h"
#include "lint/plan/model.h"

namespace rocewatch::lint {

namespace checks {
struct CheckSpec;
struct NicContext;
}  // namespace checks

class FindingSink {
 public:
  FindingSink() = default;
  // Plan findings: located in `source`, returned by Finish() in document order.
  explicit FindingSink(const plan::PlanSource& source) : source_(&source) {}

  // A finding as it is; with a source, at the end of the document order.
  void Add(Finding finding);
  // A plan finding at `pointer` (at the member's key when `at_key`): sets its location.
  void Add(Finding finding, std::string_view pointer, bool at_key = false);
  // "plan.json:3:15" (or the pointer when the plan has no positions), for "also used at …".
  std::string Where(std::string_view pointer) const;

  // A node check's finding about one planned NIC (`port`: its RDMA port), or about a node
  // (`device`/`netdev` may be empty). `setting`: the typed values behind expected/found.
  void Nic(const checks::CheckSpec& spec, const checks::NicContext& nic, std::string expected,
           std::string found, std::string message, std::string fix, SettingDelta setting = {});
  void Nic(const checks::CheckSpec& spec, const plan::Node& node, const plan::Nic& nic,
           std::string port, std::string expected, std::string found, std::string message,
           std::string fix, SettingDelta setting = {});
  void Node(const checks::CheckSpec& spec, const plan::Node& node, std::string device,
            std::string netdev, std::string expected, std::string found, std::string message,
            std::string fix);

  // The findings so far, in the order added.
  std::vector<Finding>& findings() { return findings_; }
  // The findings, in document order when the sink has a source (stable: one position keeps the
  // order of Add); the sink is empty afterwards.
  std::vector<Finding> Finish();

 private:
  const plan::PlanSource* source_ = nullptr;
  std::vector<Finding> findings_;
  std::vector<plan::TextPosition> positions_;  // with a source: one per finding
};

}  // namespace rocewatch::lint
