#include "exporter/endpoints/metrics_response.h"

#include <exception>

#include "exporter/log.h"

namespace rocewatch::endpoints {

http::HttpResponse MetricsResponse(const ScrapeCoalescer& metrics, std::optional<double> scrape_timeout) {
  http::HttpResponse r;
  try {
    r.shared_body = metrics.CollectText(scrape_timeout);
    r.release_after = metrics.TakeRetired();
    r.headers.emplace_back("Content-Type", std::string(kMetricsContentType));
  } catch (const std::exception& ex) {
    log::Error("scrape failed", {{"error", ex.what()}});
    r = http::HttpResponse{500, {{"Content-Type", "text/plain; charset=utf-8"}}, "Internal Server Error\n", nullptr, nullptr};
  }
  return r;
}

}  // namespace rocewatch::endpoints
