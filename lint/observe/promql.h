#pragma once

// Text that goes into a PromQL query: the one place names from a plan become part of one.
// Plan names are hostile (issue 13): a node called `a"} or vector(1) or {x="` must stay a
// string, and `.` in an address must match only a dot.

#include <string>
#include <string_view>
#include <vector>

namespace rocewatch::lint::observe {

// A PromQL double-quoted string literal whose value is exactly `text`.
std::string PromqlString(std::string_view text);
// An RE2 pattern that matches exactly `text` (QuoteMeta).
std::string RegexLiteral(std::string_view text);
// `label=~"^(?:a|b|c)$"`-style matcher for exactly these values (PromQL anchors regexes).
std::string MatchAny(std::string_view label, const std::vector<std::string>& values);

}  // namespace rocewatch::lint::observe
