#pragma once

// Loading a plan file: JSON syntax, then the shape (types, required and unknown keys), each
// problem of shape reported as a finding with its JSON pointer and line:column. The semantic
// checks (duplicates, ranges, contradictions) are in lint/plan/validate.h.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/finding.h"
#include "lint/plan/model.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::plan {

inline constexpr std::size_t kMaxPlanBytes = 64u << 20;

struct LoadedPlan {
  Plan plan;                      // everything that had the right shape
  std::vector<Finding> findings;  // "plan.schema.*" findings, in document order
};

// An Error (unusable input) for an unreadable file or text that is not JSON, with line:column.
Result<LoadedPlan> LoadPlan(const std::string& path);
Result<LoadedPlan> LoadPlanText(std::string_view text, std::string_view source_name);

// The objects of the format, for the schema consistency test and for docs.
enum class PlanObject { kPlan, kDefaults, kProfile, kEcn, kDcqcn, kPcie, kOptics, kFec, kNode, kNic };
const std::vector<std::string>& AllowedKeys(PlanObject object);
const std::vector<std::string>& RequiredKeys(PlanObject object);
// The mlx5 DCQCN parameter names accepted under dcqcn.np and dcqcn.rp.
const std::vector<std::string>& DcqcnNpParameters();
const std::vector<std::string>& DcqcnRpParameters();

}  // namespace rocewatch::lint::plan
