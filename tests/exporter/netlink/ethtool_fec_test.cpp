// ETHTOOL_MSG_FEC_GET: the request, and replies laid out the way net/ethtool/fec.c and
// net/ethtool/bitset.c build them (tests/exporter/netlink/fec_reply.h), field by field.

#include "exporter/netlink/ethtool_fec.h"

#include <gtest/gtest.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include <cerrno>
#include <cstring>

#include "exporter/netlink/messages.h"
#include "exporter/netlink/fec_reply.h"
#include "exporter/netlink/kernel_skb.h"

namespace rocewatch::ethtool_nl {
namespace {

using testing::BuildFecReply;
using testing::FecReplySpec;

constexpr std::uint32_t kRs = ETHTOOL_LINK_MODE_FEC_RS_BIT;        // 50
constexpr std::uint32_t kBaseR = ETHTOOL_LINK_MODE_FEC_BASER_BIT;  // 51
constexpr std::uint32_t kOff = ETHTOOL_LINK_MODE_FEC_NONE_BIT;     // 49
constexpr std::uint32_t kLlrs = ETHTOOL_LINK_MODE_FEC_LLRS_BIT;    // 74

TEST(EthtoolFecRequest, AsksWithStatsFlag) {
  auto request = BuildFecRequest(21, "eth0", 9);
  ASSERT_TRUE(request) << request.error().message;
  const std::vector<std::uint8_t> expected = {
      44,  0,   0,   0,     // nlmsg_len
      21,  0,               // the ethtool family id
      1,   0,               // NLM_F_REQUEST
      9,   0,   0,   0,     // seq
      0,   0,   0,   0,     // pid
      29,  1,   0,   0,     // genlmsghdr {ETHTOOL_MSG_FEC_GET = 29, ETHTOOL_GENL_VERSION}
      24,  0,   1,   0x80,  // ETHTOOL_A_FEC_HEADER | NLA_F_NESTED, 24 bytes
      9,   0,   2,   0,     // ETHTOOL_A_HEADER_DEV_NAME
      'e', 't', 'h', '0',  0, 0, 0, 0, 8, 0, 3, 0,  // ETHTOOL_A_HEADER_FLAGS
      4,   0,   0,   0};                            // ETHTOOL_FLAG_STATS
  EXPECT_EQ(*request, expected);
  auto plain = BuildFecRequest(21, "eth0", 9, /*with_stats=*/false);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->size(), 36u);  // no ETHTOOL_A_HEADER_FLAGS
  EXPECT_FALSE(BuildFecRequest(21, "a/b", 1));
}

TEST(EthtoolFec, ModesActiveAndAuto) {
  FecReplySpec s;
  s.modes = {kRs, kBaseR};
  s.fec_auto = 1;
  s.active = kRs;
  auto fec = DecodeFecReply(BuildFecReply(s));
  ASSERT_TRUE(fec) << fec.error().message;
  EXPECT_EQ(fec->header.ifname, "ens1f0np0");
  EXPECT_EQ(fec->header.ifindex, 4u);
  EXPECT_EQ(fec->configured, (std::vector<std::string>{"rs", "baser"}));
  EXPECT_TRUE(fec->auto_mode);
  EXPECT_EQ(fec->active, "rs");
  EXPECT_TRUE(fec->stats);
  EXPECT_FALSE(fec->corrected_blocks);  // empty arrays: the driver counts nothing
  EXPECT_FALSE(fec->uncorrectable_blocks);
  EXPECT_FALSE(fec->corrected_bits);
}

TEST(EthtoolFec, CompactBitsetAndOffAndLlrs) {
  FecReplySpec s;
  s.modes = {kOff, kLlrs};
  s.compact = true;
  s.active = kLlrs;
  auto fec = DecodeFecReply(BuildFecReply(s));
  ASSERT_TRUE(fec) << fec.error().message;
  EXPECT_EQ(fec->configured, (std::vector<std::string>{"off", "llrs"}));
  EXPECT_FALSE(fec->auto_mode);
  EXPECT_EQ(fec->active, "llrs");
}

TEST(EthtoolFec, NoActiveEncodingIsNone) {
  FecReplySpec s;
  s.modes = {};
  s.fec_auto = 1;
  s.stats = false;
  auto fec = DecodeFecReply(BuildFecReply(s));
  ASSERT_TRUE(fec) << fec.error().message;
  EXPECT_TRUE(fec->configured.empty());
  EXPECT_EQ(fec->active, "");
  EXPECT_FALSE(fec->stats);
}

// mlx5 in FC-FEC (BaseR) mode counts per lane; the kernel sums the lanes into the total.
TEST(EthtoolFec, PerLaneCounters) {
  FecReplySpec s;
  s.modes = {kBaseR};
  s.active = kBaseR;
  s.corrected = {1234 + 5 + 0 + 77, 1234, 5, 0, 77};
  s.uncorrectable = {9};
  s.corrected_bits = {0x1'0000'0001ull};
  auto fec = DecodeFecReply(BuildFecReply(s));
  ASSERT_TRUE(fec) << fec.error().message;
  ASSERT_TRUE(fec->corrected_blocks);
  EXPECT_EQ(fec->corrected_blocks->total, 1316u);
  EXPECT_EQ(fec->corrected_blocks->lanes, (std::vector<std::uint64_t>{1234, 5, 0, 77}));
  ASSERT_TRUE(fec->uncorrectable_blocks);
  EXPECT_EQ(fec->uncorrectable_blocks->total, 9u);
  EXPECT_TRUE(fec->uncorrectable_blocks->lanes.empty());
  ASSERT_TRUE(fec->corrected_bits);
  EXPECT_EQ(fec->corrected_bits->total, 0x1'0000'0001ull);
}

// The bins netdevsim reports (drivers/net/netdevsim/ethtool.c, kernel 6.18): 0-0 with four
// lanes, 1-3 and 4-7 without; a u64 bin value for one past 2^32.
TEST(EthtoolFec, Histogram) {
  FecReplySpec s;
  s.modes = {kRs};
  s.active = kRs;
  s.corrected = {123};
  s.uncorrectable = {4};
  s.hist = {{0, 0, 445, {125, 120, 100, 100}}, {1, 3, 12, {}}, {4, 7, 0x1'0000'0002ull, {}}};
  auto fec = DecodeFecReply(BuildFecReply(s));
  ASSERT_TRUE(fec) << fec.error().message;
  ASSERT_EQ(fec->histogram.size(), 3u);
  EXPECT_EQ(fec->histogram[0].low, 0u);
  EXPECT_EQ(fec->histogram[0].high, 0u);
  EXPECT_EQ(fec->histogram[0].codewords, 445u);
  EXPECT_EQ(fec->histogram[0].lanes, (std::vector<std::uint64_t>{125, 120, 100, 100}));
  EXPECT_EQ(fec->histogram[1].low, 1u);
  EXPECT_EQ(fec->histogram[1].high, 3u);
  EXPECT_EQ(fec->histogram[1].codewords, 12u);
  EXPECT_EQ(fec->histogram[2].codewords, 0x1'0000'0002ull);
  EXPECT_EQ(fec->corrected_blocks->total, 123u);
  EXPECT_EQ(fec->uncorrectable_blocks->total, 4u);
}

TEST(EthtoolFec, VethAnswersEopnotsupp) {
  auto request = BuildFecRequest(21, "rwv0", 3);
  ASSERT_TRUE(request);
  testing::KernelSkb skb;
  skb.Ack(*request, EOPNOTSUPP);
  auto fec = DecodeFecReply(skb.bytes());
  ASSERT_FALSE(fec);
  EXPECT_EQ(fec.error().code, EOPNOTSUPP);
}

// The offset of the first attribute of `type` among the attributes that start at `from` and
// end at `end` (a walk by nla_len, as the kernel lays them out), or bytes.size().
std::size_t FindAttr(const std::vector<std::uint8_t>& bytes, std::uint16_t type, std::size_t from,
                     std::size_t end = 0) {
  if (end == 0) end = bytes.size();
  for (std::size_t i = from; i + 4 <= end;) {
    std::uint16_t len, t;
    std::memcpy(&len, bytes.data() + i, 2);
    std::memcpy(&t, bytes.data() + i + 2, 2);
    if ((t & NLA_TYPE_MASK) == type) return i;
    if (len < 4) break;
    i += NLA_ALIGN(len);
  }
  return bytes.size();
}

constexpr std::size_t kFirstAttr = NLMSG_HDRLEN + GENL_HDRLEN;

TEST(EthtoolFec, MalformedCounterNamesTheAttribute) {
  FecReplySpec s;
  s.modes = {kRs};
  s.corrected = {1, 2};
  auto bytes = BuildFecReply(s);
  // Shrink ETHTOOL_A_FEC_STAT_CORRECTED's nla_len from 20 to 16: its payload becomes 12 bytes,
  // a u64 array whose size is not a multiple of 8.
  const std::size_t stats = FindAttr(bytes, ETHTOOL_A_FEC_STATS, kFirstAttr);
  ASSERT_LT(stats, bytes.size());
  const std::size_t corrected = FindAttr(bytes, ETHTOOL_A_FEC_STAT_CORRECTED, stats + 4);
  ASSERT_LT(corrected, bytes.size());
  std::uint16_t len = 4 + 12;
  std::memcpy(bytes.data() + corrected, &len, 2);
  // The 4 bytes left over become a zero attribute header; fix the walk by making them a
  // 4-byte ETHTOOL_A_FEC_STAT_PAD.
  const std::uint16_t pad[2] = {4, ETHTOOL_A_FEC_STAT_PAD};
  std::memcpy(bytes.data() + corrected + 16, pad, 4);
  auto fec = DecodeFecReply(bytes);
  ASSERT_FALSE(fec);
  EXPECT_EQ(fec.error().message,
            "ethtool FEC_GET reply: ETHTOOL_A_FEC_STAT_CORRECTED: payload is 12 bytes, not a "
            "whole number of u64");
}

TEST(EthtoolFec, BinLowAboveHigh) {
  FecReplySpec s;
  s.modes = {kRs};
  s.hist = {{0, 0, 1, {}}, {7, 4, 2, {}}};
  auto fec = DecodeFecReply(BuildFecReply(s));
  ASSERT_FALSE(fec);
  EXPECT_EQ(fec.error().message,
            "ethtool FEC_GET reply: ETHTOOL_A_FEC_STAT_HIST[1]: bin low 7 is above high 4");
}

TEST(EthtoolFec, TooManyLanes) {
  FecReplySpec s;
  s.modes = {kRs};
  s.corrected = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};  // total + 9 lanes: ETHTOOL_MAX_LANES is 8
  auto fec = DecodeFecReply(BuildFecReply(s));
  ASSERT_FALSE(fec);
  EXPECT_EQ(fec.error().message,
            "ethtool FEC_GET reply: ETHTOOL_A_FEC_STAT_CORRECTED: 10 values, at most 9 "
            "(ETHTOOL_MAX_LANES)");
}

