#pragma once

// The subcommands' flags: the one parser of both binaries (rocewatch/flags.h) under the names
// the commands use. A command lists its FlagSpecs ({"--output", "-o", true, "help", "FILE"}),
// parses with ParseArgs and prints FlagUsage(specs) in its --help.

#include <string>
#include <vector>

#include "rocewatch/flags.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::cli {

using FlagSpec = rocewatch::FlagSpec;
using ParsedArgs = rocewatch::ParsedFlags;

inline Result<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                    const std::vector<FlagSpec>& specs) {
  return ParseFlags(args, specs);
}

}  // namespace rocewatch::lint::cli
