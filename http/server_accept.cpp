#include "http/server_loop.h"

namespace rocewatch::http {

// Whether `c` holds answers its client does not read: no write progress for stall_grace
// while an answer waits (being written, or in the kernel's send queue).
bool Server::Loop::Stalled(const ServerConnection& c, Clock::time_point now) const {
  if (now - c.last_progress < cfg_.limits.stall_grace) return false;
  if (c.state == State::kWrite && c.write_blocked) return true;
  int queued = 0;
  return ::ioctl(c.fd, SIOCOUTQ, &queued) == 0 && queued > 0;
}

// Whether `c`'s client leaves answers unread right now: its answer waits for the client to
// read, an earlier pipelined one did (unread_answers), or bytes of an earlier answer still
// wait in the kernel's send queue (unsent or unacknowledged) while the next one is prepared or
// written. A client that reads is never here for long; one that pipelines and never reads is
// here from its second answer. Only more than the current answer's bytes (TLS adds under 1%
// to them) counts, and only for a connection that is not waiting for its client (those have
// their own place in the order).
bool Server::Loop::LeavesAnswersUnread(const ServerConnection& c) const {
  if (c.unread_answers > 0 || (c.state == State::kWrite && c.write_blocked)) return true;
  if (c.state != State::kWork && c.state != State::kWrite && c.state != State::kAuth) return false;
  int queued = 0;
  if (::ioctl(c.fd, SIOCOUTQ, &queued) != 0 || queued <= 0) return false;
  const std::size_t current = c.state == State::kWrite ? c.off : 0;
  return static_cast<std::size_t>(queued) > current + current / 64 + 1024;
}

// Closes the connection of the scope (one client's, or all) with the weakest claim, judged by
// its progress: a stalled one first (the longest without progress), then one that leaves
// answers unread (the longest without progress), then the one waiting longest for its client.
// A connection whose answers are read and that is not waiting for its client is never chosen.
bool Server::Loop::Evict(const std::string* client) {
  const auto now = Clock::now();
  ServerConnection* stalled = nullptr;
  ServerConnection* unread = nullptr;
  ServerConnection* waiting = nullptr;
  for (auto& [fd, c] : conns_) {
    if (client != nullptr && c->client != *client) continue;
    if (Stalled(*c, now)) {
      if (stalled == nullptr || c->last_progress < stalled->last_progress) stalled = c.get();
    } else if (LeavesAnswersUnread(*c)) {
      if (unread == nullptr || c->last_progress < unread->last_progress) unread = c.get();
    } else if (c->Waiting() && (waiting == nullptr || c->since < waiting->since)) {
      waiting = c.get();
    }
  }
  ServerConnection* victim = stalled != nullptr ? stalled : unread != nullptr ? unread : waiting;
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

}  // namespace rocewatch::http
