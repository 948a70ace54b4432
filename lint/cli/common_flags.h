#pragma once

// Flags shared by the subcommands: --format and --fail-on.

#include <optional>
#include <string>
#include <vector>

#include "lint/cli/args.h"
#include "lint/finding.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::cli {

enum class OutputFormat { kText, kJson };

inline const FlagSpec kFormatFlag{"--format", "", true};
inline const FlagSpec kFailOnFlag{"--fail-on", "", true};
inline const FlagSpec kHelpFlag{"--help", "-h", false};

// "text" (default) or "json".
Result<OutputFormat> ParseFormat(const std::optional<std::string>& value);
// info, warning (default), error or critical.
Result<Severity> ParseFailOn(const std::optional<std::string>& value);

}  // namespace rocewatch::lint::cli
