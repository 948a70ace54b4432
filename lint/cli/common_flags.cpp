#include "lint/cli/common_flags.h"

#include "rocewatch/strings.h"

namespace rocewatch::lint::cli {

Result<OutputFormat> ParseFormat(const std::optional<std::string>& value) {
  if (!value || *value == "text") return OutputFormat::kText;
  if (*value == "json") return OutputFormat::kJson;
  return Error{"--format " + Quote(*value) + " is not one of: text, json"};
}

Result<i18n::Language> ParseLang(const std::optional<std::string>& value) {
  if (!value) return i18n::Language::kEnglish;
  if (auto lang = i18n::ParseLanguage(*value)) return *lang;
  return Error{"--lang " + Quote(*value) + " is not one of: " + std::string(i18n::LanguageCodes())};
}

Result<Severity> ParseFailOn(const std::optional<std::string>& value) {
  if (!value) return Severity::kWarning;
  if (auto s = ParseSeverity(*value)) return *s;
  std::string message =
      "--fail-on " + Quote(*value) + " is not one of: info, warning, error, critical";
  // A typo ("errr") or a shortening ("warn") of one of the names.
  std::optional<std::string> suggestion = DidYouMean(*value, SeverityNames());
  for (const auto& name : SeverityNames()) {
    if (!suggestion && !value->empty() && name.rfind(*value, 0) == 0) suggestion = name;
  }
  if (suggestion) message += "; did you mean " + *suggestion + "?";
  return Error{message};
}

}  // namespace rocewatch::lint::cli
