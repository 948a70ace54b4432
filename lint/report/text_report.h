#pragma once

// Findings as text for a terminal or a CI log: one line per finding.

#include <ostream>
#include <string>
#include <vector>

#include "lint/core/finding.h"

namespace rocewatch::lint::report {

// "plan.json:12:5 /nodes/3/nics/0/roce_ip: error: <message> [plan.duplicate-roce-ip]".
// Without a location the line starts with node/device/netdev ("gpu-01 mlx5_0 ens1f0np0: …").
// Always one line: control characters of any field are escaped (rocewatch::escape::TerminalText).
std::string FormatFindingLine(const Finding& finding);

// "2 errors, 1 warning" (counts by severity, most severe first); "no findings" for none.
std::string SeverityCounts(const std::vector<Finding>& findings);

void WriteTextFindings(std::ostream& out, const std::vector<Finding>& findings);

}  // namespace rocewatch::lint::report
