#pragma once

// The scrape timeout Prometheus announces in X-Prometheus-Scrape-Timeout-Seconds.
// civetweb runs begin_request and then the metrics handler on the same worker
// thread, so the header travels from one to the other in a thread-local.

#include <optional>
#include <string_view>

namespace rocewatch::http {

// Parses the header's value ("10", "9.5"); empty for a missing or bad value.
std::optional<double> ParseScrapeTimeout(std::string_view header_value);

void SetCurrentScrapeTimeout(std::optional<double> seconds);
std::optional<double> CurrentScrapeTimeout();

}  // namespace rocewatch::http
