#include "http/scrape_timeout.h"

#include <cmath>

#include "rocewatch/strings.h"

namespace rocewatch::http {
namespace {
thread_local std::optional<double> t_scrape_timeout;
}  // namespace

std::optional<double> ParseScrapeTimeout(std::string_view header_value) {
  auto v = ParseDouble(header_value);
  if (!v || !std::isfinite(*v) || *v <= 0 || *v > 3600) return std::nullopt;
  return v;
}

void SetCurrentScrapeTimeout(std::optional<double> seconds) { t_scrape_timeout = seconds; }
std::optional<double> CurrentScrapeTimeout() { return t_scrape_timeout; }

}  // namespace rocewatch::http
