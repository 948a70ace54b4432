#pragma once

// Small, locale-independent string helpers shared by the exporter and roce-lint.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

// Strips ASCII whitespace (space, \t, \n, \r, \v, \f) from both ends.
std::string_view Trim(std::string_view s);

// Splits on every occurrence of `sep`; empty fields are kept.
std::vector<std::string_view> Split(std::string_view s, char sep);

// Parses the whole of `s` (after Trim) as an unsigned decimal; no sign, no junk.
std::optional<std::uint64_t> ParseU64(std::string_view s);
// Same, accepting a leading '-'.
std::optional<std::int64_t> ParseI64(std::string_view s);
// Parses the whole of `s` (after Trim) as a decimal or hex ("0x…") unsigned value.
std::optional<std::uint64_t> ParseU64Auto(std::string_view s);
// Parses the whole of `s` (after Trim) as a floating-point number, independent of locale.
std::optional<double> ParseDouble(std::string_view s);

// Formats a double the way the text exposition format expects (shortest round-trip form).
std::string FormatDouble(double v);
// Same, appended to `out` (no temporary string: the exporter renders tens of thousands per scrape).
void AppendDouble(std::string& out, double v);

// Quotes a string for an error message: printable ASCII kept, the rest as \xNN, at most
// `max` characters shown.
std::string Quote(std::string_view s, std::size_t max = 64);

// Offset of the first byte of `s` that is not part of well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or std::string_view::npos. JSON (reports, the
// plan, Alertmanager alerts) must be UTF-8: nlohmann-json's dump() throws on anything else.
std::size_t FirstInvalidUtf8(std::string_view s);

// Damerau-free Levenshtein distance, for "did you mean" suggestions.
std::size_t EditDistance(std::string_view a, std::string_view b);
// The candidate closest to `word`, if it is close enough to be a likely typo.
std::optional<std::string> DidYouMean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace rocewatch
