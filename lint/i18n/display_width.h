#pragma once

// Columns a UTF-8 text takes on a terminal, for tables whose cells may be Chinese: a character
// of three or four bytes (CJK, full-width punctuation) takes two, every other one.

#include <cstddef>
#include <string>
#include <string_view>

namespace rocewatch::lint::i18n {

std::size_t DisplayWidth(std::string_view text);
// `text` followed by spaces up to `width` columns (as it is when already as wide).
std::string PadToWidth(std::string text, std::size_t width);

}  // namespace rocewatch::lint::i18n
