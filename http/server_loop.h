#pragma once

// The inside of http::Server (http/server.h), shared by the files of its event loop, one
// concern each: server.cpp (start, epoll loop, close), server_accept.cpp (accept and
// eviction by progress), server_tls.cpp (socket and TLS I/O, the handshake),
// server_parse.cpp (reading and parsing request heads), server_auth.cpp (the bcrypt
// offload and the pools' mailbox), server_route.cpp (routing and answers),
// server_write.cpp (writing, keep-alive, closing) and server_sweep.cpp (deadlines).

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "http/gzip.h"
#include "http/http_log.h"
#include "http/server.h"
#include "http/work_pool.h"

namespace rocewatch::http {
namespace server_detail {

using Clock = std::chrono::steady_clock;

enum class Io { kOk, kWantRead, kWantWrite, kClosed };

// What an SSL_read or SSL_write that returned r means for the loop (n: the bytes moved).
inline Io SslOutcome(SSL* ssl, int r, std::size_t* n) {
  if (r > 0) {
    *n = static_cast<std::size_t>(r);
    return Io::kOk;
  }
  const int err = SSL_get_error(ssl, r);
  ERR_clear_error();
  if (err == SSL_ERROR_WANT_READ) return Io::kWantRead;
  if (err == SSL_ERROR_WANT_WRITE) return Io::kWantWrite;
  return Io::kClosed;
}

constexpr std::size_t kReadChunk = 16 * 1024;
constexpr std::size_t kMaxDrain = 1 << 20;
// Buffered pipelined requests one connection answers in one turn of the loop before the
// others get theirs (the rest are answered on the next turn, without waiting for epoll).
constexpr int kRequestsPerTurn = 64;

// The client's address without its port: the key of the per-client limit.
inline std::string HostOf(const sockaddr_storage& ss) {
  char host[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&ss)->sin_addr, host, sizeof host);
  } else if (ss.ss_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&ss)->sin6_addr, host,
                sizeof host);
  } else {
    return "?";
  }
  return host;
}

// What a pool sends back to the loop: the verdict of a bcrypt check, or a handler's answer.
struct Completion {
  std::uint64_t conn = 0;
  std::string client;  // auth: whose share of the auth pool it held
  bool auth = false;   // true: `allowed` is the verdict; false: `response` is the answer
  bool allowed = false;
  HttpResponse response;
};

// Shared by the loop and the pools' jobs, so that a job finishing after the server is gone
// posts into something that still exists (and nobody reads).
struct Mailbox {
  int event_fd = -1;
  std::mutex mu;
  std::vector<Completion> items;

  ~Mailbox() {
    if (event_fd >= 0) ::close(event_fd);
  }
  void Post(Completion c) {
    {
      std::lock_guard<std::mutex> lock(mu);
      items.push_back(std::move(c));
    }
    // Fails only with EAGAIN when the counter is at its maximum: the loop is woken already.
    ::eventfd_write(event_fd, 1);
  }
};

inline void MaybeCompress(HttpResponse& r, const RequestHead& request) {
  const std::string* accept = request.Header("accept-encoding");
  if (r.status != 200 || accept == nullptr || !AcceptsGzip(*accept)) return;
  if (auto gz = GzipCompress(r.Body())) {
    r.body = std::move(*gz);
    r.shared_body.reset();
    r.headers.emplace_back("Content-Encoding", "gzip");
  }
}

}  // namespace server_detail

using namespace server_detail;

