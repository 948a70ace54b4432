#include "http/scrape_timeout.h"

#include <cmath>

#include "rocewatch/strings.h"

namespace rocewatch::http {
std::optional<double> ParseScrapeTimeout(std::string_view header_value) {
  auto v = ParseDouble(header_value);
  if (!v || !std::isfinite(*v) || *v <= 0 || *v > 3600) return std::nullopt;
  return v;
}

}  // namespace rocewatch::http
