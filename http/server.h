#pragma once

// http::Server: the one HTTP/1.1 server of roce_exporter and roce-lint serve, for plain
// HTTP and HTTPS alike (a web config with tls_server_config makes every connection TLS).
//
// One event-loop thread (epoll, non-blocking sockets, non-blocking OpenSSL driven by
// SSL_ERROR_WANT_READ/WANT_WRITE) accepts, handshakes, reads request heads, routes
// (http/routes.h) and writes answers. Nothing on the loop blocks or costs much: a bcrypt
// check runs on a small auth pool, an expensive handler (a collection) on the work pool
// (http/work_pool.h), and their results come back to the loop, which writes the answer
// without blocking. An unauthenticated request holds a socket and a bounded buffer, never
// a thread; nothing expensive starts before its head is complete (and, with basic auth,
// authenticated). Limits in http/server_limits.h.

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "http/basic_auth.h"
#include "http/listen_address.h"
#include "http/routes.h"
#include "http/server_limits.h"
#include "http/web_config_reloader.h"
#include "rocewatch/result.h"

namespace rocewatch::http {

struct ServerConfig {
  ListenAddress listen;
  Router router;
  ServerLimits limits;
  // --web.config.file, loaded; null: plain HTTP, no authentication.
  std::shared_ptr<WebConfigReloader> web_config;
  std::string realm = std::string(kAuthRealm);  // WWW-Authenticate
};

struct ServerStats {
  std::uint64_t connections = 0;         // accepted
  std::uint64_t refused = 0;             // closed at once: no room and nothing to evict
  std::uint64_t evicted = 0;             // waiting connections closed to make room
  std::uint64_t timed_out = 0;           // closed at a deadline
  std::uint64_t handshake_failures = 0;  // including plain HTTP sent to the TLS port
  std::uint64_t requests = 0;
  std::uint64_t busy = 0;                // 503: a pool's queue was full
};

class Server {
 public:
  static Result<std::unique_ptr<Server>> Start(ServerConfig config);
  // Stops the loop and closes every connection at once; a job still running (a collection,
  // a bcrypt check) finishes on its own thread and its answer is dropped.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  int port() const;
  bool tls() const;
  ServerStats stats() const;

  class Loop;

 private:
  Server() = default;
  std::shared_ptr<Loop> loop_;
  std::thread thread_;
};

}  // namespace rocewatch::http
