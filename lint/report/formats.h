#pragma once

// The report formats of `roce-lint check --format`, one row each: a new format is
// its writer (lint/report/<format>_report.cpp) and its row in formats.cpp; the
// flag's values, its refusal of others and the dispatch follow from the table.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/finding.h"
#include "lint/report/node_report.h"

namespace rocewatch::lint::report {

// What every writer may need; each reads the parts it uses.
struct ReportInput {
  const CheckRun& run;
  const std::string& plan_path;
  Language lang = Language::kEnglish;
  Severity fail_on = Severity::kWarning;
};

struct ReportFormat {
  std::string_view name;  // the --format value
  void (*write)(std::ostream& out, const ReportInput& input);
};

// In the order --help lists them; the first is the default.
const std::vector<ReportFormat>& CheckReportFormats();
// nullptr when no format has that name.
const ReportFormat* FindCheckReportFormat(std::string_view name);
// The names joined by `separator`: "text|json|junit|sarif|html".
std::string CheckReportFormatNames(std::string_view separator);

}  // namespace rocewatch::lint::report
