#include "lint/observe/promql.h"

namespace rocewatch::lint::observe {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendHexEscape(std::string& out, unsigned char c) {
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

}  // namespace

std::string PromqlString(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      AppendHexEscape(out, c);  // Go string escapes: \x0a is a newline byte
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string RegexLiteral(std::string_view text) {
  // Only RE2's metacharacters are escaped: Prometheus (tsdb findSetMatches) and VictoriaMetrics
  // turn `^(?:a|b|c)$` into an exact-set lookup on the label's index only when every escape in
  // it is of a metacharacter; `\:` or `\-` would send them to matching the regex against every
  // value of the label, a cost that grows with the fleet on every query (docs/performance.md).
  static constexpr std::string_view kMeta = "\\.+*?()|[]{}^$";
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      AppendHexEscape(out, c);
    } else {
      if (kMeta.find(static_cast<char>(c)) != std::string_view::npos) out += '\\';
      out += static_cast<char>(c);  // UTF-8 sequences stay whole
    }
  }
  return out;
}

std::string MatchAny(std::string_view label, const std::vector<std::string>& values) {
  std::string pattern;
  for (const auto& v : values) {
    if (!pattern.empty()) pattern += '|';
    pattern += RegexLiteral(v);
  }
  return std::string(label) + "=~" + PromqlString(pattern);
}

}  // namespace rocewatch::lint::observe
