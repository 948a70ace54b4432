#include "exporter/collectors/sysfs_values.h"

#include <gtest/gtest.h>

namespace rocewatch::collectors {
namespace {

TEST(ParseNumberedState, PortStates) {
  auto s = ParseNumberedState("4: ACTIVE\n");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->id, 4u);
  EXPECT_EQ(s->name, "ACTIVE");
  auto p = ParseNumberedState("5: LinkUp\n");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->id, 5u);
  EXPECT_EQ(p->name, "LinkUp");
  auto t = ParseNumberedState("1: CA\n");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->name, "CA");
}

TEST(ParseNumberedState, RejectsJunk) {
  auto s = ParseNumberedState("ACTIVE\n");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "cannot parse a numbered state (\"4: ACTIVE\") from \"ACTIVE\"");
  EXPECT_FALSE(ParseNumberedState("x: ACTIVE").ok());
  EXPECT_FALSE(ParseNumberedState("").ok());
}

TEST(ParseRate, GigabitRatesToBytesPerSecond) {
  EXPECT_EQ(*ParseRateBytesPerSecond("400 Gb/sec (4X NDR)\n"), 50e9);
  EXPECT_EQ(*ParseRateBytesPerSecond("200 Gb/sec (4X HDR)"), 25e9);
  EXPECT_EQ(*ParseRateBytesPerSecond("100 Gb/sec (2X HDR)"), 12.5e9);
  EXPECT_EQ(*ParseRateBytesPerSecond("2.5 Gb/sec (1X SDR)"), 312.5e6);
  EXPECT_EQ(*ParseRateBytesPerSecond("25 Gb/sec (1X EDR)"), 3.125e9);
}

TEST(ParseRate, RejectsUnknownUnits) {
  auto r = ParseRateBytesPerSecond("fast");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("\"fast\""), std::string::npos);
  EXPECT_FALSE(ParseRateBytesPerSecond("400 Tb/sec").ok());
  EXPECT_FALSE(ParseRateBytesPerSecond("-4 Gb/sec").ok());
}

TEST(ParseCounterValue, ValuesAndUnavailable) {
  auto v = ParseCounterValue("18446744073709551615\n");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v->value, 18446744073709551615ull);
  auto na = ParseCounterValue("N/A (no PMA)\n");
  ASSERT_TRUE(na.ok());
  EXPECT_TRUE(na->unavailable());
  EXPECT_FALSE(ParseCounterValue("18446744073709551616x").ok());
  EXPECT_FALSE(ParseCounterValue("").ok());
}

TEST(ParsePcieSpeed, GenerationsInTransfersPerSecond) {
  EXPECT_EQ(**ParsePcieSpeed("32.0 GT/s PCIe\n"), 32e9);
  EXPECT_EQ(**ParsePcieSpeed("16.0 GT/s PCIe"), 16e9);
  EXPECT_EQ(**ParsePcieSpeed("8.0 GT/s PCIe"), 8e9);
  EXPECT_EQ(**ParsePcieSpeed("2.5 GT/s"), 2.5e9);  // older kernels print no "PCIe"
  auto unknown = ParsePcieSpeed("Unknown speed\n");
  ASSERT_TRUE(unknown.ok());
  EXPECT_FALSE(unknown->has_value());
  EXPECT_FALSE(ParsePcieSpeed("32.0 Gb/s").ok());
}

TEST(ParsePcieWidth, WidthsAndUnknown) {
  EXPECT_EQ(**ParsePcieWidth("16\n"), 16u);
  EXPECT_EQ(**ParsePcieWidth("8"), 8u);
  EXPECT_FALSE(ParsePcieWidth("255")->has_value());
  EXPECT_FALSE(ParsePcieWidth("0")->has_value());
  EXPECT_FALSE(ParsePcieWidth("x16").ok());
}

