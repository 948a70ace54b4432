#pragma once

// The limits of http::Server, the same for HTTP and HTTPS and for both binaries
// (docs/security.md, "Threat model": what each bounds).

#include <chrono>
#include <cstddef>

#include "http/request_head.h"

namespace rocewatch::http {

struct ServerLimits {
  // From accept to a finished TLS handshake.
  std::chrono::milliseconds handshake_timeout{10000};
  // From the first byte of a request (accept, or the end of the previous answer) to its
  // complete head: a slowloris client is closed when it passes, however it trickles.
  std::chrono::milliseconds header_timeout{10000};
  // Requests take no body: one that announces a body is answered and closed, and what it
  // still sends is read and dropped for at most this long (and 1 MiB).
  std::chrono::milliseconds body_timeout{2000};
  // To send one whole answer: a client that does not read is closed when it passes.
  std::chrono::milliseconds write_timeout{30000};
  // Keep-alive: how long a connection may wait for its next request.
  std::chrono::milliseconds idle_timeout{60000};
  // Connections open at once, in total and per client address. When either is reached, the
  // connection of that scope waiting longest for its client (handshake, request head,
  // keep-alive) is closed to make room; only when none is waiting is the new one refused.
  // The total is lowered to fit RLIMIT_NOFILE.
  std::size_t max_connections = 1024;
  std::size_t max_connections_per_client = 256;
  RequestLimits request;  // request line, head size, header count
  // Threads for expensive handlers (collections) and their queue.
  int work_threads = 4;
  std::size_t max_queued_work = 512;
  // Threads for bcrypt checks and their queue: a full queue answers 503.
  int auth_threads = 2;
  std::size_t max_queued_auth = 64;
  int max_requests_per_connection = 10000;
};

}  // namespace rocewatch::http
