#include "lint/cli/usable_plan.h"

#include <utility>
#include <vector>

#include "lint/plan/validate.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::cli {

std::optional<plan::LoadedPlan> LoadUsablePlan(std::string_view command, const std::string& path,
                                               std::ostream& err) {
  auto loaded = plan::LoadPlan(path);
  if (!loaded) {
    err << "roce-lint " << command << ": " << escape::TerminalText(loaded.error().message) << "\n";
    return std::nullopt;
  }
  std::vector<Finding> findings = loaded->findings;
  for (auto& f : plan::ValidatePlan(loaded->plan)) findings.push_back(std::move(f));
  if (CountAtOrAbove(findings, Severity::kError) == 0) return std::move(*loaded);
  err << "roce-lint " << command << ": the plan has errors; fix them first (roce-lint plan "
      << escape::TerminalText(path) << "):\n";
  for (const auto& f : findings)
    if (f.severity >= Severity::kError) err << "  " << escape::TerminalText(f.location + ": " + f.message) << "\n";
  return std::nullopt;
}

}  // namespace rocewatch::lint::cli
