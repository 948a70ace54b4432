#pragma once

// How deep a JSON text nests, found by a scan of its brackets before nlohmann-json builds a DOM
// of it (the parser recurses per level: a hostile file of a million '[' would exhaust the stack).

#include <cstddef>
#include <string_view>

namespace rocewatch {

// True when `text` opens more than `max_depth` objects/arrays inside one another. Brackets in
// strings (escapes included) do not count; an unbalanced text is judged by what it opens.
bool JsonNestsDeeperThan(std::string_view text, std::size_t max_depth);

}  // namespace rocewatch
