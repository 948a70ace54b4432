#pragma once

// The answer to a scrape: the exposition text of a coalesced pass (gzip, when the client
// accepts it, is the server's: http/routes.h RouteSpec::compress).

#include <optional>

#include "exporter/pass/scrape_coalescer.h"
#include "http/routes.h"

namespace rocewatch::endpoints {

inline constexpr std::string_view kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

// `scrape_timeout`: the request's X-Prometheus-Scrape-Timeout-Seconds, parsed. Errors
// become a 500 with a short text body; nothing throws.
http::HttpResponse MetricsResponse(const ScrapeCoalescer& metrics, std::optional<double> scrape_timeout);

}  // namespace rocewatch::endpoints
