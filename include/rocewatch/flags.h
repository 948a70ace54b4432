#pragma once

// The command-line flag parser of both binaries (roce_exporter and every roce-lint command), in
// the style of node_exporter (kingpin). One table of FlagSpecs says what a command accepts and
// gives its --help; the rules are the same everywhere:
//   --name=value or --name value   a flag that takes a value (repeatable; the last one wins)
//   --name, --no-name, --name=true|false   a switch
//   -x value                       a short name, where the table gives one
//   --                             everything after it is positional
// Errors name the flag and the value: "unknown flag --formt (did you mean --format?)",
// "flag --output needs a value", "flag --collector.rdma: expected true or false, got \"maybe\"".

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch {

struct FlagSpec {
  // Every member has an initializer, so a table may give only the first ones.
  std::string name{};           // "--format", "--web.listen-address"
  std::string short_name{};     // "-o", or empty
  bool takes_value = true;      // false: a switch
  std::string help{};           // for --help; "\n" starts another line of it
  std::string placeholder{};    // "FILE" in "--output=FILE" (default VALUE)
  std::string default_value{};  // shown in --help and returned by FlagSet::Get when not given
};

// What one parse found. Flags are by long name ("--format"), only those given.
struct ParsedFlags {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;                   // last one wins
  std::map<std::string, std::vector<std::string>> all_values;  // every value, in order
  std::set<std::string> switches;                              // switches given and true
  std::set<std::string> given;                                 // every flag given, switches too

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

Result<ParsedFlags> ParseFlags(const std::vector<std::string>& args,
                               const std::vector<FlagSpec>& specs);

// The flags part of --help: one entry per flag, "  -o, --output=FILE", "  --[no-]persist", the
// help from column 44 (its further lines indented as far), then "(default: X)" where given.
std::string FlagUsage(const std::vector<FlagSpec>& specs);

// A table with its defaults, for a program whose flags all have one (roce_exporter):
// Get() returns the value given or the default.
class FlagSet {
 public:
  explicit FlagSet(std::string program) : program_(std::move(program)) {}

  // Names without the dashes: "web.listen-address".
  void AddString(std::string name, std::string default_value, std::string help,
                 std::string placeholder = "VALUE");
  void AddBool(std::string name, bool default_value, std::string help);

  // Parses argv[first..argc).
  Status Parse(int argc, const char* const* argv, int first = 1);

  const std::string& Get(const std::string& name) const;
  bool GetBool(const std::string& name) const;
  bool WasSet(const std::string& name) const;
  const std::vector<std::string>& positional() const { return parsed_.positional; }

  std::string Usage() const { return FlagUsage(specs_); }

 private:
  const FlagSpec* Find(const std::string& name) const;

  std::string program_;
  std::vector<FlagSpec> specs_;
  ParsedFlags parsed_;
};

}  // namespace rocewatch
