#pragma once

// Flags shared by the subcommands: --format, --fail-on and --help.

#include <optional>
#include <string>
#include <vector>

#include "lint/cli/args.h"
#include "lint/core/finding.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::cli {

enum class OutputFormat { kText, kJson };

inline const FlagSpec kFormatFlag{"--format", "", true,
                                  "one line per finding (default), or a JSON report", "text|json"};
inline const FlagSpec kFailOnFlag{"--fail-on", "", true,
                                  "info, warning (default), error or critical: exit 1 when a\n"
                                  "finding is at least this severe",
                                  "SEVERITY"};
inline const FlagSpec kHelpFlag{"--help", "-h", false, "show this help and exit"};

// "text" (default) or "json".
Result<OutputFormat> ParseFormat(const std::optional<std::string>& value);
// info, warning (default), error or critical.
Result<Severity> ParseFailOn(const std::optional<std::string>& value);

}  // namespace rocewatch::lint::cli
