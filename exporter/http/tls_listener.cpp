#include "http/tls_listener.h"
#include "http/metrics_response.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <prometheus/counter.h>
#include <prometheus/registry.h>
#include <prometheus/summary.h>
#include <prometheus/text_serializer.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <system_error>

#include "http/gzip.h"
#include "http/routes.h"
#include "http/scrape_timeout.h"
#include "util/log.h"

namespace rocewatch::http {
namespace {

using Clock = std::chrono::steady_clock;

enum class Io { kOk, kClosed, kTimeout, kError };

// Waits until `fd` is ready for `events` (or hung up) or `deadline` passes.
bool WaitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
    if (r < 0 && errno == EINTR) continue;
    return r > 0;
  }
}

// Runs one non-blocking OpenSSL call until it completes, waiting on the socket as it asks.
template <class Op>
Io Drive(SSL* ssl, int fd, Clock::time_point deadline, Op op, int* result, std::string* why) {
  for (;;) {
    ERR_clear_error();
    errno = 0;
    const int r = op();
    if (r > 0) {
      *result = r;
      return Io::kOk;
    }
    const int err = SSL_get_error(ssl, r);
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
      if (!WaitFor(fd, err == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline))
        return Io::kTimeout;
      continue;
    }
    if (err == SSL_ERROR_ZERO_RETURN) return Io::kClosed;
    if (err == SSL_ERROR_SYSCALL && errno == 0 && ERR_peek_error() == 0) return Io::kClosed;
    if (why != nullptr) {
      const unsigned long e = ERR_peek_error();
      if (e != 0) {
        const char* reason = ERR_reason_error_string(e);
        *why = reason != nullptr ? reason : "OpenSSL error";
      } else {
        *why = std::strerror(errno != 0 ? errno : EIO);
      }
    }
    return Io::kError;
  }
}

std::string PeerOf(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return "?";
  char host[INET6_ADDRSTRLEN] = {};
  int port = 0;
  if (ss.ss_family == AF_INET) {
    auto* in = reinterpret_cast<sockaddr_in*>(&ss);
    ::inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
    port = ntohs(in->sin_port);
    return std::string(host) + ":" + std::to_string(port);
  }
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&ss);
  ::inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
  port = ntohs(in6->sin6_port);
  return "[" + std::string(host) + "]:" + std::to_string(port);
}

// After a final answer: close our direction, then read and drop what the client is still
// sending (bounded in bytes and time), so that closing with unread data does not reset the
// connection under the answer before the client has read it.
void DrainAndClose(int fd) {
  ::shutdown(fd, SHUT_WR);
  char sink[16 * 1024];
  std::size_t drained = 0;
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  while (drained < (4u << 20) && WaitFor(fd, POLLIN, deadline)) {
    const ssize_t got = ::recv(fd, sink, sizeof sink, 0);
    if (got <= 0) break;
    drained += static_cast<std::size_t>(got);
  }
}

Result<int> BindListener(const ListenAddress& addr) {
  auto fd = BindSocket(addr);
  if (!fd) return fd.error();
  if (::listen(*fd, 128) != 0) {
    const int err = errno;
    ::close(*fd);
    return Error{"cannot listen on " + addr.ToString() + ": " + std::strerror(err), err};
  }
  return *fd;
}

}  // namespace

class TlsListener::State {
 public:
  State(TlsListenerOptions options, std::shared_ptr<WebConfigReloader> reloader,
        std::shared_ptr<BasicAuthenticator> auth, std::shared_ptr<ScrapeCoalescer> metrics)
      : options_(std::move(options)),
        reloader_(std::move(reloader)),
        auth_(std::move(auth)),
        metrics_(std::move(metrics)) {}

  ~State() {
    if (listen_fd_ >= 0) ::close(listen_fd_);
    if (wake_fd_ >= 0) ::close(wake_fd_);
  }

  TlsListenerOptions options_;
  std::shared_ptr<WebConfigReloader> reloader_;
  std::shared_ptr<BasicAuthenticator> auth_;
  std::shared_ptr<ScrapeCoalescer> metrics_;

