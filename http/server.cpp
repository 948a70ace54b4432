#include "http/server.h"

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
#include "http/work_pool.h"

namespace rocewatch::http {
namespace {

using Clock = std::chrono::steady_clock;

enum class Io { kOk, kWantRead, kWantWrite, kClosed };

// What an SSL_read or SSL_write that returned r means for the loop (n: the bytes moved).
Io SslOutcome(SSL* ssl, int r, std::size_t* n) {
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
std::string HostOf(const sockaddr_storage& ss) {
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
    const std::uint64_t one = 1;
    (void)::write(event_fd, &one, sizeof one);
  }
};

void MaybeCompress(HttpResponse& r, const RequestHead& request) {
  const std::string* accept = request.Header("accept-encoding");
  if (r.status != 200 || accept == nullptr || !AcceptsGzip(*accept)) return;
  if (auto gz = GzipCompress(r.Body())) {
    r.body = std::move(*gz);
    r.shared_body.reset();
    r.headers.emplace_back("Content-Encoding", "gzip");
  }
}

}  // namespace

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
    const std::uint64_t one = 1;
    (void)::write(stop_fd_, &one, sizeof one);
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

Status Server::Loop::Open() {
  // Fit the connections into the descriptors this process may open.
  rlimit nofile{};
  if (::getrlimit(RLIMIT_NOFILE, &nofile) == 0) {
    const rlim_t want = static_cast<rlim_t>(cfg_.limits.max_connections) + 64;
    if (nofile.rlim_cur != RLIM_INFINITY && nofile.rlim_cur < want) {
      rlimit raised = nofile;
      raised.rlim_cur = nofile.rlim_max == RLIM_INFINITY ? want : std::min(want, nofile.rlim_max);
      if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) nofile = raised;
      if (nofile.rlim_cur < want)
        cfg_.limits.max_connections =
            nofile.rlim_cur > 80 ? static_cast<std::size_t>(nofile.rlim_cur - 64) : 16;
    }
  }
  cfg_.limits.max_connections_per_client =
      std::min(cfg_.limits.max_connections_per_client, cfg_.limits.max_connections);
  tls_ = cfg_.web_config && cfg_.web_config->tls();

  auto fd = BindSocket(cfg_.listen);
  if (!fd) return fd.error();
  listen_fd_ = *fd;
  // Non-blocking: the loop accepts until EAGAIN and must never wait in accept.
  const int fl = ::fcntl(listen_fd_, F_GETFL);
  if (fl < 0 || ::fcntl(listen_fd_, F_SETFL, fl | O_NONBLOCK) != 0)
    return Error{
        std::string("cannot make the listening socket non-blocking: ") + std::strerror(errno),
        errno};
  if (::listen(listen_fd_, 511) != 0) {
    const int err = errno;
    return Error{"cannot listen on " + cfg_.listen.ToString() + ": " + std::strerror(err), err};
  }
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&ss), &len);
  port_ = ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port)
                                   : ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  mailbox_->event_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (epoll_fd_ < 0 || stop_fd_ < 0 || mailbox_->event_fd < 0)
    return Error{std::string("cannot start the HTTP event loop: ") + std::strerror(errno), errno};
  for (int watched : {listen_fd_, stop_fd_, mailbox_->event_fd}) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = watched;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, watched, &ev) != 0)
      return Error{std::string("epoll_ctl: ") + std::strerror(errno), errno};
  }
  // A collection reads sources the binary owns: shutdown waits for one in flight (each is
  // bounded by its scrape deadline), so they are not destroyed under it.
  work_ = std::make_unique<WorkPool>("work", std::max(1, cfg_.limits.work_threads),
                                     cfg_.limits.max_queued_work, std::chrono::seconds(15));
  auth_pool_ = std::make_unique<WorkPool>("auth", std::max(1, cfg_.limits.auth_threads),
                                          cfg_.limits.max_queued_auth);
  return {};
}

