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
  // To send one whole answer, or a run of pipelined answers (the deadline is set by the
  // first and not renewed by the next): a client that does not read is closed when it passes.
  std::chrono::milliseconds write_timeout{30000};
  // A connection with answers queued that made no write progress for stall_grace is the
  // first evicted when room is needed, whatever its state; one that made none for
  // stall_timeout while writing is closed. Closes at a deadline or to evict are abortive
  // (SO_LINGER 0: the kernel drops the queued answer instead of keeping it in FIN-WAIT-1).
  std::chrono::milliseconds stall_grace{2000};
  std::chrono::milliseconds stall_timeout{10000};
  // SO_SNDBUF of every connection (the kernel doubles it): bounds the kernel memory an
  // unread answer pins per connection.
  int send_buffer_bytes = 128 * 1024;
  // Pipelined answers in a row that had to wait for the client: the next is the last
  // (Connection: close), so a client cannot queue answers it does not read.
  int max_unread_answers = 8;
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
  // Threads for bcrypt checks and the checks queued or running: more answer 503. One client
  // address has at most max_auth_per_client of them; auth_reserved of the queue is kept
  // for credentials that succeeded before, which also go to the front of the queue.
  int auth_threads = 2;
  std::size_t max_queued_auth = 64;
  std::size_t max_auth_per_client = 4;
  std::size_t auth_reserved = 16;
  int max_requests_per_connection = 10000;
};

}  // namespace rocewatch::http
