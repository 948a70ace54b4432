#include "http/listen_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rocewatch/strings.h"

namespace rocewatch::http {

std::string ListenAddress::ToString() const {
  if (ipv6) return "[" + host + "]:" + std::to_string(port);
  return (host.empty() ? "0.0.0.0" : host) + ":" + std::to_string(port);
}

Result<ListenAddress> ParseListenAddress(std::string_view text) {
  auto bad = [&](std::string why) {
    return Error{"--web.listen-address=" + std::string(text) + ": " + why +
                 " (expected HOST:PORT, :PORT or [IPv6]:PORT)"};
  };
  ListenAddress a;
  std::string_view port_text;
  if (!text.empty() && text.front() == '[') {
    auto close = text.find("]:");
    if (close == std::string_view::npos) return bad("missing ]:PORT");
    a.host = std::string(text.substr(1, close - 1));
    a.ipv6 = true;
    port_text = text.substr(close + 2);
    in6_addr tmp{};
    if (::inet_pton(AF_INET6, a.host.c_str(), &tmp) != 1) return bad("not an IPv6 address");
  } else {
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return bad("missing :PORT");
    a.host = std::string(text.substr(0, colon));
    port_text = text.substr(colon + 1);
    if (a.host == "0.0.0.0") a.host.clear();
    if (a.host == "localhost") a.host = "127.0.0.1";
    in_addr tmp{};
    if (!a.host.empty() && ::inet_pton(AF_INET, a.host.c_str(), &tmp) != 1)
      return bad("not an IPv4 address");
  }
  auto port = ParseU64(port_text);
  if (!port || *port > 65535) return bad("invalid port " + Quote(port_text));
  a.port = static_cast<int>(*port);
  return a;
}

Result<int> BindSocket(const ListenAddress& addr) {
  int fd = ::socket(addr.ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Error{std::string("socket: ") + std::strerror(errno), errno};
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  int rc;
  if (addr.ipv6) {
    sockaddr_in6 sa{};
    sa.sin6_family = AF_INET6;
    sa.sin6_port = htons(static_cast<std::uint16_t>(addr.port));
    ::inet_pton(AF_INET6, addr.host.c_str(), &sa.sin6_addr);
    rc = ::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
  } else {
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<std::uint16_t>(addr.port));
    sa.sin_addr.s_addr = htonl(INADDR_ANY);
    if (!addr.host.empty()) ::inet_pton(AF_INET, addr.host.c_str(), &sa.sin_addr);
    rc = ::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
  }
  if (rc != 0) {
    const int err = errno;
    ::close(fd);
    return Error{"cannot listen on " + addr.ToString() + ": " + std::strerror(err), err};
  }
  return fd;
}

Status ProbeListen(const ListenAddress& addr) {
  auto fd = BindSocket(addr);
  if (!fd) return fd.error();
  ::close(*fd);
  return {};
}

}  // namespace rocewatch::http