struct ServerConnection {
  enum class State {
    kHandshake,  // TLS handshake
    kHead,       // reading a request head (header deadline)
    kIdle,       // keep-alive, waiting for the next request
    kAuth,       // the bcrypt check runs on the auth pool
    kWork,       // the handler runs on the work pool
    kWrite,      // writing the answer (write deadline)
    kDrain,      // answered and closing: what the client still sends is dropped
  };
  std::uint64_t id = 0;
  int fd = -1;
  std::string client;
  SSL* ssl = nullptr;
  std::shared_ptr<TlsContext> tls;  // the context the connection started with
  State state = State::kHead;
  Clock::time_point deadline;
  Clock::time_point since;  // waiting for the client since (eviction order)
  std::uint32_t events = 0;
  std::string in;
  RequestHead request;
  std::shared_ptr<const ActiveWebConfig> config;  // for this request
  bool keep_alive = false;
  bool head_only = false;
  int served = 0;
  std::string out_head;
  HttpResponse out;
  std::size_t off = 0;
  std::size_t drained = 0;
  // Progress: when a write last moved bytes, whether this answer waited for the client, the
  // pipelined answers in a row that did, and the write deadline of the current run.
  Clock::time_point last_progress;
  bool write_blocked = false;
  int unread_answers = 0;
  std::optional<Clock::time_point> run_deadline;

  bool Waiting() const {
    return state == State::kHandshake || state == State::kHead || state == State::kIdle ||
           state == State::kDrain;
  }
};

class Server::Loop {
 public:
  explicit Loop(ServerConfig config) : cfg_(std::move(config)) {}
  ~Loop();

  Status Open();
  void Run();
  void Stop() {
    stopping_ = true;
    ::eventfd_write(stop_fd_, 1);
  }

  ServerConfig cfg_;
  int port_ = 0;
  bool tls_ = false;
  struct {
    std::atomic<std::uint64_t> connections{0}, refused{0}, evicted{0}, timed_out{0},
        handshake_failures{0}, requests{0}, busy{0};
  } stats_;

 private:
  using State = ServerConnection::State;

  void Accept();
  bool MakeRoom(const std::string& client);
  bool Evict(const std::string* client);
  bool Stalled(const ServerConnection& c, Clock::time_point now) const;
  bool LeavesAnswersUnread(const ServerConnection& c) const;
  void Abort(ServerConnection* c);
  void OnEvent(ServerConnection* c, std::uint32_t events);
  void Handshake(ServerConnection* c);
  void Read(ServerConnection* c);
  bool Process(ServerConnection* c);
  void Authenticate(ServerConnection* c, BasicCredentials credentials);
  void Authorized(ServerConnection* c, bool allowed);
  void Answer(ServerConnection* c, HttpResponse r, bool with_length = true);
  void Refuse(ServerConnection* c, int status, const std::string& reason);
  void Write(ServerConnection* c);
  void Drain(ServerConnection* c);
  void Finished(ServerConnection* c);
  void Close(ServerConnection* c);
  void Interest(ServerConnection* c, std::uint32_t events);
  void Mail();
  void Sweep();
  bool Alive(std::uint64_t id) const { return by_id_.count(id) != 0; }
  Io ReadSome(ServerConnection* c, char* buf, std::size_t cap, std::size_t* n);
  Io WriteSome(ServerConnection* c, const char* p, std::size_t len, std::size_t* n);

  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int stop_fd_ = -1;
  std::atomic<bool> stopping_{false};
  bool accept_paused_ = false;
  Clock::time_point accept_resume_{};
  std::shared_ptr<Mailbox> mailbox_ = std::make_shared<Mailbox>();
  std::shared_ptr<BasicAuthenticator> auth_ = std::make_shared<BasicAuthenticator>();
  std::unique_ptr<WorkPool> work_, auth_pool_;
  std::unordered_map<int, std::unique_ptr<ServerConnection>> conns_;
  std::unordered_map<std::uint64_t, ServerConnection*> by_id_;
  std::unordered_map<std::string, std::size_t> per_client_;
  std::unordered_map<std::string, std::size_t> auth_per_client_;  // bcrypt checks outstanding
  std::size_t auth_outstanding_ = 0;
  std::vector<std::uint64_t> ready_;  // keep-alive connections with bytes already buffered
  std::uint64_t next_id_ = 1;
  Clock::time_point next_sweep_{};
};

}  // namespace rocewatch::http
