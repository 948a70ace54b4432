#pragma once

// Shell text for the rendered scripts and the batch runner: quoting, and the names
// that may appear in a script unquoted.

#include <string>
#include <string_view>

namespace rocewatch::lint::fix {

// 'text' for POSIX sh, with embedded single quotes as '\''. Plain words
// ([A-Za-z0-9_./:=@%+,-], not empty) are returned as they are.
std::string ShQuote(std::string_view text);

// A device, interface or node name the scripts use as a word and in paths:
// [A-Za-z0-9_.:-], not empty, not "." or "..", at most 64 characters.
bool IsSafeName(std::string_view name);

}  // namespace rocewatch::lint::fix
