#pragma once

// A bounded HTTP/1.1 request-head parser for http::Server: request line and header
// fields, nothing else (the exporter takes no request bodies). Pure: bytes in, a request or
// the status to refuse it with out. Limits are checked before the head is complete, so a
// client cannot make us buffer more than they allow.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocewatch::http {

struct RequestLimits {
  std::size_t max_request_line = 8 * 1024;  // longer: 414 URI Too Long
  std::size_t max_head_bytes = 16 * 1024;   // request line and headers; more: 431
  std::size_t max_headers = 64;             // more: 431
};

struct RequestHead {
  std::string method;     // "GET"
  std::string target;     // as sent: "/metrics?x=1"
  std::string path;       // the target's path: "/metrics" (absolute-form reduced to its path)
  int minor_version = 1;  // HTTP/1.<minor>
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased

  // The first value of the header `lower_name`, or nullptr.
  const std::string* Header(std::string_view lower_name) const;
  // Whether the client wants the connection kept open after the response.
  bool WantsKeepAlive() const;
  // Whether a request body follows the head (Content-Length > 0 or Transfer-Encoding).
  bool HasBody() const;
};

struct ParsedHead {
  enum class Kind { kIncomplete, kComplete, kBad };
  Kind kind = Kind::kIncomplete;
  std::size_t consumed = 0;  // kComplete: bytes of the head, the blank line included
  RequestHead head;          // kComplete
  int status = 0;            // kBad: 400, 414, 431 or 505
  std::string reason;        // kBad: why, for the response body and the debug log
};

// Parses the head at the start of `buffer`.
ParsedHead ParseRequestHead(std::string_view buffer, const RequestLimits& limits = {});

}  // namespace rocewatch::http
