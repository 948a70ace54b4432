#pragma once

// Shared by the fuzz targets (tests/fuzz/*_fuzz.cpp): property checks that abort with a message
// (so libFuzzer records a crash and saves the input), and views of the fuzzer's bytes.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

// Checks a property of a decoder's result. Unlike assert() it is never compiled out.
#define FUZZ_CHECK(condition)                                                                 \
  do {                                                                                        \
    if (!(condition)) {                                                                       \
      std::fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                           \
    }                                                                                         \
  } while (false)

namespace rocewatch::fuzz {

inline std::span<const std::uint8_t> Bytes(const std::uint8_t* data, std::size_t size) {
  return {data, size};
}

inline std::string_view Text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits the input at the first occurrence of `separator`: the part before and the part after
// (the whole input and an empty rest when there is none). Lets one target take two inputs, e.g.
// a GSTRINGS and a GSTATS answer, or a CSV file and a profiles file.
struct TwoParts {
  std::string_view first;
  std::string_view second;
};
inline TwoParts Split2(std::string_view input, std::string_view separator) {
  auto at = input.find(separator);
  if (at == std::string_view::npos) return {input, {}};
  return {input.substr(0, at), input.substr(at + separator.size())};
}

inline std::span<const std::uint8_t> AsBytes(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

}  // namespace rocewatch::fuzz
