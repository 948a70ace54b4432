#include "rocewatch/duration.h"

#include <cctype>
#include <cmath>

#include "rocewatch/strings.h"

namespace rocewatch {

Result<double> ParseDuration(std::string_view text) {
  std::string_view t = Trim(text);
  const std::string original(t);
  auto bad = [&] {
    return Error{"invalid duration " + Quote(original) + " (expected e.g. 500ms, 30s, 5m, 1h)"};
  };
  if (t.empty()) return bad();
  if (t == "0") return 0.0;
  double total = 0;
  while (!t.empty()) {
    std::size_t i = 0;
    while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.')) ++i;
    if (i == 0) return bad();
    auto number = ParseDouble(t.substr(0, i));
    if (!number) return bad();
    t.remove_prefix(i);
    std::size_t j = 0;
    while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
    std::string_view unit = t.substr(0, j);
    t.remove_prefix(j);
    double scale = 0;
    if (unit == "ms") scale = 1e-3;
    else if (unit == "s") scale = 1;
    else if (unit == "m") scale = 60;
    else if (unit == "h") scale = 3600;
    else if (unit == "d") scale = 86400;
    else return bad();
    total += *number * scale;
  }
  if (!std::isfinite(total)) return bad();  // "1000…0d": too long to be a timeout or interval
  return total;
}

}  // namespace rocewatch
