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

void SetTexts(Finding& finding, i18n::Phrase expected, i18n::Phrase found, i18n::Phrase message) {
  finding.expected = std::move(expected.english);
  finding.found = std::move(found.english);
  finding.message = std::move(message.english);
  finding.expected_text = std::move(expected.message);
  finding.found_text = std::move(found.message);
  finding.message_text = std::move(message.message);
}

void SetTexts(Finding& finding, i18n::Phrase expected, i18n::Phrase found, i18n::Phrase message, i18n::Phrase fix) {
  SetTexts(finding, std::move(expected), std::move(found), std::move(message));
  finding.fix = std::move(fix.english);
  finding.fix_text = std::move(fix.message);
}

}  // namespace rocewatch::lint
