#pragma once

// What the exporter serves, decided the same way for both transports (civetweb for plain
// HTTP, the TLS listener): the telemetry path and the landing page "/", to GET and HEAD,
// after basic authentication when users are configured; 401, 405 or 404 for the rest. No
// files, no directory listings, nothing else.

#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocewatch::http {

enum class Route {
  kMetrics,           // the telemetry path
  kLanding,           // "/"
  kUnauthorized,      // 401: credentials missing or wrong (checked before anything else)
  kMethodNotAllowed,  // 405: not GET or HEAD
  kNotFound,          // 404: any other path
};

// `path` is the request's path without its query. Paths are compared exactly: "/metrics/x",
// "/metrics/" and "/../etc/passwd" are all 404.
Route RouteRequest(std::string_view method, std::string_view path, std::string_view telemetry_path,
                   bool authorized);

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // Content-Type included
  std::string body;
  // A body shared with other requests instead of `body`: the text of a coalesced pass goes to
  // every scrape that shares it without a copy each (1.5 MB on a 32-device node).
  std::shared_ptr<const std::string> shared_body;

  std::string_view Body() const { return shared_body ? std::string_view(*shared_body) : body; }
};

// The response for every route but kMetrics: the landing page, or a short text error.
HttpResponse RouteResponse(Route route, const std::string& landing_page);

// "200 OK", "404 Not Found", …
std::string_view StatusText(int status);

// The status line and header block of `r`, with Content-Length (`content_length`, left out
// when not known, as for a HEAD of the metrics), the web config's extra `headers` and
// Connection. Ends with the blank line.
std::string ResponseHead(const HttpResponse& r, std::optional<std::size_t> content_length,
                         bool keep_alive,
                         const std::vector<std::pair<std::string, std::string>>& extra_headers);

}  // namespace rocewatch::http
