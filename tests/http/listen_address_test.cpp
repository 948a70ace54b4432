#include "http/listen_address.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rocewatch::http {
namespace {

TEST(ParseListenAddress, NodeExporterSpellings) {
  auto all = ParseListenAddress(":9879");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->host, "");
  EXPECT_EQ(all->port, 9879);
  auto local = ParseListenAddress("127.0.0.1:0");
  ASSERT_TRUE(local.ok());
  auto v6 = ParseListenAddress("[::1]:9100");
  ASSERT_TRUE(v6.ok());
  EXPECT_TRUE(v6->ipv6);
}

TEST(ParseListenAddress, ErrorsNameTheFlag) {
  auto bad = ParseListenAddress("9879");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "--web.listen-address=9879: missing :PORT (expected HOST:PORT, :PORT or [IPv6]:PORT)");
  EXPECT_FALSE(ParseListenAddress(":70000").ok());
  EXPECT_FALSE(ParseListenAddress("myhost:9879").ok());
  EXPECT_FALSE(ParseListenAddress("[::1:9879").ok());
}

TEST(ProbeListen, ReportsAddressInUse) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof sa;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
  ListenAddress addr{"127.0.0.1", ntohs(sa.sin_port), false};
  Status s = ProbeListen(addr);
  ::close(fd);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EADDRINUSE);
  EXPECT_EQ(s.error().message,
            "cannot listen on 127.0.0.1:" + std::to_string(addr.port) + ": Address already in use");
}

}  // namespace
}  // namespace rocewatch::http
