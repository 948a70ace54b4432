#include "lint/plan/address.h"

#include <gtest/gtest.h>

namespace rocewatch::lint::plan {
namespace {

TEST(IpAddress, ParsesAndNormalizes) {
  auto v4 = ParseIpAddress("10.1.0.11");
  ASSERT_TRUE(v4.ok());
  EXPECT_FALSE(v4->v6);
  EXPECT_EQ(v4->ToString(), "10.1.0.11");
  auto v6 = ParseIpAddress("FD00:0001:0000::0011");
  ASSERT_TRUE(v6.ok());
  EXPECT_TRUE(v6->v6);
  EXPECT_EQ(v6->ToString(), "fd00:1::11");
  EXPECT_EQ(*ParseIpAddress("fd00:1::11"), *v6);
}

TEST(IpAddress, RejectsWithReasons) {
  EXPECT_EQ(ParseIpAddress("10.0.0.256").error().message,
            "\"10.0.0.256\" is not a valid IPv4 address (four decimal numbers 0-255, no leading "
            "zeros)");
  EXPECT_FALSE(ParseIpAddress("010.0.0.1").ok());
  EXPECT_FALSE(ParseIpAddress("10.0.0").ok());
  EXPECT_FALSE(ParseIpAddress(" 10.0.0.1").ok());
  EXPECT_EQ(ParseIpAddress("10.0.0.1/24").error().message,
            "\"10.0.0.1/24\" has a prefix length; write the address alone");
  EXPECT_EQ(ParseIpAddress("fe80::1%eth0").error().message,
            "\"fe80::1%eth0\" has a zone index; write the address alone");
  EXPECT_EQ(ParseIpAddress("fd00::g").error().message, "\"fd00::g\" is not a valid IPv6 address");
  EXPECT_EQ(ParseIpAddress("").error().message, "empty address");
  EXPECT_FALSE(ParseIpAddress(std::string(100, '1')).ok());
}

TEST(IpPrefix, ParsesAndChecksTheLength) {
  auto p = ParseIpPrefix("10.1.0.11/24");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->length, 24);
  EXPECT_EQ(p->address.ToString(), "10.1.0.11");
  EXPECT_EQ(ParseIpPrefix("fd00:1::11/64")->length, 64);
  EXPECT_EQ(ParseIpPrefix("10.1.0.11").error().message,
            "\"10.1.0.11\" has no prefix length; write it as address/length, e.g. 10.1.0.11/24");
  EXPECT_EQ(ParseIpPrefix("10.1.0.11/33").error().message,
            "\"10.1.0.11/33\": prefix length \"33\" is not a number from 0 to 32");
  EXPECT_EQ(ParseIpPrefix("fd00::1/129").error().message,
            "\"fd00::1/129\": prefix length \"129\" is not a number from 0 to 128");
  EXPECT_FALSE(ParseIpPrefix("10.1.0.11/").ok());
  EXPECT_FALSE(ParseIpPrefix("10.1.0.11/ 24").ok());
  EXPECT_FALSE(ParseIpPrefix("10.1.0.11/24/1").ok());
  EXPECT_FALSE(ParseIpPrefix("10.1.0.11/-1").ok());
}

TEST(IpPrefix, NetworkAndBroadcastAddresses) {
  EXPECT_TRUE(ParseIpPrefix("10.1.0.0/24")->IsNetworkAddress());
  EXPECT_FALSE(ParseIpPrefix("10.1.0.1/24")->IsNetworkAddress());
  EXPECT_TRUE(ParseIpPrefix("10.1.0.255/24")->IsBroadcastAddress());
  EXPECT_TRUE(ParseIpPrefix("10.1.0.127/25")->IsBroadcastAddress());
  EXPECT_FALSE(ParseIpPrefix("10.1.0.128/25")->IsBroadcastAddress());
  EXPECT_TRUE(ParseIpPrefix("fd00:1::/64")->IsNetworkAddress());
  EXPECT_FALSE(ParseIpPrefix("fd00:1::ffff/64")->IsBroadcastAddress());
  EXPECT_FALSE(ParseIpPrefix("10.1.0.0/32")->IsNetworkAddress());
}

TEST(HostPort, Forms) {
  auto a = ParseHostPort("10.0.0.11:9879");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "10.0.0.11");
  EXPECT_EQ(a->port, 9879);
  auto b = ParseHostPort("[fd00::11]:9879");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->host, "fd00::11");
  auto c = ParseHostPort("gpu-01.example.net:9100");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->host, "gpu-01.example.net");
  EXPECT_EQ(ParseHostPort("gpu-01").error().message, "\"gpu-01\" has no port; write host:port");
  EXPECT_EQ(ParseHostPort("gpu-01:http").error().message,
            "\"gpu-01:http\": port \"http\" is not a number from 1 to 65535");
  EXPECT_EQ(ParseHostPort("fd00::11:9879").error().message,
            "\"fd00::11:9879\": put an IPv6 host in brackets, e.g. [fd00::1]:9879");
  EXPECT_EQ(ParseHostPort("10.0.0.300:9879").error().message,
            "\"10.0.0.300:9879\": \"10.0.0.300\" is not an IPv4 address or a host name");
  EXPECT_FALSE(ParseHostPort(":9879").ok());
  EXPECT_FALSE(ParseHostPort("a_b:9879").ok());
  EXPECT_FALSE(ParseHostPort("[10.0.0.1]:9879").ok());
  EXPECT_FALSE(ParseHostPort("[fd00::1]9879").ok());
  EXPECT_FALSE(ParseHostPort("host:65536").ok());
}

}  // namespace
}  // namespace rocewatch::lint::plan
