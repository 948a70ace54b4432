#pragma once

// A small command-line parser for the subcommands: --flag VALUE, --flag=VALUE, -x VALUE,
// boolean --flag, positional arguments, "--" to end the flags. Unknown flags are errors with a
// "did you mean".

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::lint::cli {

struct FlagSpec {
  std::string name;        // "--format"
  std::string short_name;  // "-o", or empty
  bool takes_value = true;
};

struct ParsedArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // by long name, last one wins
  std::map<std::string, std::vector<std::string>> all_values;  // every value, in order (repeatable flags)
  std::set<std::string> switches;             // boolean flags given, by long name

  std::optional<std::string> Value(const std::string& name) const {
    auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  std::vector<std::string> All(const std::string& name) const {
    auto it = all_values.find(name);
    return it == all_values.end() ? std::vector<std::string>() : it->second;
  }
  bool Has(const std::string& name) const { return switches.count(name) != 0; }
};

Result<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                             const std::vector<FlagSpec>& specs);

}  // namespace rocewatch::lint::cli
