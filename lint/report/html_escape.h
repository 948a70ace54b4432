#pragma once

// The one function through which every text reaches an HTML page (element content and quoted
// attribute values alike): plan names, exporter label values and messages are hostile.

#include <string>
#include <string_view>

namespace rocewatch::lint::report {

// Escapes & < > " ' as character references, so the text can neither end an element, open
// one, nor leave a quoted attribute. Control characters other than tab and newline become
// U+FFFD (the HTML parser rejects them as character references too); invalid UTF-8 is left
// to the parser, which shows U+FFFD for it.
std::string HtmlEscape(std::string_view text);

}  // namespace rocewatch::lint::report
