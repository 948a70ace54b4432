#pragma once

// A raw HTTP/1.1 client for the in-process server tests: a socket from a chosen loopback
// address, byte-exact sends (split where the test says), and answers read back one by one
// (status, headers, Content-Length body). Every wait is bounded by poll, so a server that
// does not answer fails the test instead of hanging it. TLS through OpenSSL on memory BIOs,
// so the test decides how the record bytes are cut into TCP segments.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>

namespace rocewatch::http::testing {

struct Answer {
  int status = 0;
  std::string head;
  std::string body;
};

class TestClient {
 public:
  // Connects from `from` (any 127.0.0.0/8 address) to 127.0.0.1:port; rcvbuf > 0 sets
  // SO_RCVBUF before the connect (a small receive window: a client that reads slowly).
  TestClient(int port, const char* from = "127.0.0.1", int rcvbuf = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (rcvbuf > 0) ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, from, &local.sin_addr);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0;
  }
  ~TestClient() {
    if (ssl_ != nullptr) SSL_free(ssl_);
    if (ctx_ != nullptr) SSL_CTX_free(ctx_);
    if (fd_ >= 0) ::close(fd_);
  }
  TestClient(const TestClient&) = delete;
  TestClient& operator=(const TestClient&) = delete;

  bool connected() const { return connected_; }
  int fd() const { return fd_; }

  // TLS from here on (no certificate check: the tests' certificates are self-signed).
  // `segment`: the most bytes of TLS records sent in one TCP send (1: every byte alone).
  bool StartTls(std::size_t segment = 1 << 20) {
    segment_ = segment;
    ctx_ = SSL_CTX_new(TLS_client_method());
    ssl_ = SSL_new(ctx_);
    SSL_set_bio(ssl_, BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()));
    SSL_set_connect_state(ssl_);
    for (int round = 0; round < 200; ++round) {
      ERR_clear_error();
      const int r = SSL_do_handshake(ssl_);
      if (!Flush()) return false;
      if (r == 1) return true;
      if (SSL_get_error(ssl_, r) != SSL_ERROR_WANT_READ || !Fill()) return false;
    }
    return false;
  }

  // Sends `data` in pieces of at most `piece` bytes, each its own send (or TLS record).
  bool Send(const std::string& data, std::size_t piece = 1 << 30) {
    for (std::size_t off = 0; off < data.size();) {
      const std::size_t n = std::min(piece, data.size() - off);
      if (!SendRaw(data.data() + off, n)) return false;
      off += n;
    }
    return true;
  }
  bool SendRaw(const char* p, std::size_t n) {
    if (ssl_ == nullptr) return WriteFd(p, n);
    if (SSL_write(ssl_, p, static_cast<int>(n)) != static_cast<int>(n)) return false;
    return Flush();
  }

  // The next answer (empty status 0 when the connection ended first or nothing came in
  // `timeout_ms`). HEAD answers and 1xx are not expected by these tests.
  Answer Read(int timeout_ms = 20000) {
    Answer a;
    std::size_t head_end;
    while ((head_end = buf_.find("\r\n\r\n")) == std::string::npos) {
      if (!More(timeout_ms)) return a;
    }
    a.head = buf_.substr(0, head_end + 4);
    buf_.erase(0, head_end + 4);
    if (a.head.size() < 12 || a.head.compare(0, 5, "HTTP/") != 0) return a;
    std::size_t length = 0;
    const std::size_t cl = a.head.find("Content-Length: ");
    if (cl != std::string::npos) length = std::stoul(a.head.substr(cl + 16));
    while (buf_.size() < length) {
      if (!More(timeout_ms)) return Answer{};
    }
    a.body = buf_.substr(0, length);
    buf_.erase(0, length);
    a.status = std::stoi(a.head.substr(9, 3));
    return a;
  }

  // Whether the server closed the connection (EOF or reset) within `timeout_ms`, after what
  // was already read.
  bool Closed(int timeout_ms = 20000) {
    while (More(timeout_ms)) {
    }
    return eof_;
  }

 private:
  bool WriteFd(const char* p, std::size_t n) {
    while (n > 0) {
      const ssize_t put = ::send(fd_, p, n, MSG_NOSIGNAL);
      if (put <= 0) return false;
      p += put;
      n -= static_cast<std::size_t>(put);
    }
    return true;
  }
  // TLS: what OpenSSL wrote, onto the socket in segments.
  bool Flush() {
    char out[16384];
    BIO* w = SSL_get_wbio(ssl_);
    int n;
    while ((n = BIO_read(w, out, sizeof out)) > 0) {
      for (int off = 0; off < n;) {
        const int piece =
            static_cast<int>(std::min<std::size_t>(segment_, static_cast<std::size_t>(n - off)));
        if (!WriteFd(out + off, static_cast<std::size_t>(piece))) return false;
        off += piece;
      }
    }
    return true;
  }
  bool RecvSome(std::string* into, int timeout_ms) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    char chunk[16384];
    const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got <= 0) {
      eof_ = true;
      return false;
    }
    into->append(chunk, static_cast<std::size_t>(got));
    return true;
  }
  bool Fill() {
    std::string raw;
    if (!RecvSome(&raw, 20000)) return false;
    BIO_write(SSL_get_rbio(ssl_), raw.data(), static_cast<int>(raw.size()));
    return true;
  }
  // More plaintext into buf_; false at the end or after timeout_ms without any.
  bool More(int timeout_ms) {
    if (ssl_ == nullptr) return RecvSome(&buf_, timeout_ms);
    for (;;) {
      char chunk[16384];
      ERR_clear_error();
      const int n = SSL_read(ssl_, chunk, sizeof chunk);
      if (n > 0) {
        buf_.append(chunk, static_cast<std::size_t>(n));
        return true;
      }
      if (SSL_get_error(ssl_, n) != SSL_ERROR_WANT_READ) {
        eof_ = true;
        return false;
      }
      std::string raw;
      if (!RecvSome(&raw, timeout_ms)) return false;
      BIO_write(SSL_get_rbio(ssl_), raw.data(), static_cast<int>(raw.size()));
    }
  }

  int fd_ = -1;
  bool connected_ = false;
  bool eof_ = false;
  std::string buf_;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  std::size_t segment_ = 1 << 20;
};

}  // namespace rocewatch::http::testing
