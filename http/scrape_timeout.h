#pragma once

// The scrape timeout Prometheus announces in X-Prometheus-Scrape-Timeout-Seconds. The
// request handler reads it from the request and passes it on as a parameter
// (ScrapeCoalescer::CollectText(timeout)); nothing carries it in a thread-local.

#include <optional>
#include <string_view>

namespace rocewatch::http {

// Parses the header's value ("10", "9.5"); empty for a missing or bad value.
std::optional<double> ParseScrapeTimeout(std::string_view header_value);

}  // namespace rocewatch::http
