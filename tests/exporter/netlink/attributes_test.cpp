// The attribute walker, typed getters, message walker and request builder.

#include "exporter/netlink/attributes.h"

#include <gtest/gtest.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cerrno>
#include <vector>

#include "exporter/netlink/errno_name.h"
#include "exporter/netlink/message_builder.h"
#include "exporter/netlink/messages.h"
#include "exporter/netlink/kernel_skb.h"

namespace rocewatch::netlink {
namespace {

using testing::KernelSkb;

TEST(NetlinkAttributes, WalksAlignedAttributesAndNests) {
  KernelSkb skb;
  skb.NlaPutU8(1, 0x2a);          // 5 bytes + 3 pad
  skb.NlaPutString(2, "ens1f0");  // 11 bytes + 1 pad
  const std::size_t nest = skb.NestStart(3);
  skb.NlaPutU32(1, 4000000000u);
  skb.NlaPutU16(2, 4791);
  skb.NestEnd(nest);
  ASSERT_EQ(skb.bytes().size(), 8u + 12u + 4u + 8u + 8u);

  auto attrs = ParseAttributes(skb.bytes(), "test");
  ASSERT_TRUE(attrs) << attrs.error().message;
  ASSERT_EQ(attrs->size(), 3u);
  EXPECT_EQ((*attrs)[0].type, 1);
  EXPECT_EQ(*GetU8((*attrs)[0], "A"), 0x2a);
  EXPECT_EQ(*GetString((*attrs)[1], "B"), "ens1f0");
  EXPECT_EQ((*attrs)[2].type, 3);
  EXPECT_TRUE((*attrs)[2].nested_flag);
  auto inner = GetNested((*attrs)[2], "C");
  ASSERT_TRUE(inner);
  ASSERT_EQ(inner->size(), 2u);
  EXPECT_EQ(*GetU32((*inner)[0], "C.1"), 4000000000u);
  EXPECT_EQ(*GetU16((*inner)[1], "C.2"), 4791);
}

TEST(NetlinkAttributes, RejectsTruncatedAttribute) {
  KernelSkb skb;
  skb.NlaPutU32(7, 1);
  skb.NlaPutU32(8, 2);
  std::vector<std::uint8_t> bytes = skb.bytes();
  bytes.resize(bytes.size() - 2);  // the second attribute loses half its payload
  auto attrs = ParseAttributes(bytes, "dcbnl test");
  ASSERT_FALSE(attrs);
  EXPECT_EQ(attrs.error().message,
            "dcbnl test: attribute type 8 at offset 8 has nla_len 8 but only 6 bytes remain "
            "(truncated)");
}

TEST(NetlinkAttributes, RejectsLengthBelowHeaderAndShortTail) {
  std::vector<std::uint8_t> zero_len = {0, 0, 1, 0};
  auto a = ParseAttributes(zero_len, "x");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("nla_len 0"), std::string::npos);

  std::vector<std::uint8_t> tail = {5, 0, 1, 0, 9, 0, 0, 0, 0xff, 0xff};  // u8 + 2 stray bytes
  auto b = ParseAttributes(tail, "x");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("2 trailing bytes at offset 8"), std::string::npos);
}

TEST(NetlinkAttributes, LastAttributePaddingMayBeMissing) {
  std::vector<std::uint8_t> bytes = {5, 0, 4, 0, 0x63};  // u8 without its 3 pad bytes
  auto attrs = ParseAttributes(bytes, "x");
  ASSERT_TRUE(attrs);
  ASSERT_EQ(attrs->size(), 1u);
  EXPECT_EQ(*GetU8((*attrs)[0], "X"), 0x63);
}

TEST(NetlinkAttributes, GettersInsistOnExactSize) {
  KernelSkb skb;
  skb.NlaPutU32(1, 7);
  auto attrs = ParseAttributes(skb.bytes(), "x");
  ASSERT_TRUE(attrs);
  auto as_u8 = GetU8((*attrs)[0], "DCB_ATTR_DCBX");
  ASSERT_FALSE(as_u8);
  EXPECT_EQ(as_u8.error().message, "DCB_ATTR_DCBX: payload is 4 bytes, expected 1");
  EXPECT_FALSE(GetU64((*attrs)[0], "X"));
  EXPECT_FALSE(GetU16((*attrs)[0], "X"));
  EXPECT_EQ(*GetU32((*attrs)[0], "X"), 7u);
}

