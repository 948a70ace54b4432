#pragma once

// Where each value of a JSON document starts, by JSON pointer (RFC 6901).
//
// nlohmann-json parses the values but its SAX interface reports no positions, so this is a
// second, small scan of the same text that records the line:column of every value and every
// object key, and the keys that appear twice in one object (JSON keeps only the last one, which
// silently drops a setting). The scan runs on text that nlohmann-json already accepted, but it is
// written for hostile input anyway: bounded depth, bounds-checked, never throws.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch::lint::plan {

struct TextPosition {
  std::size_t line = 0;    // 1-based; 0 means unknown
  std::size_t column = 0;  // 1-based, counted in characters (UTF-8 code points), a tab counts 1
};

struct DuplicateKey {
  std::string pointer;  // pointer of the repeated member, e.g. "/nodes/0/name"
  TextPosition first;   // where the key first appears
  TextPosition repeat;  // where it appears again
};

// Pointer -> position, flat: every pointer's text in one string and 16 bytes an entry, sorted
// by pointer once the scan is done (a 10,000-node plan has ~800,000 pointers: ~35 MB here
// against ~100 MB as a hash map of strings). Set the same pointer twice: the last one counts.
class PointerIndex {
 public:
  void Set(std::string_view pointer, TextPosition at);
  void Seal();  // sorts; Find before Seal sees nothing
  std::optional<TextPosition> Find(std::string_view pointer) const;
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::uint32_t offset, length;  // into text_
    std::uint32_t line, column;
  };
  std::string_view Pointer(const Entry& e) const { return std::string_view(text_).substr(e.offset, e.length); }
  std::string text_;
  std::vector<Entry> entries_;
};

struct JsonPositions {
  PointerIndex values;  // pointer -> start of the value
  PointerIndex keys;    // pointer -> start of the member's key
  std::vector<DuplicateKey> duplicate_keys;
  bool complete = false;  // false when the scan gave up (malformed text or nesting too deep)
};

// Deepest nesting the scan follows; a plan needs 6.
inline constexpr std::size_t kMaxJsonDepth = 64;

JsonPositions IndexJsonPositions(std::string_view text);

// The line:column of byte `offset` in `text` (counted as above).
TextPosition PositionOfOffset(std::string_view text, std::size_t offset);

// Appends one reference token to a JSON pointer, escaping '~' as "~0" and '/' as "~1".
void AppendPointerToken(std::string& pointer, std::string_view token);

}  // namespace rocewatch::lint::plan
