#pragma once

// --web.listen-address in node_exporter's spelling: ":9879", "0.0.0.0:9879",
// "127.0.0.1:0", "[::1]:9879". Parsed once; binding reports "address in use" as such.

#include <string>

#include "rocewatch/result.h"

namespace rocewatch::http {

struct ListenAddress {
  std::string host;  // empty: all IPv4 addresses
  int port = 0;
  bool ipv6 = false;

  std::string ToString() const;
};

Result<ListenAddress> ParseListenAddress(std::string_view text);

// A TCP socket bound to `addr` (SO_REUSEADDR, close-on-exec), not yet listening; the error
// names the address and the reason (EADDRINUSE, EACCES, EADDRNOTAVAIL).
Result<int> BindSocket(const ListenAddress& addr);

// Binds and closes a socket on `addr` to report a precise error before the HTTP server
// binds it (http::Server binds with BindSocket itself; the check stays for tests and tools).
Status ProbeListen(const ListenAddress& addr);

}  // namespace rocewatch::http
