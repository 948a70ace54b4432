#pragma once

// The HTTPS transport: an in-process TLS listener on OpenSSL 3 that terminates TLS itself
// and serves the same ScrapeCoalescer the plain HTTP path serves, with a small, bounded
// HTTP/1.1 handler (http/request_head.h, http/routes.h). civetweb's own TLS is not used:
// Debian 12's civetweb 1.15 crashes on the first HTTPS request with OpenSSL 3 (see
// docs/security.md for the choice and its reasons). When TLS is on, this is the only
// listener: no plain-text port is left open that would bypass client certificates.
//
// Bounds: at most `max_connections` connections at a time, each on its own thread; when
// full, the connection that has waited longest for its client (in the handshake, for a
// request head, or idle between requests) is closed to make room, so silent or slow
// clients cannot hold every slot; only when every connection is busy answering is a new
// one refused. A handshake, a request head and a response each have a deadline; idle
// keep-alive connections are closed after `idle_timeout`. Only GET and HEAD of the
// telemetry path and "/" are served; request bodies are refused.

#include <prometheus/collectable.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "http/basic_auth.h"
#include "http/listen_address.h"
#include "http/request_head.h"
#include "collect/scrape_coalescer.h"
#include "http/web_config_reloader.h"
#include "rocewatch/result.h"

namespace rocewatch::http {

struct TlsListenerOptions {
  ListenAddress listen;
  std::string telemetry_path = "/metrics";
  std::string landing_page;
  int max_connections = 64;
  std::chrono::milliseconds handshake_timeout{10000};
  std::chrono::milliseconds request_timeout{10000};  // to receive a whole request head
  std::chrono::milliseconds idle_timeout{120000};    // keep-alive between requests
  std::chrono::milliseconds write_timeout{60000};    // to send one response
  int max_requests_per_connection = 10000;
  RequestLimits limits;
};

struct TlsListenerStats {
  std::uint64_t connections = 0;         // accepted and served
  std::uint64_t handshake_failures = 0;  // including plain HTTP sent to the TLS port
  std::uint64_t refused = 0;             // closed at once: max_connections reached
  std::uint64_t evicted = 0;             // waiting connections closed to make room
  std::uint64_t requests = 0;
};

class TlsListener {
 public:
  // Binds and starts accepting. `reloader` must hold a TLS configuration.
  static Result<std::unique_ptr<TlsListener>> Start(
      const TlsListenerOptions& options, std::shared_ptr<WebConfigReloader> reloader,
      std::shared_ptr<BasicAuthenticator> auth, std::shared_ptr<ScrapeCoalescer> metrics);
  // Stops accepting, closes every connection and waits for their threads.
  ~TlsListener();
  TlsListener(const TlsListener&) = delete;
  TlsListener& operator=(const TlsListener&) = delete;

  int port() const;
  TlsListenerStats stats() const;

  class State;

 private:
  TlsListener() = default;
  std::shared_ptr<State> state_;
  std::thread acceptor_;
};

}  // namespace rocewatch::http
