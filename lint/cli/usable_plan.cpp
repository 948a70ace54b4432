#include "lint/cli/usable_plan.h"

#include <utility>
#include <vector>

#include "lint/i18n/catalogue.h"
#include "lint/plan/validate.h"
#include "lint/report/text_report.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::cli {

std::optional<plan::LoadedPlan> LoadUsablePlan(std::string_view command, const std::string& path,
                                               std::ostream& err, i18n::Language lang) {
  auto loaded = plan::LoadPlan(path);
  if (!loaded) {
    err << "roce-lint " << command << ": " << escape::TerminalText(loaded.error().message) << "\n";
    return std::nullopt;
  }
  std::vector<Finding> findings = loaded->findings;
  for (auto& f : plan::ValidatePlan(loaded->plan)) findings.push_back(std::move(f));
  if (CountAtOrAbove(findings, Severity::kError) == 0) return std::move(*loaded);
  err << "roce-lint " << command << ": "
      << escape::TerminalText(i18n::Render(lang, "cli.plan_has_errors", {{"path", path}})) << "\n";
  for (const auto& f : findings)
    if (f.severity >= Severity::kError)
      err << "  " << escape::TerminalText(f.location + ": " + report::FindingMessage(f, lang)) << "\n";
  return std::nullopt;
}

}  // namespace rocewatch::lint::cli