Server::Loop::~Loop() {
  std::vector<ServerConnection*> all;
  for (auto& [fd, c] : conns_) all.push_back(c.get());
  for (ServerConnection* c : all) Close(c);
  work_.reset();
  auth_pool_.reset();
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (stop_fd_ >= 0) ::close(stop_fd_);
  if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

void Server::Loop::Run() {
  epoll_event events[256];
  while (!stopping_) {
    // Requests already buffered are answered at once, without waiting for an event.
    const int timeout_ms = !ready_.empty() ? 0 : conns_.empty() && !accept_paused_ ? 1000 : 100;
    const int n = ::epoll_wait(epoll_fd_, events, 256, timeout_ms);
    if (n < 0 && errno != EINTR) {
      http_log::Error("HTTP event loop: epoll_wait failed", {{"error", std::strerror(errno)}});
      return;
    }
    for (int i = 0; i < n && !stopping_; ++i) {
      const int fd = events[i].data.fd;
      if (fd == stop_fd_) return;
      if (fd == listen_fd_) {
        Accept();
      } else if (fd == mailbox_->event_fd) {
        Mail();
      } else if (auto it = conns_.find(fd); it != conns_.end()) {
        OnEvent(it->second.get(), events[i].events);
      }
    }
    std::vector<std::uint64_t> ready;
    ready.swap(ready_);
    for (std::uint64_t id : ready) {
      auto it = by_id_.find(id);
      if (it != by_id_.end() &&
          (it->second->state == State::kHead || it->second->state == State::kIdle))
        Read(it->second);
    }
    Sweep();
  }
}

void Server::Loop::Interest(ServerConnection* c, std::uint32_t events) {
  // While a request is worked on nothing is read: no EPOLLRDHUP (a client that half-closes
  // after its request still gets its answer); a reset or full close still reports EPOLLHUP.
  if (events != 0) events |= EPOLLRDHUP;
  if (c->events == events) return;
  epoll_event ev{};
  ev.events = events;
  ev.data.fd = c->fd;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd, &ev);
  c->events = events;
}

// Whether `c` holds answers its client does not read: no write progress for stall_grace
// while an answer waits (being written, or in the kernel's send queue).
bool Server::Loop::Stalled(const ServerConnection& c, Clock::time_point now) const {
  if (now - c.last_progress < cfg_.limits.stall_grace) return false;
  if (c.state == State::kWrite && c.write_blocked) return true;
  int queued = 0;
  return ::ioctl(c.fd, SIOCOUTQ, &queued) == 0 && queued > 0;
}

// Closes the connection of the scope (one client's, or all) with the weakest claim: a stalled
// one first (the longest without progress), else the one waiting longest for its client.
bool Server::Loop::Evict(const std::string* client) {
  const auto now = Clock::now();
  ServerConnection* stalled = nullptr;
  ServerConnection* waiting = nullptr;
  for (auto& [fd, c] : conns_) {
    if (client != nullptr && c->client != *client) continue;
    if (Stalled(*c, now)) {
      if (stalled == nullptr || c->last_progress < stalled->last_progress) stalled = c.get();
    } else if (c->Waiting() && (waiting == nullptr || c->since < waiting->since)) {
      waiting = c.get();
    }
  }
  ServerConnection* victim = stalled != nullptr ? stalled : waiting;
  if (victim == nullptr) return false;
  stats_.evicted += 1;
  Abort(victim);
  return true;
}

// Closes at once, dropping what the kernel still queues for the client (RST, no FIN-WAIT-1
// holding the unread answer).
void Server::Loop::Abort(ServerConnection* c) {
  const linger hard{1, 0};
  ::setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
  Close(c);
}

bool Server::Loop::MakeRoom(const std::string& client) {
  auto it = per_client_.find(client);
  if (it != per_client_.end() && it->second >= cfg_.limits.max_connections_per_client &&
      !Evict(&client))
    return false;
  if (conns_.size() >= cfg_.limits.max_connections && !Evict(nullptr)) return false;
  return true;
}

