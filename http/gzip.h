#pragma once

// gzip for http::Server's answers on routes that ask for it (RouteSpec::compress; Prometheus
// asks with Accept-Encoding: gzip;
// the text format compresses about tenfold).

#include <optional>
#include <string>
#include <string_view>

namespace rocewatch::http {

// Whether an Accept-Encoding value accepts gzip ("gzip", "gzip, deflate", "*"; not "gzip;q=0").
bool AcceptsGzip(std::string_view accept_encoding);

// `data` in the gzip format (RFC 1952); empty when zlib fails.
std::optional<std::string> GzipCompress(std::string_view data);

}  // namespace rocewatch::http