TEST(NetlinkAttributes, StringNeedsNul) {
  KernelSkb skb;
  skb.NlaPut(1, "eth0", 4);  // nla_put of the bytes, no NUL
  auto attrs = ParseAttributes(skb.bytes(), "x");
  ASSERT_TRUE(attrs);
  auto s = GetString((*attrs)[0], "DCB_ATTR_IFNAME");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "DCB_ATTR_IFNAME: string of 4 bytes has no terminating NUL");
}

TEST(NetlinkAttributes, NetByteOrderFlag) {
  std::vector<std::uint8_t> bytes = {8, 0, 1, 0x40, 0x00, 0x00, 0x12, 0xb5};  // be32 4789
  auto attrs = ParseAttributes(bytes, "x");
  ASSERT_TRUE(attrs);
  EXPECT_TRUE((*attrs)[0].net_byteorder);
  EXPECT_EQ((*attrs)[0].type, 1);
  EXPECT_EQ(*GetU32((*attrs)[0], "X"), 4789u);
}

TEST(NetlinkAttributes, StructNeedsExactSizeAndToleratesMisalignment) {
  dcb_app app{5, 3, 26};
  std::vector<std::uint8_t> bytes(1 + 8);
  KernelSkb skb;
  skb.NlaPutStruct(1, app);
  std::memcpy(bytes.data() + 1, skb.bytes().data(), 8);  // payload at an odd address
  auto attrs = ParseAttributes(std::span(bytes).subspan(1), "x");
  ASSERT_TRUE(attrs);
  auto decoded = GetStruct<dcb_app>((*attrs)[0], "DCB_ATTR_IEEE_APP");
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->selector, 5);
  EXPECT_EQ(decoded->priority, 3);
  EXPECT_EQ(decoded->protocol, 26);

  auto wrong = GetStruct<ieee_pfc>((*attrs)[0], "DCB_ATTR_IEEE_PFC");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().message, "DCB_ATTR_IEEE_PFC: payload is 4 bytes, expected 136");
}

TEST(NetlinkAttributes, FindReturnsLastLikeNlaParse) {
  KernelSkb skb;
  skb.NlaPutU8(3, 1);
  skb.NlaPutU8(4, 2);
  skb.NlaPutU8(3, 9);
  auto attrs = ParseAttributes(skb.bytes(), "x");
  ASSERT_TRUE(attrs);
  EXPECT_EQ(*GetU8(*FindAttribute(*attrs, 3), "X"), 9);
  EXPECT_EQ(FindAttribute(*attrs, 5), nullptr);
}

TEST(NetlinkMessages, WalksSeveralMessagesAndDone) {
  KernelSkb skb;
  const std::size_t first = skb.NlmsgPut(0, 11, RTM_GETDCB, 4, NLM_F_MULTI);
  skb.NlaPutU8(DCB_ATTR_DCBX, 8);
  skb.NlmsgEnd(first);
  const std::size_t done = skb.NlmsgPut(0, 11, NLMSG_DONE, 4, NLM_F_MULTI);
  skb.NlmsgEnd(done);
  auto messages = ParseMessages(skb.bytes(), "x");
  ASSERT_TRUE(messages) << messages.error().message;
  ASSERT_EQ(messages->size(), 2u);
  EXPECT_EQ((*messages)[0].type, RTM_GETDCB);
  EXPECT_EQ((*messages)[0].seq, 11u);
  EXPECT_EQ((*messages)[0].payload.size(), 4u + 8u);
  EXPECT_EQ((*messages)[1].type, NLMSG_DONE);

  auto reply = ExpectReply(skb.bytes(), RTM_GETDCB, "x");
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->flags, NLM_F_MULTI);
}

