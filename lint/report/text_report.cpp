#include "lint/report/text_report.h"

#include "rocewatch/escape.h"

namespace rocewatch::lint::report {

std::string FormatFindingLine(const Finding& f) {
  std::string where = f.location;
  if (where.empty()) {
    for (const std::string* part : {&f.node, &f.device, &f.netdev}) {
      if (part->empty()) continue;
      if (!where.empty()) where += ' ';
      where += *part;
    }
  }
  std::string line;
  if (!where.empty()) line = where + ": ";
  line += std::string(SeverityName(f.severity)) + ": " + f.message + " [" + f.check + "]";
  // Names, messages and locations come from the plan and the nodes: one line, whatever they hold.
  return escape::TerminalText(line);
}

std::string SeverityCounts(const std::vector<Finding>& findings) {
  std::string out;
  for (Severity s : {Severity::kCritical, Severity::kError, Severity::kWarning, Severity::kInfo}) {
    std::size_t n = 0;
    for (const auto& f : findings) n += f.severity == s ? 1 : 0;
    if (n == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::to_string(n) + " " + std::string(SeverityName(s));
    if (n > 1 && (s == Severity::kError || s == Severity::kWarning)) out += "s";
  }
  return out.empty() ? "no findings" : out;
}

void WriteTextFindings(std::ostream& out, const std::vector<Finding>& findings) {
  for (const auto& f : findings) out << FormatFindingLine(f) << '\n';
}

}  // namespace rocewatch::lint::report
