#include "http/server_loop.h"

namespace rocewatch::http {

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

}  // namespace rocewatch::http