  int listen_fd_ = -1;
  int wake_fd_ = -1;
  int port_ = 0;

  std::mutex mu_;
  std::condition_variable done_cv_;
  bool stopping_ = false;
  int active_ = 0;
  std::set<int> open_fds_;  // every connection's socket (shut down on stop)
  // Connections waiting for their client (handshake, request head, keep-alive) and since
  // when: when the listener is full, the one waiting longest is closed to make room. A
  // connection is taken out while its request is answered.
  std::map<int, Clock::time_point> waiting_;

  std::atomic<std::uint64_t> connections_{0}, handshake_failures_{0}, refused_{0}, evicted_{0},
      requests_{0};

  void AcceptLoop(const std::shared_ptr<State>& self);
  void Serve(int fd);
  void Finish(int fd);

 private:
  // Takes `fd` out of waiting_ to answer a request; false when it was evicted meanwhile.
  bool StartAnswering(int fd);
  void DoneAnswering(int fd);
  // Writes the response to `head`; false when the connection must close.
  bool Respond(SSL* ssl, int fd, const RequestHead& head, bool keep_alive);
  void Refuse(SSL* ssl, int fd, int status, const std::string& reason);
};

void TlsListener::State::AcceptLoop(const std::shared_ptr<State>& self) {
  // A peer that resets the connection must not raise SIGPIPE in a write: the connection
  // threads inherit this mask, and their writes answer EPIPE instead.
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      log::Error("TLS listener: poll failed", {{"error", std::strerror(errno)}});
      return;
    }
    if (fds[1].revents != 0) return;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        log::Warn("TLS listener: cannot accept", {{"error", std::strerror(errno)}});
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      continue;
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) {
        ::close(fd);
        return;
      }
      if (active_ >= options_.max_connections) {
        if (waiting_.empty()) {
          ::close(fd);
          refused_ += 1;
          continue;
        }
        // Make room: the thread of the connection that waited longest for its client sees
        // the shutdown and closes it. Slow or silent clients cannot hold every slot.
        auto victim = waiting_.begin();
        for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
          if (it->second < victim->second) victim = it;
        }
        ::shutdown(victim->first, SHUT_RDWR);
        waiting_.erase(victim);
        evicted_ += 1;
      }
      active_ += 1;
      open_fds_.insert(fd);
      waiting_[fd] = Clock::now();
    }
    try {
      std::thread([self, fd] {
        self->Serve(fd);
        self->Finish(fd);
      }).detach();
    } catch (const std::system_error& ex) {
      log::Warn("TLS listener: cannot start a connection thread", {{"error", ex.what()}});
      Finish(fd);
    }
  }
}

void TlsListener::State::Finish(int fd) {
  std::lock_guard<std::mutex> lock(mu_);
  open_fds_.erase(fd);
  waiting_.erase(fd);
  ::close(fd);  // under the lock: the acceptor never shuts down a reused descriptor number
  active_ -= 1;
  done_cv_.notify_all();
}

bool TlsListener::State::StartAnswering(int fd) {
  std::lock_guard<std::mutex> lock(mu_);
  return waiting_.erase(fd) == 1 && !stopping_;
}

void TlsListener::State::DoneAnswering(int fd) {
  std::lock_guard<std::mutex> lock(mu_);
  waiting_[fd] = Clock::now();
}

