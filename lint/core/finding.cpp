#include "lint/core/finding.h"

#include <algorithm>
#include <cctype>

namespace rocewatch::lint {

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
    case Severity::kCritical:
      return "critical";
  }
  return "error";
}

std::optional<Severity> ParseSeverity(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kError, Severity::kCritical}) {
    if (lower == SeverityName(s)) return s;
  }
  return std::nullopt;
}

const std::vector<std::string>& SeverityNames() {
  static const std::vector<std::string> kNames = {"info", "warning", "error", "critical"};
  return kNames;
}

std::optional<Severity> MaxSeverity(const std::vector<Finding>& findings) {
  std::optional<Severity> max;
  for (const auto& f : findings) {
    if (!max || f.severity > *max) max = f.severity;
  }
  return max;
}

std::size_t CountAtOrAbove(const std::vector<Finding>& findings, Severity threshold) {
  return static_cast<std::size_t>(std::count_if(
      findings.begin(), findings.end(), [&](const Finding& f) { return f.severity >= threshold; }));
}

}  // namespace rocewatch::lint
