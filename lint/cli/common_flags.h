#pragma once

// Flags shared by the subcommands: --format, --fail-on, --lang and --help.

#include <optional>
#include <string>
#include <vector>

#include "lint/cli/args.h"
#include "lint/core/finding.h"
#include "lint/i18n/language.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::cli {

enum class OutputFormat { kText, kJson };

inline const FlagSpec kFormatFlag{"--format", "", true,
                                  "one line per finding (default), or a JSON report", "text|json"};
inline const FlagSpec kFailOnFlag{"--fail-on", "", true,
                                  "info, warning (default), error or critical: exit 1 when a\n"
                                  "finding is at least this severe",
                                  "SEVERITY"};
// `what`: what the language applies to, for --help ("the text report").
inline FlagSpec LangFlag(const char* what) {
  return {"--lang", "", true, std::string("language of ") + what + " (default en)", "en|zh"};
}
inline const FlagSpec kHelpFlag{"--help", "-h", false, "show this help and exit"};

// "text" (default) or "json".
Result<OutputFormat> ParseFormat(const std::optional<std::string>& value);
// "en" (default) or "zh" (lint/i18n/).
Result<i18n::Language> ParseLang(const std::optional<std::string>& value);
// info, warning (default), error or critical.
Result<Severity> ParseFailOn(const std::optional<std::string>& value);

}  // namespace rocewatch::lint::cli
