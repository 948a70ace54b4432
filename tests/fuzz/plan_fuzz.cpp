// The cluster plan (JSON, docs/plan.md): LoadPlanText (syntax, shape, positions) and then the
// semantic plan checks (ValidatePlan) on whatever loaded.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "lint/plan/load.h"
#include "lint/plan/validate.h"
#include "lint/report/json_report.h"
#include "lint/report/text_report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::lint;
  auto loaded = plan::LoadPlanText(rocewatch::fuzz::Text(data, size), "fuzz.json");
  if (!loaded.ok()) return 0;
  for (const Finding& f : loaded->findings) FUZZ_CHECK(!f.check.empty());
  const auto findings = plan::ValidatePlan(loaded->plan);
  for (const Finding& f : findings) FUZZ_CHECK(!f.check.empty());
  // What `roce-lint plan` prints: findings quote pieces of the plan, and nlohmann's dump()
  // throws on invalid UTF-8, so a finding must never cut a character in two.
  std::vector<Finding> all = loaded->findings;
  all.insert(all.end(), findings.begin(), findings.end());
  (void)report::JsonReport(all, {"plan", "fuzz.json", Severity::kWarning}).dump();
  // A finding line is one line whatever the plan holds (issue 13: forged report lines).
  for (const Finding& f : all) {
    for (unsigned char c : report::FormatFindingLine(f)) FUZZ_CHECK(c >= 0x20 && c != 0x7f);
  }
  // Every node's exporter address is set (given, or derived from the management IP).
  for (const auto& node : loaded->plan.nodes) {
    if (node.exporter_given) FUZZ_CHECK(!node.exporter.empty());
  }
  return 0;
}
