// FindDuplicateJsonKey (rocewatch/json_duplicate_key.h) on any bytes: never throws or reads past
// the text; a repeat it reports lies after the first, both inside the text, and its pointer ends
// with the key as a JSON pointer token.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "rocewatch/json_duplicate_key.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = rocewatch::fuzz::Text(data, size);
  auto d = rocewatch::FindDuplicateJsonKey(text);
  if (!d) return 0;
  FUZZ_CHECK(d->first_line >= 1 && d->line >= d->first_line);
  FUZZ_CHECK(d->line > d->first_line || d->column > d->first_column);
  FUZZ_CHECK(!d->pointer.empty() && d->pointer.front() == '/');
  std::string token;
  for (char c : d->key) token += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  FUZZ_CHECK(d->pointer.size() >= token.size() + 1 &&
             d->pointer.compare(d->pointer.size() - token.size() - 1, std::string::npos, "/" + token) == 0);
  FUZZ_CHECK(!rocewatch::DuplicateKeyMessage(*d).empty());
  return 0;
}
