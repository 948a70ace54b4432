#pragma once

// Findings as text for a terminal or a CI log: one line per finding.

#include <ostream>
#include <string>
#include <vector>

#include "lint/core/finding.h"
#include "lint/i18n/language.h"

namespace rocewatch::lint::report {

// The finding's sentence in `lang` (English: `message`, as JSON and SARIF carry it).
std::string FindingMessage(const Finding& finding, i18n::Language lang);
// "critical", "error", … or 严重, 错误, …
std::string SeverityText(Severity severity, i18n::Language lang);

// "plan.json:12:5 /nodes/3/nics/0/roce_ip: error: <message> [plan.duplicate-roce-ip]".
// Without a location the line starts with node/device/netdev ("gpu-01 mlx5_0 ens1f0np0: …").
// Always one line: control characters of any field are escaped (rocewatch::escape::TerminalText).
std::string FormatFindingLine(const Finding& finding,
                              i18n::Language lang = i18n::Language::kEnglish);

// "2 errors, 1 warning" (counts by severity, most severe first); "no findings" for none. In the
// report's language (lint/i18n/).
std::string SeverityCounts(const std::vector<Finding>& findings,
                           i18n::Language lang = i18n::Language::kEnglish);

void WriteTextFindings(std::ostream& out, const std::vector<Finding>& findings,
                       i18n::Language lang = i18n::Language::kEnglish);

}  // namespace rocewatch::lint::report