TEST(NetlinkMessages, RejectsTruncatedMessage) {
  KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(0, 1, RTM_GETDCB, 4, 0);
  skb.NlaPutString(DCB_ATTR_IFNAME, "eth0");
  skb.NlmsgEnd(m);
  std::vector<std::uint8_t> bytes = skb.bytes();
  bytes.resize(bytes.size() - 3);
  auto messages = ParseMessages(bytes, "dcbnl IEEE_GET reply");
  ASSERT_FALSE(messages);
  EXPECT_EQ(messages.error().message,
            "dcbnl IEEE_GET reply: message type 78 at offset 0 has nlmsg_len 32 but only 29 "
            "bytes remain (truncated)");
}

TEST(NetlinkMessages, ErrorReplyCarriesErrnoAndExtack) {
  MessageBuilder request(RTM_GETDCB, NLM_F_REQUEST, 5);
  request.PutU32(1, 1);
  const std::vector<std::uint8_t> req = std::move(request).Finish();
  KernelSkb skb;
  skb.Ack(req, EINVAL, /*capped=*/false, "reading cross half page boundary is illegal", 20);
  auto error = ExpectReply(skb.bytes(), RTM_GETDCB, "ethtool MODULE_EEPROM_GET reply");
  ASSERT_FALSE(error);
  EXPECT_EQ(error.error().code, EINVAL);
  EXPECT_EQ(error.error().message,
            "ethtool MODULE_EEPROM_GET reply: kernel answered EINVAL (invalid argument): "
            "reading cross half page boundary is illegal");

  KernelSkb capped;
  capped.Ack(req, ENODEV, /*capped=*/true, "no such device here", 0);
  auto messages = ParseMessages(capped.bytes(), "x");
  ASSERT_TRUE(messages);
  auto decoded = DecodeErrorMessage((*messages)[0], "x");
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->errno_value, ENODEV);
  EXPECT_EQ(decoded->extack, "no such device here");
}

TEST(NetlinkMessages, AckIsNotAnError) {
  MessageBuilder request(RTM_GETDCB, NLM_F_REQUEST | NLM_F_ACK, 5);
  const std::vector<std::uint8_t> req = std::move(request).Finish();
  KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(0, 5, RTM_GETDCB, 4, 0);
  skb.NlmsgEnd(m);
  skb.Ack(req, 0, /*capped=*/true);
  auto reply = ExpectReply(skb.bytes(), RTM_GETDCB, "x");
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->seq, 5u);
}

TEST(NetlinkMessages, MissingReplyIsAnError) {
  KernelSkb skb;
  const std::size_t done = skb.NlmsgPut(0, 1, NLMSG_DONE, 4, 0);
  skb.NlmsgEnd(done);
  auto reply = ExpectReply(skb.bytes(), RTM_GETDCB, "dcbnl IEEE_GET reply");
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message,
            "dcbnl IEEE_GET reply: no message of type 78 among 1 messages (20 bytes)");
  EXPECT_EQ(reply.error().code, 0);
}

TEST(NetlinkBuilder, NestsAndPadsLikeTheKernel) {
  MessageBuilder b(0x15, NLM_F_REQUEST, 3);
  std::uint32_t family_header = 0x01020304;
  b.PutFamilyHeader(family_header);
  const std::size_t nest = b.BeginNest(1);
  b.PutString(2, "eth0");
  b.EndNest(nest);
  b.PutU8(5, 9);
  const std::vector<std::uint8_t> bytes = std::move(b).Finish();

  KernelSkb k;
  const std::size_t m = k.NlmsgPut(0, 3, 0x15, 4, NLM_F_REQUEST);
  k.SetFamilyHeader(m, family_header);
  const std::size_t kn = k.NestStart(1);
  k.NlaPutString(2, "eth0");
  k.NestEnd(kn);
  k.NlaPutU8(5, 9);
  k.NlmsgEnd(m);
  EXPECT_EQ(bytes, k.bytes());
}

TEST(NetlinkErrno, NamesKnownAndUnknown) {
  EXPECT_EQ(ErrnoName(EOPNOTSUPP), "EOPNOTSUPP");
  EXPECT_EQ(DescribeErrno(ENODEV), "ENODEV (no such device)");
  EXPECT_EQ(DescribeErrno(524), "ENOTSUPP (operation not supported (kernel-internal code))");
  EXPECT_EQ(DescribeErrno(9999), "errno 9999");
}

}  // namespace
}  // namespace rocewatch::netlink
