#pragma once

// Where a plan finding is: the plan's text positions behind a FindingSink
// (lint/core/finding_sink.h), so plan checks' findings carry "plan.json:12:5 /nodes/3/…" and
// come back in document order.

#include <string>
#include <string_view>

#include "lint/core/finding_sink.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::plan {

class PlanLocator final : public FindingLocator {
 public:
  // `source` outlives the locator.
  explicit PlanLocator(const PlanSource& source) : source_(source) {}
  DocumentPlace Locate(std::string_view pointer, bool at_key) const override;
  std::string Where(std::string_view pointer) const override;

 private:
  const PlanSource& source_;
};

}  // namespace rocewatch::lint::plan
