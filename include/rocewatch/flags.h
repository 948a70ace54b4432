#pragma once

// Command-line flags in the style of node_exporter (kingpin): --name=value or
// --name value, boolean --name / --no-name, and positional arguments. Unknown
// flags are errors with a "did you mean" suggestion.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch {

class FlagSet {
 public:
  explicit FlagSet(std::string program) : program_(std::move(program)) {}

  void AddString(std::string name, std::string default_value, std::string help,
                 std::string placeholder = "VALUE");
  void AddBool(std::string name, bool default_value, std::string help);

  // Parses argv[first..argc); the rest that are not flags become positional().
  Status Parse(int argc, const char* const* argv, int first = 1);

  const std::string& Get(const std::string& name) const;
  bool GetBool(const std::string& name) const;
  bool WasSet(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

  // Usage text: one line per flag with its default.
  std::string Usage() const;

 private:
  struct Flag {
    std::string name, help, placeholder, default_value, value;
    bool is_bool = false;
    bool set = false;
  };
  Flag* Find(std::string_view name);

  std::string program_;
  std::vector<Flag> flags_;
  std::vector<std::string> positional_;
};

}  // namespace rocewatch