void TlsListener::State::Serve(int fd) {
  connections_ += 1;
  std::shared_ptr<const ActiveWebConfig> config = reloader_->Current();
  if (config->tls == nullptr) return;
  // The context stays alive as long as this connection, whatever reloads happen meanwhile.
  const std::shared_ptr<TlsContext> tls = config->tls;
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(tls->ssl_ctx()), &SSL_free);
  if (!ssl || SSL_set_fd(ssl.get(), fd) != 1) return;

  int ignored = 0;
  std::string why;
  const Io hs = Drive(
      ssl.get(), fd, Clock::now() + options_.handshake_timeout,
      [&] { return SSL_accept(ssl.get()); }, &ignored, &why);
  if (hs != Io::kOk) {
    handshake_failures_ += 1;
    const unsigned long e = ERR_peek_error();
    if (hs == Io::kError && ERR_GET_LIB(e) == ERR_LIB_SSL &&
        ERR_GET_REASON(e) == SSL_R_HTTP_REQUEST) {
      // Plain HTTP sent to the TLS port: say so in plain text, as Go's net/http does. The
      // request itself is never served.
      static constexpr std::string_view kReply =
          "HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: "
          "close\r\n\r\n"
          "Client sent an HTTP request to an HTTPS server.\n";
      (void)::send(fd, kReply.data(), kReply.size(), MSG_NOSIGNAL);
      DrainAndClose(fd);
    }
    ERR_clear_error();
    log::Debug("TLS handshake failed", {{"peer", PeerOf(fd)},
                                        {"error", hs == Io::kTimeout  ? "timeout"
                                                  : hs == Io::kClosed ? "closed by the peer"
                                                                      : why}});
    return;
  }

  std::string buffer;
  int served = 0;
  auto head_deadline = Clock::now() + options_.request_timeout;
  for (;;) {
    ParsedHead parsed = ParseRequestHead(buffer, options_.limits);
    if (parsed.kind == ParsedHead::Kind::kIncomplete) {
      if (buffer.empty() && served > 0 && SSL_pending(ssl.get()) == 0) {
        // Keep-alive: wait for the next request (evictable, see waiting_).
        if (!WaitFor(fd, POLLIN, Clock::now() + options_.idle_timeout)) break;
        head_deadline = Clock::now() + options_.request_timeout;
      }
      char chunk[16 * 1024];
      int n = 0;
      const Io r = Drive(
          ssl.get(), fd, head_deadline, [&] { return SSL_read(ssl.get(), chunk, sizeof chunk); },
          &n, nullptr);
      if (r == Io::kTimeout && !buffer.empty()) {
        Refuse(ssl.get(), fd, 408, "request head not received in time");
        break;
      }
      if (r != Io::kOk) break;
      buffer.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (parsed.kind == ParsedHead::Kind::kBad) {
      log::Debug("HTTPS request refused", {{"peer", PeerOf(fd)},
                                           {"status", std::to_string(parsed.status)},
                                           {"reason", parsed.reason}});
      Refuse(ssl.get(), fd, parsed.status, parsed.reason);
      break;
    }
    buffer.erase(0, parsed.consumed);
    if (!StartAnswering(fd)) break;
    served += 1;
    requests_ += 1;
    bool stopping;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping = stopping_;
    }
    // A request body is never read: answer, then close rather than parse the body as the
    // next request.
    const bool keep_alive = parsed.head.WantsKeepAlive() && !parsed.head.HasBody() && !stopping &&
                            served < options_.max_requests_per_connection;
    const bool written = Respond(ssl.get(), fd, parsed.head, keep_alive);
    DoneAnswering(fd);
    if (!written || !keep_alive) break;
  }
  ERR_clear_error();
  SSL_shutdown(ssl.get());  // one try at close_notify; the socket is non-blocking
  ERR_clear_error();
}

void TlsListener::State::Refuse(SSL* ssl, int fd, int status, const std::string& reason) {
  HttpResponse r;
  r.status = status;
  r.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
  r.body = std::string(StatusText(status)) + ": " + reason + "\n";
  std::string out = ResponseHead(r, r.body.size(), false, {}) + r.body;
  int n = 0;
  std::size_t off = 0;
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (off < out.size()) {
    if (Drive(
            ssl, fd, deadline,
            [&] { return SSL_write(ssl, out.data() + off, static_cast<int>(out.size() - off)); },
            &n, nullptr) != Io::kOk)
      return;
    off += static_cast<std::size_t>(n);
  }
  ERR_clear_error();
  SSL_shutdown(ssl);
  ERR_clear_error();
  DrainAndClose(fd);
}

