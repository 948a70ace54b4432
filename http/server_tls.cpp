#include "http/server_loop.h"

namespace rocewatch::http {

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

}  // namespace rocewatch::http
