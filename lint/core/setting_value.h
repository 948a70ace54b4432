#pragma once

// A setting's value as a check compares it and `roce-lint fix` applies it.

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace rocewatch::lint {

// A number, a list of priorities ({} for none), text ("dscp", "RoCE v2"), or a DSCP → priority
// map; monostate when not known.
using SettingValue = std::variant<std::monostate, std::int64_t, double, std::vector<std::int64_t>, std::string,
                                  std::map<std::int64_t, std::int64_t>>;

}  // namespace rocewatch::lint
