#include "rocewatch/flags.h"

#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch {
namespace {

const FlagSpec* FindLong(const std::vector<FlagSpec>& specs, std::string_view name) {
  for (const auto& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

const FlagSpec* FindShort(const std::vector<FlagSpec>& specs, std::string_view name) {
  for (const auto& s : specs)
    if (!s.short_name.empty() && s.short_name == name) return &s;
  return nullptr;
}

Error UnknownFlag(std::string_view name, const std::vector<FlagSpec>& specs) {
  std::vector<std::string> names;
  for (const auto& s : specs) names.push_back(s.name);
  std::string msg = "unknown flag " + escape::TerminalText(name);
  if (auto hint = DidYouMean(name, names)) msg += " (did you mean " + *hint + "?)";
  return Error{msg};
}

}  // namespace

Result<ParsedFlags> ParseFlags(const std::vector<std::string>& args,
                               const std::vector<FlagSpec>& specs) {
  ParsedFlags out;
  bool only_positional = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (only_positional || arg.size() < 2 || arg[0] != '-') {
      out.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    std::string_view name = arg;
    std::optional<std::string> value;
    const FlagSpec* spec = nullptr;
    bool negated = false;
    if (arg[1] != '-') {
      spec = FindShort(specs, arg);
      if (spec == nullptr)
        return Error{"unknown short flag " + escape::TerminalText(arg) +
                     " (flags are spelled --name)"};
    } else {
      if (auto eq = name.find('='); eq != std::string_view::npos) {
        value = std::string(name.substr(eq + 1));
        name = name.substr(0, eq);
      }
      spec = FindLong(specs, name);
      if (spec == nullptr && name.starts_with("--no-")) {
        const FlagSpec* positive = FindLong(specs, "--" + std::string(name.substr(5)));
        if (positive != nullptr && !positive->takes_value) spec = positive, negated = true;
      }
      if (spec == nullptr) return UnknownFlag(name, specs);
    }
    out.given.insert(spec->name);
    if (!spec->takes_value) {
      bool on = !negated;
      if (negated && value) {
        return Error{"flag " + std::string(name) + " takes no value, got " + Quote(*value)};
      } else if (value && (*value == "true" || *value == "false")) {
        on = *value == "true";
      } else if (value) {
        return Error{"flag " + spec->name + ": expected true or false, got " + Quote(*value)};
      }
      if (on) out.switches.insert(spec->name);
      else out.switches.erase(spec->name);
      out.values.erase(spec->name);
      continue;
    }
    if (!value) {
      if (i + 1 >= args.size()) return Error{"flag " + spec->name + " needs a value"};
      value = args[++i];
    }
    out.values[spec->name] = *value;
    out.all_values[spec->name].push_back(*value);
  }
  return out;
}

std::string FlagUsage(const std::vector<FlagSpec>& specs) {
  constexpr std::size_t kColumn = 44;
  std::string out;
  for (const auto& f : specs) {
    std::string left = "  ";
    if (!f.short_name.empty()) left += f.short_name + ", ";
    if (f.takes_value) {
      left += f.name + "=" + (f.placeholder.empty() ? "VALUE" : f.placeholder);
    } else {
      left += "--[no-]" + f.name.substr(2);
    }
    if (left.size() < kColumn) left.resize(kColumn, ' ');
    else left += "\n" + std::string(kColumn, ' ');
    std::string help = f.help;
    for (std::size_t at = help.find('\n'); at != std::string::npos;
         at = help.find('\n', at + 1 + kColumn))
      help.insert(at + 1, kColumn, ' ');
    out += left + help;
    if (!f.default_value.empty()) out += " (default: " + f.default_value + ")";
    out += "\n";
  }
  return out;
}

void FlagSet::AddString(std::string name, std::string default_value, std::string help,
                        std::string placeholder) {
  specs_.push_back({"--" + name, "", true, std::move(help), std::move(placeholder),
                    std::move(default_value)});
}

void FlagSet::AddBool(std::string name, bool default_value, std::string help) {
  specs_.push_back({"--" + name, "", false, std::move(help), "", default_value ? "true" : "false"});
}

const FlagSpec* FlagSet::Find(const std::string& name) const { return FindLong(specs_, "--" + name); }

Status FlagSet::Parse(int argc, const char* const* argv, int first) {
  std::vector<std::string> args;
  for (int i = first; i < argc; ++i) args.emplace_back(argv[i]);
  auto parsed = ParseFlags(args, specs_);
  if (!parsed) return parsed.error();
  parsed_ = std::move(*parsed);
  return {};
}

const std::string& FlagSet::Get(const std::string& name) const {
  static const std::string kEmpty, kTrue = "true", kFalse = "false";
  const FlagSpec* spec = Find(name);
  if (spec == nullptr) return kEmpty;
  if (!spec->takes_value) {
    if (!parsed_.given.count(spec->name)) return spec->default_value;
    return parsed_.switches.count(spec->name) ? kTrue : kFalse;
  }
  auto it = parsed_.values.find(spec->name);
  return it == parsed_.values.end() ? spec->default_value : it->second;
}

bool FlagSet::GetBool(const std::string& name) const { return Get(name) == "true"; }

bool FlagSet::WasSet(const std::string& name) const { return parsed_.given.count("--" + name) != 0; }

}  // namespace rocewatch
