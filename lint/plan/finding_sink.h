#pragma once

// Collects plan findings with their source position, and hands them back in document order.

#include <string_view>
#include <utility>
#include <vector>

#include "lint/finding.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::plan {

class FindingSink {
 public:
  explicit FindingSink(const PlanSource& source) : source_(source) {}

  // Sets the finding's location from `pointer` (at the member's key when `at_key`).
  void Add(Finding finding, std::string_view pointer, bool at_key = false) {
    finding.location = at_key ? KeyLocationOf(source_, pointer) : LocationOf(source_, pointer);
    TextPosition at = at_key ? KeyPositionOf(source_, pointer) : PositionOf(source_, pointer);
    entries_.emplace_back(at, std::move(finding));
  }

  // "plan.json:3:15" (or the pointer when the plan has no positions), for "also used at …".
  std::string Where(std::string_view pointer) const {
    TextPosition at = PositionOf(source_, pointer);
    if (at.line == 0) return std::string(pointer);
    return (source_.name.empty() ? std::string("plan") : source_.name) + ":" +
           std::to_string(at.line) + ":" + std::to_string(at.column);
  }

  // The findings sorted by position (stable: same position keeps the order of Add).
  std::vector<Finding> Finish();

 private:
  const PlanSource& source_;
  std::vector<std::pair<TextPosition, Finding>> entries_;
};

}  // namespace rocewatch::lint::plan
