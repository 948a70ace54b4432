// Replies captured from a real kernel (Linux 6.18, a veth pair in a network namespace),
// answering the requests our builders produce. They pin the decoders, the builders and the
// test-only KernelSkb mirror to what the kernel really sends.

#include <gtest/gtest.h>

#include <cerrno>
#include <span>
#include <vector>

#include "exporter/netlink/dcbnl.h"
#include "exporter/netlink/ethtool_genl.h"
#include "exporter/netlink/kernel_skb.h"

namespace rocewatch {
namespace {

constexpr std::uint16_t kEthtoolFamily = 21;  // GETFAMILY "ethtool" on that kernel

// dcbnl IEEE_GET for veth0 (seq 1): NLMSG_ERROR -EOPNOTSUPP echoing the whole request.
const std::vector<std::uint8_t> kDcbnlVeth = {
    0x34, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0xea,
    0x3b, 0x00, 0x00, 0xa1, 0xff, 0xff, 0xff, 0x20, 0x00, 0x00, 0x00, 0x4e, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x15, 0x00,
    0x00, 0x0a, 0x00, 0x01, 0x00, 0x76, 0x65, 0x74, 0x68, 0x30, 0x00, 0x00, 0x00};

// ethtool LINKSTATE_GET for veth0 (seq 3), peer down: header {index 3, "veth0"}, link 0.
const std::vector<std::uint8_t> kLinkStateVeth = {
    0x34, 0x00, 0x00, 0x00, 0x15, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0xea,
    0x3b, 0x00, 0x00, 0x06, 0x01, 0x00, 0x00, 0x18, 0x00, 0x01, 0x80, 0x08, 0x00,
    0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x02, 0x00, 0x76, 0x65, 0x74,
    0x68, 0x30, 0x00, 0x00, 0x00, 0x05, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00};

// ethtool PAUSE_GET with ETHTOOL_FLAG_STATS for veth0 (seq 4): -EOPNOTSUPP.
const std::vector<std::uint8_t> kPauseVeth = {
    0x40, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xea, 0x3b, 0x00, 0x00,
    0xa1, 0xff, 0xff, 0xff, 0x2c, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x15, 0x01, 0x00, 0x00, 0x18, 0x00, 0x01, 0x80, 0x0a, 0x00, 0x02, 0x00,
    0x76, 0x65, 0x74, 0x68, 0x30, 0x00, 0x00, 0x00, 0x08, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x00};

// ethtool LINKSTATE_GET for a device that does not exist (seq 5): -ENODEV.
const std::vector<std::uint8_t> kLinkStateNoDevice = {
    0x38, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0xea, 0x3b,
    0x00, 0x00, 0xed, 0xff, 0xff, 0xff, 0x24, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
    0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x01, 0x00, 0x00, 0x10, 0x00,
    0x01, 0x80, 0x0c, 0x00, 0x02, 0x00, 0x6e, 0x6f, 0x73, 0x75, 0x63, 0x68, 0x30, 0x00};

// The request the kernel echoed back in an NLMSG_ERROR (struct nlmsgerr.msg and on).
std::span<const std::uint8_t> Echoed(const std::vector<std::uint8_t>& error_reply) {
  return std::span(error_reply).subspan(16 + 4);
}

TEST(NetlinkCapturedReplies, DcbnlVethHasNoDcb) {
  auto state = dcbnl::DecodeIeeeReply(kDcbnlVeth);
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_FALSE(state->supported);
  // The kernel echoed exactly what our builder sends.
  auto request = dcbnl::BuildIeeeGetRequest("veth0", 1);
  ASSERT_TRUE(request);
  const auto echoed = Echoed(kDcbnlVeth);
  EXPECT_EQ(std::vector<std::uint8_t>(echoed.begin(), echoed.end()), *request);
  // And the test mirror of netlink_ack() produces the same bytes.
  testing::KernelSkb skb;
  skb.Ack(*request, EOPNOTSUPP);
  EXPECT_EQ(skb.bytes(), kDcbnlVeth);
}

TEST(NetlinkCapturedReplies, LinkStateVethPeerDown) {
  auto state = ethtool_nl::DecodeLinkStateReply(kLinkStateVeth);
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_EQ(state->header.ifname, "veth0");
  EXPECT_EQ(state->header.ifindex, 3u);
  ASSERT_TRUE(state->link);
  EXPECT_FALSE(*state->link);
  EXPECT_FALSE(state->sqi);
  EXPECT_FALSE(state->ext_state);
  EXPECT_FALSE(state->ext_down_count);
}

TEST(NetlinkCapturedReplies, PauseVethIsEopnotsupp) {
  auto pause = ethtool_nl::DecodePauseReply(kPauseVeth);
  ASSERT_FALSE(pause);
  EXPECT_EQ(pause.error().code, EOPNOTSUPP);
  auto request = ethtool_nl::BuildPauseRequest(kEthtoolFamily, "veth0", 4);
  ASSERT_TRUE(request);
  const auto echoed = Echoed(kPauseVeth);
  EXPECT_EQ(std::vector<std::uint8_t>(echoed.begin(), echoed.end()), *request);
}

TEST(NetlinkCapturedReplies, LinkStateMissingDeviceIsEnodev) {
  auto state = ethtool_nl::DecodeLinkStateReply(kLinkStateNoDevice);
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().code, ENODEV);
  EXPECT_EQ(state.error().message,
            "ethtool LINKSTATE_GET reply: kernel answered ENODEV (no such device)");
}

}  // namespace
}  // namespace rocewatch