void Server::Loop::Accept() {
  for (int accepted = 0; accepted < 256; ++accepted) {
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    const int fd =
        ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&ss), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: make room for the next one, or wait a moment.
        if (!Evict(nullptr)) {
          http_log::Warn("HTTP server: cannot accept", {{"error", std::strerror(errno)}});
          epoll_event ev{};
          ev.data.fd = listen_fd_;
          ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &ev);
          accept_paused_ = true;
          accept_resume_ = Clock::now() + std::chrono::milliseconds(100);
        }
      }
      return;
    }
    const std::string client = HostOf(ss);
    if (!MakeRoom(client)) {
      stats_.refused += 1;
      ::close(fd);
      continue;
    }
    stats_.connections += 1;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (cfg_.limits.send_buffer_bytes > 0)
      ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cfg_.limits.send_buffer_bytes,
                   sizeof cfg_.limits.send_buffer_bytes);
    auto conn = std::make_unique<ServerConnection>();
    ServerConnection* c = conn.get();
    c->id = next_id_++;
    c->fd = fd;
    c->client = client;
    c->since = Clock::now();
    c->last_progress = c->since;
    if (tls_) {
      std::shared_ptr<const ActiveWebConfig> config = cfg_.web_config->Current();
      c->tls = config->tls;
      c->ssl = c->tls ? SSL_new(c->tls->ssl_ctx()) : nullptr;
      if (c->ssl == nullptr || SSL_set_fd(c->ssl, fd) != 1) {
        if (c->ssl != nullptr) SSL_free(c->ssl);
        ::close(fd);
        continue;
      }
      SSL_set_accept_state(c->ssl);
      SSL_set_mode(c->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
      c->state = State::kHandshake;
      c->deadline = c->since + cfg_.limits.handshake_timeout;
    } else {
      c->state = State::kHead;
      c->deadline = c->since + cfg_.limits.header_timeout;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.fd = fd;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      if (c->ssl != nullptr) SSL_free(c->ssl);
      ::close(fd);
      continue;
    }
    c->events = ev.events;
    per_client_[client] += 1;
    by_id_[c->id] = c;
    conns_[fd] = std::move(conn);
  }
}

void Server::Loop::Close(ServerConnection* c) {
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, c->fd, nullptr);
  if (c->ssl != nullptr) SSL_free(c->ssl);
  ::close(c->fd);
  if (auto it = per_client_.find(c->client); it != per_client_.end() && --it->second == 0)
    per_client_.erase(it);
  by_id_.erase(c->id);
  conns_.erase(c->fd);  // destroys *c
}

void Server::Loop::OnEvent(ServerConnection* c, std::uint32_t events) {
  if ((events & EPOLLERR) != 0) {
    Close(c);
    return;
  }
  switch (c->state) {
    case State::kHandshake:
      Handshake(c);
      return;
    case State::kHead:
    case State::kIdle:
      Read(c);
      return;
    case State::kWrite:
      Write(c);
      return;
    case State::kDrain:
      Drain(c);
      return;
    case State::kAuth:
    case State::kWork:
      // The client went away while its request is worked on: the answer will be dropped.
      if ((events & EPOLLHUP) != 0) Close(c);
      return;
  }
}

Io Server::Loop::ReadSome(ServerConnection* c, char* buf, std::size_t cap, std::size_t* n) {
  if (c->ssl == nullptr) {
    for (;;) {
      const ssize_t got = ::recv(c->fd, buf, cap, 0);
      if (got > 0) {
        *n = static_cast<std::size_t>(got);
        return Io::kOk;
      }
      if (got == 0) return Io::kClosed;
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return Io::kWantRead;
      return Io::kClosed;
    }
  }
  ERR_clear_error();
  return SslOutcome(c->ssl, SSL_read(c->ssl, buf, static_cast<int>(cap)), n);
}