TEST(EthtoolFec, MissingModesAndWrongCommand) {
  FecReplySpec s;
  s.modes = {kRs};
  auto bytes = BuildFecReply(s);
  const std::size_t modes = FindAttr(bytes, ETHTOOL_A_FEC_MODES, kFirstAttr);
  ASSERT_LT(modes, bytes.size());
  std::uint16_t other = 99 | NLA_F_NESTED;  // an attribute this decoder does not know
  std::memcpy(bytes.data() + modes + 2, &other, 2);
  auto fec = DecodeFecReply(bytes);
  ASSERT_FALSE(fec);
  EXPECT_EQ(fec.error().message, "ethtool FEC_GET reply: no ETHTOOL_A_FEC_MODES attribute");

  auto pause_cmd = BuildFecReply(s);
  pause_cmd[16] = ETHTOOL_MSG_PAUSE_GET_REPLY;
  auto wrong = DecodeFecReply(pause_cmd);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("reply command is"), std::string::npos);
}

TEST(EthtoolFec, ModeNames) {
  EXPECT_EQ(FecModeName(49), "off");
  EXPECT_EQ(FecModeName(50), "rs");
  EXPECT_EQ(FecModeName(51), "baser");
  EXPECT_EQ(FecModeName(74), "llrs");
  EXPECT_EQ(FecModeName(12), "bit12");
}

}  // namespace
}  // namespace rocewatch::ethtool_nl
