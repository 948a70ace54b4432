#pragma once

// Helpers shared by the plan tests.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "lint/core/finding.h"
#include "lint/plan/load.h"
#include "lint/plan/validate.h"

namespace rocewatch::lint::testing {

// `text` with the single occurrence of `from` replaced by `to` (fails the test when `from` does
// not occur exactly once, so a mutation never silently misses).
inline std::string ReplaceOnce(std::string text, std::string_view from, std::string_view to) {
  std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "not found: " << from;
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "found twice: " << from;
  text.replace(at, from.size(), to);
  return text;
}

// Schema findings of LoadPlanText followed by ValidatePlan's findings.
inline std::vector<Finding> AllFindings(std::string_view text,
                                        std::string_view name = "plan.json") {
  auto loaded = plan::LoadPlanText(text, name);
  EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
  if (!loaded.ok()) return {};
  std::vector<Finding> out = loaded->findings;
  for (auto& f : plan::ValidatePlan(loaded->plan)) out.push_back(f);
  return out;
}

inline std::vector<std::string> CheckIds(const std::vector<Finding>& findings) {
  std::vector<std::string> ids;
  for (const auto& f : findings) ids.push_back(f.check);
  return ids;
}

inline std::vector<Finding> WithCheck(const std::vector<Finding>& findings, std::string_view id) {
  std::vector<Finding> out;
  for (const auto& f : findings) {
    if (f.check == id) out.push_back(f);
  }
  return out;
}

}  // namespace rocewatch::lint::testing
