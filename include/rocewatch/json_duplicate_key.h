#pragma once

// The first object key that a JSON text repeats in one object. JSON parsers (nlohmann-json
// included) keep the last of the two silently, which drops a setting without a word; every JSON
// roce-lint and roce_exporter read from outside (a plan, a switch configuration, counter
// profiles, a capture's capture.json and motion.json) reports it the same way, with the
// message of DuplicateKeyMessage. One pass over the text, a hash set of keys per open object:
// linear in the text, whatever its shape.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rocewatch {

struct JsonDuplicateKey {
  std::string pointer;  // the repeated member, as a JSON pointer: "/PORT/Ethernet0/alias"
  std::string key;      // its key, unescaped
  std::size_t first_line = 0, first_column = 0;  // where the key first appears (1-based)
  std::size_t line = 0, column = 0;              // where it appears again
};

// Meant for text a JSON parser accepted; on anything else it stops without a finding (never
// throws, never reads past the text). Nesting deeper than `max_depth` stops it too (callers
// refuse that text before, with JsonNestsDeeperThan).
std::optional<JsonDuplicateKey> FindDuplicateJsonKey(std::string_view text, std::size_t max_depth = 64);

// "/PORT/Ethernet0: key \"alias\" appears twice in one object (first at 3:5, again at 9:5); only the
// last one counts": the plan loader's words (plan.schema.duplicate_key), the key quoted by Quote.
std::string DuplicateKeyMessage(const JsonDuplicateKey& d);

}  // namespace rocewatch
