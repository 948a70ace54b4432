#pragma once

// One entry of a language's message table: a stable ID ("report.summary") and its text, with
// named placeholders in braces ("{nodes} nodes, {nics} NICs"). Every table lists the same IDs in
// the same order with the same placeholders (checked at compile time in catalogue.cpp).

#include <string_view>

namespace rocewatch::lint::i18n {

struct Message {
  std::string_view id;
  std::string_view text;
};

}  // namespace rocewatch::lint::i18n
