#include "lint/fix/templates.h"

#include <set>

namespace rocewatch::lint::fix::templates {
namespace {

bool IsNameChar(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// The length of the placeholder name at text[at] (just after an '@'), 0 when there is none.
std::size_t NameLength(std::string_view text, std::size_t at) {
  std::size_t n = 0;
  while (at + n < text.size() && IsNameChar(text[at + n])) ++n;
  if (n == 0 || text[at] < 'A' || text[at] > 'Z' || at + n >= text.size() || text[at + n] != '@')
    return 0;
  return n;
}

}  // namespace

Result<std::string> FillTemplate(std::string_view text,
                                 const std::vector<std::pair<std::string_view, std::string>>& values) {
  std::set<std::string_view> used;
  auto lookup = [&](std::string_view name) -> const std::string* {
    for (const auto& [k, v] : values)
      if (k == name) {
        used.insert(k);
        return &v;
      }
    return nullptr;
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const bool line_start = i == 0 || text[i - 1] == '\n';
    // "#@NAME@\n": the whole line is the value's lines.
    if (line_start && text.compare(i, 2, "#@") == 0) {
      std::size_t n = NameLength(text, i + 2);
      if (n > 0 && (i + 3 + n == text.size() || text[i + 3 + n] == '\n')) {
        std::string_view name = text.substr(i + 2, n);
        const std::string* v = lookup(name);
        if (v == nullptr) return Error{"template placeholder @" + std::string(name) + "@ has no value"};
        out += *v;
        i += 3 + n + (i + 3 + n < text.size() ? 1 : 0);
        continue;
      }
    }
    if (text[i] == '@') {
      if (std::size_t n = NameLength(text, i + 1); n > 0) {
        std::string_view name = text.substr(i + 1, n);
        const std::string* v = lookup(name);
        if (v == nullptr) return Error{"template placeholder @" + std::string(name) + "@ has no value"};
        out += *v;
        i += n + 2;
        continue;
      }
    }
    out += text[i++];
  }
  for (const auto& [k, v] : values)
    if (!used.count(k)) return Error{"template value " + std::string(k) + " has no placeholder"};
  return out;
}

}  // namespace rocewatch::lint::fix::templates
