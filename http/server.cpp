#include "http/server_loop.h"

namespace rocewatch::http {

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
