#pragma once

// The one router of both binaries and both transports (plain HTTP and HTTPS go through the
// same http::Server): a table of exact paths, GET and HEAD only, after basic authentication
// when users are configured; 401, 405 (with Allow) or 404 for the rest. No files, no
// directory listings, no path normalisation: "//metrics", "/./metrics", "/metrics%00",
// "/metrics/" and "/Metrics" are all 404, the query is ignored.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/request_head.h"

namespace rocewatch::http {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct HttpResponse {
  int status = 200;
  HeaderList headers;  // Content-Type included
  std::string body;
  // A body shared with other requests instead of `body`: the text of a coalesced pass goes to
  // every scrape that shares it without a copy each (1.5 MB on a 32-device node).
  std::shared_ptr<const std::string> shared_body;
  // What the handler is done with and leaves to be let go once the answer is on its way (the
  // work pool frees it after handing the answer to the event loop, off the request's path).
  std::shared_ptr<const void> release_after;

  std::string_view Body() const { return shared_body ? std::string_view(*shared_body) : body; }
};

using Handler = std::function<HttpResponse(const RequestHead& request)>;

struct RouteSpec {
  std::string path;  // exact: "/metrics"
  Handler handler;
  // Expensive (a collection): runs on the server's work pool, never on its event loop, and a
  // HEAD answers `head_headers` without running it.
  bool offload = false;
  // gzip the answer when the client accepts it (Accept-Encoding), on both transports alike.
  bool compress = false;
  HeaderList head_headers;
};

enum class Route {
  kServe,             // a RouteSpec answers
  kUnauthorized,      // 401: credentials missing or wrong (checked before anything else)
  kMethodNotAllowed,  // 405: not GET or HEAD (TRACE, OPTIONS, POST, "get", …)
  kNotFound,          // 404: any other path
};

class Router {
 public:
  void Add(RouteSpec spec);

  struct Decision {
    Route route = Route::kNotFound;
    const RouteSpec* spec = nullptr;  // kServe
  };
  // `path` is the request's path without its query (RequestHead::path).
  Decision Decide(std::string_view method, std::string_view path, bool authorized) const;

 private:
  std::vector<RouteSpec> routes_;
};

// The response for every decision but kServe: a short text error; 401 carries
// WWW-Authenticate with `realm`, 405 carries Allow.
HttpResponse RouteResponse(Route route, std::string_view realm);

// "200 OK", "404 Not Found", …
std::string_view StatusText(int status);

// The status line and header block of `r`, with Content-Length (`content_length`, left out
// when not known, as for a HEAD of the metrics), the web config's extra `headers` and
// Connection. Ends with the blank line.
std::string ResponseHead(const HttpResponse& r, std::optional<std::size_t> content_length,
                         bool keep_alive, const HeaderList& extra_headers);

}  // namespace rocewatch::http