Io Server::Loop::WriteSome(ServerConnection* c, const char* p, std::size_t len, std::size_t* n) {
  if (c->ssl == nullptr) {
    for (;;) {
      const ssize_t put = ::send(c->fd, p, len, MSG_NOSIGNAL);
      if (put >= 0) {
        *n = static_cast<std::size_t>(put);
        return Io::kOk;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return Io::kWantWrite;
      return Io::kClosed;
    }
  }
  ERR_clear_error();
  return SslOutcome(c->ssl,
                    SSL_write(c->ssl, p, static_cast<int>(std::min<std::size_t>(len, 1 << 20))), n);
}

void Server::Loop::Handshake(ServerConnection* c) {
  ERR_clear_error();
  const int r = SSL_do_handshake(c->ssl);
  if (r == 1) {
    c->state = State::kHead;
    c->deadline = Clock::now() + cfg_.limits.header_timeout;
    Interest(c, EPOLLIN);
    Read(c);
    return;
  }
  const int err = SSL_get_error(c->ssl, r);
  if (err == SSL_ERROR_WANT_READ) {
    Interest(c, EPOLLIN);
    return;
  }
  if (err == SSL_ERROR_WANT_WRITE) {
    Interest(c, EPOLLOUT);
    return;
  }
  stats_.handshake_failures += 1;
  const unsigned long e = ERR_peek_error();
  const bool plain_http = ERR_GET_LIB(e) == ERR_LIB_SSL && ERR_GET_REASON(e) == SSL_R_HTTP_REQUEST;
  const char* reason = e != 0 ? ERR_reason_error_string(e) : nullptr;
  http_log::Debug("TLS handshake failed",
                  {{"client", c->client}, {"error", reason != nullptr ? reason : "closed"}});
  ERR_clear_error();
  if (!plain_http) {
    Close(c);
    return;
  }
  // Plain HTTP sent to the TLS port: say so in plain text, as Go's net/http does. The
  // request itself is never served.
  SSL_free(c->ssl);
  c->ssl = nullptr;
  c->keep_alive = false;
  c->head_only = false;
  HttpResponse r400;
  r400.status = 400;
  r400.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
  r400.body = "Client sent an HTTP request to an HTTPS server.\n";
  c->out_head =
      "HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
      "Connection: close\r\n\r\n";
  c->out = std::move(r400);
  c->off = 0;
  c->state = State::kWrite;
  c->deadline = Clock::now() + std::chrono::seconds(2);
  Write(c);
}

void Server::Loop::Read(ServerConnection* c) {
  const std::uint64_t id = c->id;
  char buf[kReadChunk];
  int answered = 0;
  for (;;) {
    // Every complete request already buffered (pipelined) is answered now, up to a share.
    while (!c->in.empty()) {
      if (++answered > kRequestsPerTurn) {
        ready_.push_back(id);
        return;
      }
      if (!Process(c)) break;  // an incomplete head: read on
      if (!Alive(id) || (c->state != State::kHead && c->state != State::kIdle)) return;
    }
    std::size_t n = 0;
    const Io r = ReadSome(c, buf, sizeof buf, &n);
    if (r == Io::kWantRead) {
      Interest(c, EPOLLIN);
      return;
    }
    if (r == Io::kWantWrite) {
      Interest(c, EPOLLOUT);
      return;
    }
    if (r == Io::kClosed) {
      if (c->state == State::kHead && !c->in.empty()) {
        // The client ended its side inside a head: an unterminated line is refused, not
        // served as if it were complete.
        c->in.clear();
        Refuse(c, 400, "connection closed inside the request head");
        return;
      }
      Close(c);
      return;
    }
    if (c->state == State::kIdle) {
      // The next request's head has the header deadline from its first byte.
      c->state = State::kHead;
      c->deadline = Clock::now() + cfg_.limits.header_timeout;
      c->run_deadline.reset();
      c->unread_answers = 0;
    }
    c->in.append(buf, n);
  }
}

// Parses the head buffered in c->in and starts its answer; false when it is incomplete.
bool Server::Loop::Process(ServerConnection* c) {
  ParsedHead parsed = ParseRequestHead(c->in, cfg_.limits.request);
  if (parsed.kind == ParsedHead::Kind::kIncomplete) return false;
  if (parsed.kind == ParsedHead::Kind::kBad) {
    http_log::Debug("HTTP request refused", {{"client", c->client},
                                             {"status", std::to_string(parsed.status)},
                                             {"reason", parsed.reason}});
    c->in.clear();
    Refuse(c, parsed.status, parsed.reason);
    return true;
  }
  c->in.erase(0, parsed.consumed);
  c->request = std::move(parsed.head);
  c->served += 1;
  stats_.requests += 1;
  c->head_only = c->request.method == "HEAD";
  // A request body is never read: answer, then close rather than parse it as the next
  // request (what it still sends is dropped in kDrain).
  c->keep_alive = c->request.WantsKeepAlive() && !c->request.HasBody() && !stopping_ &&
                  c->served < cfg_.limits.max_requests_per_connection;
  c->config = cfg_.web_config ? cfg_.web_config->Current() : nullptr;
  if (c->config == nullptr || c->config->config.users.empty()) {
    Authorized(c, true);
    return true;
  }
  const std::string* header = c->request.Header("authorization");
  auto credentials = header != nullptr ? ParseBasicAuthorization(*header) : std::nullopt;
  if (!credentials) {
    Authorized(c, false);
    return true;
  }
  if (auth_->CachedAllows(c->config->config.users, *credentials)) {
    Authorized(c, true);
    return true;
  }
  Authenticate(c, std::move(*credentials));
  return true;
}

// bcrypt, off the loop: the connection holds no thread while it waits. Each client address
// has a share of the pool, and credentials that succeeded before have room kept and go
// first, so a flood of wrong passwords from anywhere delays a known scraper by one check.
void Server::Loop::Authenticate(ServerConnection* c, BasicCredentials credentials) {
  const ServerLimits& l = cfg_.limits;
  const bool known = auth_->SucceededBefore(c->config->config.users, credentials);
  std::size_t& mine = auth_per_client_[c->client];
  const std::size_t open_room =
      l.max_queued_auth > l.auth_reserved ? l.max_queued_auth - l.auth_reserved : 1;
  const bool room = known ? auth_outstanding_ < std::max(l.max_queued_auth, open_room)
                          : auth_outstanding_ < open_room &&
                                mine < std::max<std::size_t>(1, l.max_auth_per_client);
  if (!room) {
    if (mine == 0) auth_per_client_.erase(c->client);
    OPENSSL_cleanse(credentials.password.data(), credentials.password.size());
    stats_.busy += 1;
    Refuse(c, 503, "too many authentication checks in progress");
    return;
  }
  c->state = State::kAuth;
  c->deadline = Clock::time_point::max();
  Interest(c, 0);
  const bool queued = auth_pool_->TrySubmit(
      [mailbox = mailbox_, auth = auth_, config = c->config, id = c->id, client = c->client,
       creds = std::move(credentials)]() mutable {
        Completion done;
        done.conn = id;
        done.client = std::move(client);
        done.auth = true;
        done.allowed = auth->Verify(config->config.users, creds);
        OPENSSL_cleanse(creds.password.data(), creds.password.size());
        mailbox->Post(std::move(done));
      },
      known);
  if (!queued) {
    if (mine == 0) auth_per_client_.erase(c->client);
    stats_.busy += 1;
    Refuse(c, 503, "too many authentication checks in progress");
    return;
  }
  mine += 1;
  auth_outstanding_ += 1;
}

void Server::Loop::Authorized(ServerConnection* c, bool allowed) {
  const Router::Decision d = cfg_.router.Decide(c->request.method, c->request.path, allowed);
  if (d.route != Route::kServe) {
    Answer(c, RouteResponse(d.route, cfg_.realm));
    return;
  }
  const RouteSpec& spec = *d.spec;
  if (spec.offload && c->head_only) {
    // HEAD: the headers a GET would carry, without running the expensive handler for it.
    HttpResponse r;
    r.headers = spec.head_headers;
    Answer(c, std::move(r), false);
    return;
  }
  if (!spec.offload) {
    HttpResponse r = spec.handler(c->request);
    if (spec.compress) MaybeCompress(r, c->request);
    Answer(c, std::move(r));
    return;
  }
  c->state = State::kWork;
  c->deadline = Clock::time_point::max();
  Interest(c, 0);
  const bool queued =
      work_->TrySubmit([mailbox = mailbox_, handler = spec.handler, compress = spec.compress,
                        request = c->request, id = c->id] {
        Completion done;
        done.conn = id;
        try {
          done.response = handler(request);
          if (compress) MaybeCompress(done.response, request);
        } catch (const std::exception& ex) {
          http_log::Error("HTTP handler failed", {{"path", request.path}, {"error", ex.what()}});
          done.response = HttpResponse{500,
                                       {{"Content-Type", "text/plain; charset=utf-8"}},
                                       "Internal Server Error\n",
                                       nullptr,
                                       nullptr};
        }
        std::shared_ptr<const void> release = std::move(done.response.release_after);
        mailbox->Post(std::move(done));
        release.reset();
      });
  if (!queued) {
    stats_.busy += 1;
    Refuse(c, 503, "too many requests in progress");
  }
}

void Server::Loop::Mail() {
  std::uint64_t count = 0;
  (void)::read(mailbox_->event_fd, &count, sizeof count);
  std::vector<Completion> items;
  {
    std::lock_guard<std::mutex> lock(mailbox_->mu);
    items.swap(mailbox_->items);
  }
  for (Completion& done : items) {
    if (done.auth) {
      auth_outstanding_ -= 1;
      if (auto share = auth_per_client_.find(done.client);
          share != auth_per_client_.end() && --share->second == 0)
        auth_per_client_.erase(share);
    }
    auto it = by_id_.find(done.conn);
    if (it == by_id_.end()) continue;  // closed meanwhile: the answer is dropped
    ServerConnection* c = it->second;
    if (done.auth && c->state == State::kAuth) {
      Authorized(c, done.allowed);
    } else if (!done.auth && c->state == State::kWork) {
      Answer(c, std::move(done.response));
    }
  }
}

void Server::Loop::Refuse(ServerConnection* c, int status, const std::string& reason) {
  HttpResponse r;
  r.status = status;
  r.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
  if (status == 503) r.headers.emplace_back("Retry-After", "1");
  r.body = std::string(StatusText(status)) + ": " + reason + "\n";
  c->keep_alive = false;
  c->head_only = false;
  Answer(c, std::move(r));
}

void Server::Loop::Answer(ServerConnection* c, HttpResponse r, bool with_length) {
  static const HeaderList kNone;
  const auto now = Clock::now();
  // A run of pipelined answers shares one write deadline; a client that let too many of
  // them wait gets this one as its last.
  if (!c->run_deadline) c->run_deadline = now + cfg_.limits.write_timeout;
  if (c->unread_answers >= cfg_.limits.max_unread_answers) c->keep_alive = false;
  const std::optional<std::size_t> length =
      with_length ? std::optional<std::size_t>(r.Body().size()) : std::nullopt;
  c->out_head =
      ResponseHead(r, length, c->keep_alive, c->config ? c->config->config.headers : kNone);
  c->out = std::move(r);
  c->off = 0;
  c->state = State::kWrite;
  c->deadline = *c->run_deadline;
  c->write_blocked = false;
  c->last_progress = now;
  Write(c);
}

void Server::Loop::Write(ServerConnection* c) {
  for (;;) {
    std::string_view chunk;
    if (c->off < c->out_head.size()) {
      chunk = std::string_view(c->out_head).substr(c->off);
    } else if (!c->head_only && c->off - c->out_head.size() < c->out.Body().size()) {
      chunk = c->out.Body().substr(c->off - c->out_head.size());
    } else {
      Finished(c);
      return;
    }
    std::size_t n = 0;
    const Io r = WriteSome(c, chunk.data(), chunk.size(), &n);
    if (r == Io::kOk) {
      c->off += n;
      if (n > 0) c->last_progress = Clock::now();
      continue;
    }
    if (r == Io::kWantWrite) {
      c->write_blocked = true;
      Interest(c, EPOLLOUT);
      return;
    }
    if (r == Io::kWantRead) {
      Interest(c, EPOLLIN);
      return;
    }
    Close(c);
    return;
  }
}

void Server::Loop::Finished(ServerConnection* c) {
  c->out = HttpResponse{};
  c->out_head.clear();
  c->off = 0;
  c->config.reset();
  const auto now = Clock::now();
  if (c->keep_alive) {
    c->since = now;
    c->unread_answers = c->write_blocked ? c->unread_answers + 1 : 0;
    if (c->in.empty()) {
      c->state = State::kIdle;
      c->deadline = now + cfg_.limits.idle_timeout;
      c->run_deadline.reset();
      c->unread_answers = 0;
    } else {
      c->state = State::kHead;  // pipelined: the next head is (partly) here
      c->deadline = now + cfg_.limits.header_timeout;
    }
    Interest(c, EPOLLIN);
    // Bytes already read (or inside OpenSSL) raise no event: look at them on this turn.
    if (!c->in.empty() || (c->ssl != nullptr && SSL_pending(c->ssl) > 0)) ready_.push_back(c->id);
    return;
  }
  // Connection: close (asked for, or ours): close our direction, then drop what the client
  // still sends for a moment, so that closing with unread data does not reset the
  // connection under the answer before the client has read it.
  if (c->ssl != nullptr) {
    ERR_clear_error();
    SSL_shutdown(c->ssl);
    ERR_clear_error();
  }
  ::shutdown(c->fd, SHUT_WR);
  c->state = State::kDrain;
  c->since = now;
  c->deadline = now + cfg_.limits.body_timeout;
  c->drained = 0;
  Interest(c, EPOLLIN);
}

void Server::Loop::Drain(ServerConnection* c) {
  char sink[kReadChunk];
  for (;;) {
    const ssize_t got = ::recv(c->fd, sink, sizeof sink, 0);
    if (got > 0) {
      c->drained += static_cast<std::size_t>(got);
      if (c->drained > kMaxDrain) break;
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    break;
  }
  Close(c);
}

void Server::Loop::Sweep() {
  const auto now = Clock::now();
  if (now < next_sweep_) return;
  next_sweep_ = now + std::chrono::milliseconds(50);
  if (accept_paused_ && now >= accept_resume_) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listen_fd_;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &ev);
    accept_paused_ = false;
  }
  std::vector<std::uint64_t> expired;
  for (auto& [fd, c] : conns_) {
    const bool stuck = c->state == State::kWrite && c->write_blocked &&
                       now - c->last_progress >= cfg_.limits.stall_timeout;
    if (now >= c->deadline || stuck) expired.push_back(c->id);
  }
  for (std::uint64_t id : expired) {
    auto it = by_id_.find(id);
    if (it == by_id_.end()) continue;
    ServerConnection* c = it->second;
    stats_.timed_out += 1;
    if (c->state == State::kHead && !c->in.empty()) {
      // A head that did not arrive in time (slowloris): say so, briefly, and close.
      c->in.clear();
      Refuse(c, 408, "request head not received in time");
      if (Alive(id) && c->state == State::kWrite) c->deadline = now + std::chrono::seconds(1);
      continue;
    }
    Abort(c);
  }
}

