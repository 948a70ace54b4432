#pragma once

// A small HTTP client over libcurl for scraping exporters, querying a
// Prometheus-compatible API and pushing to Alertmanager: every request has a
// timeout and a cap on the body, so a hostile or broken peer costs bounded
// time and memory, never a crash.

#include <cstddef>
#include <string>
#include <vector>

namespace rocewatch::lint::observe {

struct HttpRequest {
  std::string url;
  std::string method = "GET";  // GET or POST
  std::string body;            // POST body
  std::vector<std::string> headers;  // "Content-Type: application/json"
  double timeout_seconds = 10;
  std::size_t max_bytes = 64u << 20;  // larger bodies are refused
  // TLS and authentication for exporters behind --web.config.file.
  std::string ca_file;
  std::string client_cert, client_key;
  std::string username, password;
};

struct HttpResponse {
  long status = 0;    // HTTP status, 0 when no answer
  std::string body;
  std::string error;  // transport error ("connection refused", "timed out after 5 s", "body larger than …")
  std::string redirect;  // a 3xx answer's Location, resolved against the URL (redirects are not followed)
  bool ok() const { return error.empty() && status >= 200 && status < 300; }
  // "connection refused" / "HTTP 500: <first line of body>" / "HTTP 302 (a redirect to \"…\"; …)";
  // the body's line as TerminalText.
  std::string Describe() const;
};

HttpResponse Fetch(const HttpRequest& request);

// Percent-encodes a query parameter value.
std::string UrlEncode(std::string_view text);

}  // namespace rocewatch::lint::observe
