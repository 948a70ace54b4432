#include "lint/cli/args.h"

#include "rocewatch/strings.h"

namespace rocewatch::lint::cli {

Result<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                             const std::vector<FlagSpec>& specs) {
  ParsedArgs out;
  bool flags_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (flags_done || arg == "-" || arg.size() < 2 || arg[0] != '-') {
      out.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      flags_done = true;
      continue;
    }
    std::string name = arg;
    std::optional<std::string> inline_value;
    if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    const FlagSpec* spec = nullptr;
    for (const auto& s : specs) {
      if (s.name == name || (!s.short_name.empty() && s.short_name == name)) spec = &s;
    }
    if (spec == nullptr) {
      std::vector<std::string> names;
      for (const auto& s : specs) names.push_back(s.name);
      std::string message = "unknown flag " + Quote(name);
      if (auto suggestion = DidYouMean(name, names))
        message += "; did you mean " + *suggestion + "?";
      return Error{message};
    }
    if (!spec->takes_value) {
      if (inline_value) return Error{spec->name + " takes no value"};
      out.switches.insert(spec->name);
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= args.size()) return Error{spec->name + " needs a value"};
      inline_value = args[++i];
    }
    out.values[spec->name] = *inline_value;
    out.all_values[spec->name].push_back(*inline_value);
  }
  return out;
}

}  // namespace rocewatch::lint::cli
