#pragma once

// Findings as JSON for tools. The document carries a schema version; fields are always present
// (empty strings when not applicable) so consumers need no existence checks.
//
// {"schema_version": 1, "tool": "roce-lint", "version": "0.1.0", "command": "plan",
//  "input": "plan.json", "summary": {"total": 3, "critical": 0, "error": 2, "warning": 1,
//  "info": 0, "fail_on": "warning", "failed": true}, "findings": [{"check": …, "severity": …,
//  "node", "device", "port", "netdev", "expected", "found", "message", "fix", "location"}]}
//
// With --lang zh each finding also has "expected_zh", "found_zh", "message_zh" and "fix_zh": the
// same texts as the Chinese reports print them (the English keys stay what tools read).

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "lint/core/finding.h"
#include "lint/i18n/language.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::report {

inline constexpr int kJsonReportSchemaVersion = 1;

struct JsonReportContext {
  std::string command;  // "plan", "check", …
  std::string input;    // what was examined, e.g. the plan path
  Severity fail_on = Severity::kWarning;
  i18n::Language lang = i18n::Language::kEnglish;  // another: the *_<code> fields too
  // The run's once-only notes (check: the nodes the counter window missed, the NICs whose
  // switch side or switch counters were unknown), in English; empty for `plan`.
  std::vector<std::string> notes = {};
};

// A JSON document of any command (check's report, SARIF, plan's and verify's reports), indented by
// 2, each invisible control inside its strings written as \uXXXX (escape::JsonInert), and "\n".
template <class Json>
void WriteJsonDocument(std::ostream& out, const Json& doc) {
  out << escape::JsonInert(doc.dump(2)) << "\n";
}

nlohmann::ordered_json FindingToJson(const Finding& finding,
                                     i18n::Language lang = i18n::Language::kEnglish);
nlohmann::ordered_json JsonReport(const std::vector<Finding>& findings,
                                  const JsonReportContext& context);

}  // namespace rocewatch::lint::report
