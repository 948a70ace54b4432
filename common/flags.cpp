#include "rocewatch/flags.h"

#include <algorithm>

#include "rocewatch/strings.h"

namespace rocewatch {

void FlagSet::AddString(std::string name, std::string default_value, std::string help,
                        std::string placeholder) {
  flags_.push_back({std::move(name), std::move(help), std::move(placeholder), default_value,
                    default_value, false, false});
}

void FlagSet::AddBool(std::string name, bool default_value, std::string help) {
  std::string v = default_value ? "true" : "false";
  flags_.push_back({std::move(name), std::move(help), "", v, v, true, false});
}

FlagSet::Flag* FlagSet::Find(std::string_view name) {
  for (auto& f : flags_)
    if (f.name == name) return &f;
  return nullptr;
}

Status FlagSet::Parse(int argc, const char* const* argv, int first) {
  bool only_positional = false;
  for (int i = first; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (only_positional || arg.size() < 2 || arg.substr(0, 2) != "--") {
      if (!only_positional && arg.size() > 1 && arg[0] == '-')
        return Error{"unknown short flag " + std::string(arg) + " (flags are spelled --name)"};
      positional_.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    std::string_view body = arg.substr(2);
    std::string_view name = body;
    std::optional<std::string> value;
    if (auto eq = body.find('='); eq != std::string_view::npos) {
      name = body.substr(0, eq);
      value = std::string(body.substr(eq + 1));
    }
    Flag* flag = Find(name);
    bool negated = false;
    if (flag == nullptr && name.substr(0, 3) == "no-") {
      flag = Find(name.substr(3));
      negated = flag != nullptr && flag->is_bool;
      if (!negated) flag = nullptr;
    }
    if (flag == nullptr) {
      std::vector<std::string> names;
      for (const auto& f : flags_) names.push_back(f.name);
      std::string msg = "unknown flag --" + std::string(name);
      if (auto hint = DidYouMean(name, names)) msg += " (did you mean --" + *hint + "?)";
      return Error{msg};
    }
    if (flag->is_bool) {
      if (negated) {
        if (value) return Error{"flag --" + std::string(name) + " takes no value"};
        flag->value = "false";
      } else if (!value) {
        flag->value = "true";
      } else if (*value == "true" || *value == "false") {
        flag->value = *value;
      } else {
        return Error{"flag --" + flag->name + ": expected true or false, got " + Quote(*value)};
      }
    } else {
      if (!value) {
        if (i + 1 >= argc) return Error{"flag --" + flag->name + " needs a value"};
        value = argv[++i];
      }
      flag->value = *value;
    }
    flag->set = true;
  }
  return {};
}

const std::string& FlagSet::Get(const std::string& name) const {
  for (const auto& f : flags_)
    if (f.name == name) return f.value;
  static const std::string kEmpty;
  return kEmpty;
}

bool FlagSet::GetBool(const std::string& name) const { return Get(name) == "true"; }

bool FlagSet::WasSet(const std::string& name) const {
  for (const auto& f : flags_)
    if (f.name == name) return f.set;
  return false;
}

std::string FlagSet::Usage() const {
  std::string out;
  for (const auto& f : flags_) {
    std::string left = "  --";
    if (f.is_bool) {
      left += "[no-]" + f.name;
    } else {
      left += f.name + "=" + f.placeholder;
    }
    if (left.size() < 44) left.resize(44, ' ');
    else left += "\n" + std::string(44, ' ');
    out += left + f.help;
    if (!f.default_value.empty()) out += " (default: " + f.default_value + ")";
    out += "\n";
  }
  return out;
}

}  // namespace rocewatch
