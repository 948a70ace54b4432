#pragma once

// The names the rendered scripts use as bare words and in paths. Quoting is
// rocewatch/escape.h's (ShWord, ShComment, SystemdValue, UdevMatchValue, PathComponent).

#include <string_view>

namespace rocewatch::lint::fix {

// A device, interface or node name the scripts use as a word and in paths:
// [A-Za-z0-9_.:-], not empty, not "." or "..", not starting with '-', at most 64 characters.
bool IsSafeName(std::string_view name);

}  // namespace rocewatch::lint::fix