bool TlsListener::State::Respond(SSL* ssl, int fd, const RequestHead& head, bool keep_alive) {
  std::shared_ptr<const ActiveWebConfig> config = reloader_->Current();
  const std::string* authorization = head.Header("authorization");
  const bool authorized = auth_->Allows(
      config->config.users, authorization != nullptr ? authorization->c_str() : nullptr);
  const Route route = RouteRequest(head.method, head.path, options_.telemetry_path, authorized);
  const bool head_only = head.method == "HEAD";

  HttpResponse response;
  std::optional<std::size_t> content_length;
  if (route == Route::kMetrics && head_only) {
    // HEAD answers what a GET would carry, without running a collection for it.
    response.headers.emplace_back("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  } else if (route == Route::kMetrics) {
    const std::string* timeout = head.Header("x-prometheus-scrape-timeout-seconds");
    SetCurrentScrapeTimeout(timeout != nullptr ? ParseScrapeTimeout(*timeout) : std::nullopt);
    const std::string* accept = head.Header("accept-encoding");
    response = MetricsResponse(*metrics_, accept != nullptr ? std::optional<std::string_view>(*accept)
                                                            : std::nullopt);
    SetCurrentScrapeTimeout(std::nullopt);
    content_length = response.Body().size();
  } else {
    response = RouteResponse(route, options_.landing_page);
    content_length = response.body.size();
  }
  // The head, then the body where it lies (a shared pass text is not copied).
  const std::string head_text =
      ResponseHead(response, content_length, keep_alive, config->config.headers);
  const std::string_view body = head_only ? std::string_view() : response.Body();

  const auto deadline = Clock::now() + options_.write_timeout;
  for (const std::string_view out : {std::string_view(head_text), body}) {
    std::size_t off = 0;
    while (off < out.size()) {
      int n = 0;
      if (Drive(
              ssl, fd, deadline,
              [&] {
                return SSL_write(ssl, out.data() + off,
                                 static_cast<int>(std::min<std::size_t>(out.size() - off, 1 << 20)));
              },
              &n, nullptr) != Io::kOk)
        return false;
      off += static_cast<std::size_t>(n);
    }
  }
  return true;
}

Result<std::unique_ptr<TlsListener>> TlsListener::Start(
    const TlsListenerOptions& options, std::shared_ptr<WebConfigReloader> reloader,
    std::shared_ptr<BasicAuthenticator> auth, std::shared_ptr<ScrapeCoalescer> metrics) {
  if (!reloader || !reloader->tls())
    return Error{"TLS listener started without a TLS configuration"};
  auto state =
      std::make_shared<State>(options, std::move(reloader), std::move(auth), std::move(metrics));
  auto fd = BindListener(options.listen);
  if (!fd) return fd.error();
  state->listen_fd_ = *fd;
  state->wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (state->wake_fd_ < 0) return Error{std::string("eventfd: ") + std::strerror(errno), errno};
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getsockname(*fd, reinterpret_cast<sockaddr*>(&ss), &len);
  state->port_ = ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port)
                                          : ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  std::unique_ptr<TlsListener> listener(new TlsListener());
  listener->state_ = state;
  listener->acceptor_ = std::thread([state] { state->AcceptLoop(state); });
  return listener;
}

TlsListener::~TlsListener() {
  if (!state_) return;
  {
    std::lock_guard<std::mutex> lock(state_->mu_);
    state_->stopping_ = true;
  }
  const std::uint64_t one = 1;
  (void)::write(state_->wake_fd_, &one, sizeof one);
  if (acceptor_.joinable()) acceptor_.join();
  std::unique_lock<std::mutex> lock(state_->mu_);
  for (int fd : state_->open_fds_) ::shutdown(fd, SHUT_RDWR);
  // A connection in the middle of a scrape finishes it (bounded by the collectors' timeout);
  // its thread holds the state, so giving up waiting is safe.
  state_->done_cv_.wait_for(lock, std::chrono::seconds(30),
                            [this] { return state_->active_ == 0; });
}

int TlsListener::port() const { return state_->port_; }

TlsListenerStats TlsListener::stats() const {
  TlsListenerStats s;
  s.connections = state_->connections_;
  s.handshake_failures = state_->handshake_failures_;
  s.refused = state_->refused_;
  s.evicted = state_->evicted_;
  s.requests = state_->requests_;
  return s;
}

}  // namespace rocewatch::http
