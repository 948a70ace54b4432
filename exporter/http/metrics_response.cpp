#include "http/metrics_response.h"

#include <exception>

#include "http/gzip.h"
#include "util/log.h"

namespace rocewatch::http {

HttpResponse MetricsResponse(const ScrapeCoalescer& metrics, std::optional<std::string_view> accept_encoding) {
  HttpResponse r;
  try {
    std::shared_ptr<const std::string> text = metrics.CollectText();
    r.headers.emplace_back("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    if (accept_encoding && AcceptsGzip(*accept_encoding)) {
      if (auto gz = GzipCompress(*text)) {
        r.body = std::move(*gz);
        r.headers.emplace_back("Content-Encoding", "gzip");
        return r;
      }
    }
    r.shared_body = std::move(text);
  } catch (const std::exception& ex) {
    log::Error("scrape failed", {{"error", ex.what()}});
    r = HttpResponse{500, {{"Content-Type", "text/plain; charset=utf-8"}}, "Internal Server Error\n", nullptr};
  }
  return r;
}

}  // namespace rocewatch::http