Result<std::unique_ptr<Server>> Server::Start(ServerConfig config) {
  if (config.web_config && config.web_config->tls() && !config.web_config->Current()->tls)
    return Error{"HTTPS server started without a TLS configuration"};
  auto loop = std::make_shared<Loop>(std::move(config));
  Status opened = loop->Open();
  if (!opened.ok()) return opened.error();
  std::unique_ptr<Server> server(new Server());
  server->loop_ = loop;
  // The loop thread takes no signals (the binaries wait for theirs on their main thread).
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  server->thread_ = std::thread([loop] { loop->Run(); });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return server;
}

Server::~Server() {
  if (!loop_) return;
  loop_->Stop();
  if (thread_.joinable()) thread_.join();
}

int Server::port() const { return loop_->port_; }
bool Server::tls() const { return loop_->tls_; }

ServerStats Server::stats() const {
  ServerStats s;
  s.connections = loop_->stats_.connections;
  s.refused = loop_->stats_.refused;
  s.evicted = loop_->stats_.evicted;
  s.timed_out = loop_->stats_.timed_out;
  s.handshake_failures = loop_->stats_.handshake_failures;
  s.requests = loop_->stats_.requests;
  s.busy = loop_->stats_.busy;
  return s;
}

}  // namespace rocewatch::http