TEST(ParseGid, Ipv4MappedRoceV2) {
  auto gid = ParseGid("0000:0000:0000:0000:0000:ffff:0a01:000b\n");
  ASSERT_TRUE(gid.ok());
  EXPECT_FALSE(IsZeroGid(*gid));
  EXPECT_EQ(GidToIp(*gid), "10.1.0.11");
  EXPECT_EQ(FormatGid(*gid), "0000:0000:0000:0000:0000:ffff:0a01:000b");
}

TEST(ParseGid, LinkLocalAndZero) {
  auto gid = ParseGid("fe80:0000:0000:0000:966d:aeff:feb1:2c3a");
  ASSERT_TRUE(gid.ok());
  EXPECT_EQ(GidToIp(*gid), "fe80::966d:aeff:feb1:2c3a");
  auto zero = ParseGid("0000:0000:0000:0000:0000:0000:0000:0000\n");
  ASSERT_TRUE(zero.ok());
  EXPECT_TRUE(IsZeroGid(*zero));
}

TEST(ParseGid, RejectsMalformed) {
  EXPECT_FALSE(ParseGid("fe80::1").ok());
  EXPECT_FALSE(ParseGid("fe80:0000:0000:0000:966d:aeff:feb1").ok());
  EXPECT_FALSE(ParseGid("fe80:0000:0000:0000:966d:aeff:feb1:zzzz").ok());
  EXPECT_FALSE(ParseGid("fe80:0000:0000:0000:966d:aeff:feb1:12345").ok());
}

TEST(ParseLid, HexLids) {
  EXPECT_EQ(*ParseLid("0x1a\n"), 0x1au);
  EXPECT_EQ(*ParseLid("0x0"), 0u);
  EXPECT_FALSE(ParseLid("0x10000").ok());
  EXPECT_FALSE(ParseLid("lid").ok());
}

TEST(ParseRoceMode, KnownModes) {
  EXPECT_EQ(*ParseRoceMode("RoCE v2\n"), "RoCE v2");
  EXPECT_EQ(*ParseRoceMode("IB/RoCE v1\n"), "IB/RoCE v1");
  EXPECT_FALSE(ParseRoceMode("RoCE v3").ok());
}

TEST(ParseOperState, Rfc2863Numbers) {
  EXPECT_EQ(*ParseOperState("up\n"), 1u);
  EXPECT_EQ(*ParseOperState("down\n"), 2u);
  EXPECT_EQ(*ParseOperState("lowerlayerdown\n"), 7u);
  EXPECT_FALSE(ParseOperState("UP").ok());
}

TEST(ParseNetdevSpeed, MegabitsToBytes) {
  EXPECT_EQ(**ParseNetdevSpeed("400000\n"), 50e9);
  EXPECT_EQ(**ParseNetdevSpeed("100000\n"), 12.5e9);
  EXPECT_FALSE(ParseNetdevSpeed("-1\n")->has_value());
  EXPECT_FALSE(ParseNetdevSpeed("fast").ok());
}

// Found with tests/fuzz/sysfs_values_fuzz.cpp's "finite and not negative" property
// (corpus/sysfs_values/regression-*): from_chars reads "nan" and "inf", and a huge number
// overflows, so a rate or PCIe speed came out as NaN or +Inf bytes (transfers) per second.
TEST(ParseRate, NotANumberInfinityAndOverflowAreRejected) {
  for (const char* text : {"nan Gb/sec (4X NDR)", "inf Gb/sec", "-nan Mb/sec", "infinity Gb/sec",
                           "1e308 Gb/sec (4X NDR)"}) {
    EXPECT_FALSE(ParseRateBytesPerSecond(text).ok()) << text;
  }
  for (const char* text : {"nan GT/s PCIe", "inf GT/s PCIe", "1e308 GT/s PCIe"}) {
    EXPECT_FALSE(ParsePcieSpeed(text).ok()) << text;
  }
  EXPECT_EQ(*ParseRateBytesPerSecond("400 Gb/sec (4X NDR)"), 5e10);
  EXPECT_EQ(**ParsePcieSpeed("32.0 GT/s PCIe"), 32e9);
}

}  // namespace
}  // namespace rocewatch::collectors
