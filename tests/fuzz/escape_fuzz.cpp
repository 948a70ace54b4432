// rocewatch/escape.h: every function on arbitrary bytes keeps its target's invariant (no line
// break or control character in terminal text and comments, no continuation or bare specifier in
// a systemd value, no quote or separator in a udev value, no escape in a path component), and
// plain words stay as they are.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "rocewatch/escape.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::escape;
  const std::string in(reinterpret_cast<const char*>(data), size);
  for (const std::string& out : {TerminalText(in), ShComment(in), SystemdValue(in)}) {
    for (unsigned char c : out) FUZZ_CHECK(c >= 0x20 && c != 0x7f);
    FUZZ_CHECK(out.find("\xc2\x9b") == std::string::npos);
  }
  const std::string unit = SystemdValue(in);
  for (std::size_t i = 0; i < unit.size(); ++i) {
    if (unit[i] != '%' && unit[i] != '\\') continue;
    FUZZ_CHECK(i + 1 < unit.size() && unit[i + 1] == unit[i]);  // doubled
    ++i;
  }
  const std::string udev = UdevMatchValue(in);
  FUZZ_CHECK(udev.size() == in.size());
  FUZZ_CHECK(udev.find_first_of("\"\\|\n\r") == std::string::npos);
  const std::string word = ShWord(in);
  FUZZ_CHECK(word.find('\0') == std::string::npos);
  if (!word.empty() && word.front() != '\'') FUZZ_CHECK(word == in);
  if (auto component = PathComponent(in)) {
    FUZZ_CHECK(*component == in);
    FUZZ_CHECK(in.find('/') == std::string::npos && in != "." && in != ".." && !in.empty());
    for (unsigned char c : in) FUZZ_CHECK(c >= 0x20 && c != 0x7f);
  } else {
    FUZZ_CHECK(!PathComponentProblem(in).empty());
  }
  return 0;
}
