// dcbnl requests and IEEE_GET / GDCBX reply decoding, against replies laid out the way
// net/dcb/dcbnl.c dcbnl_ieee_fill() and dcbnl_getdcbx() build them.

#include "exporter/netlink/dcbnl.h"

#include <gtest/gtest.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "exporter/netlink/kernel_skb.h"

namespace rocewatch::dcbnl {
namespace {

using testing::KernelSkb;

constexpr std::uint32_t kPortId = 4242;
constexpr std::uint32_t kSeq = 17;

// What mlx5 (en_dcbnl.c) reports for a RoCE-ready port: PFC on priority 3, DSCP trust with
// RoCE on DSCP 26 -> priority 3 and CNPs on DSCP 48 -> priority 6.
struct Mlx5Config {
  ieee_ets ets{};
  ieee_maxrate maxrate{};
  ieee_pfc pfc{};
  dcbnl_buffer buffer{};
  std::vector<dcb_app> apps;
  int dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
};

Mlx5Config RoceConfig() {
  Mlx5Config c;
  c.ets.willing = 0;
  c.ets.ets_cap = 8;
  c.ets.cbs = 0;
  const std::uint8_t tx_bw[8] = {50, 0, 0, 50, 0, 0, 0, 0};
  std::memcpy(c.ets.tc_tx_bw, tx_bw, 8);
  for (int tc = 0; tc < 8; ++tc) {
    c.ets.tc_tsa[tc] = tc == 6 ? IEEE_8021QAZ_TSA_STRICT : IEEE_8021QAZ_TSA_ETS;
    c.ets.prio_tc[tc] = static_cast<std::uint8_t>(tc);
  }
  c.maxrate.tc_maxrate[0] = 25000000;  // 25 Gbit/s in kbit/s
  c.pfc.pfc_cap = 8;
  c.pfc.pfc_en = 0x08;
  c.pfc.mbc = 0;
  c.pfc.delay = 0;
  c.pfc.requests[3] = 123456;   // pause frames sent on priority 3
  c.pfc.indications[3] = 7890;  // pause frames received on priority 3
  c.buffer.prio2buffer[3] = 1;
  c.buffer.buffer_size[0] = 130944;
  c.buffer.buffer_size[1] = 261888;
  c.buffer.total_size = 1048576;
  c.apps = {dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 6, 48}, dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26}};
  return c;
}

// dcbnl_ieee_fill() for a driver with ieee_getets, ieee_getmaxrate, ieee_getpfc,
// dcbnl_getbuffer and getdcbx (mlx5), in the kernel's order.
std::vector<std::uint8_t> IeeeReply(const Mlx5Config& c, std::string_view ifname = "ens1f0np0",
                                    std::size_t pfc_bytes = sizeof(ieee_pfc)) {
  KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(kPortId, kSeq, RTM_GETDCB, sizeof(dcbmsg), 0);
  dcbmsg header{};
  header.dcb_family = AF_UNSPEC;
  header.cmd = DCB_CMD_IEEE_GET;
  skb.SetFamilyHeader(m, header);
  skb.NlaPutString(DCB_ATTR_IFNAME, ifname);
  const std::size_t ieee = skb.NestStartNoflag(DCB_ATTR_IEEE);
  skb.NlaPutStruct(DCB_ATTR_IEEE_ETS, c.ets);
  skb.NlaPutStruct(DCB_ATTR_IEEE_MAXRATE, c.maxrate);
  skb.NlaPut(DCB_ATTR_IEEE_PFC, &c.pfc, pfc_bytes);
  skb.NlaPutStruct(DCB_ATTR_DCB_BUFFER, c.buffer);
  const std::size_t app = skb.NestStartNoflag(DCB_ATTR_IEEE_APP_TABLE);
  for (const dcb_app& a : c.apps) skb.NlaPutStruct(DCB_ATTR_IEEE_APP, a);
  skb.NestEnd(app);
  skb.NestEnd(ieee);
  if (c.dcbx >= 0) skb.NlaPutU8(DCB_ATTR_DCBX, static_cast<std::uint8_t>(c.dcbx));
  skb.NlmsgEnd(m);
  return skb.bytes();
}

TEST(DcbnlRequest, IeeeGetBytes) {
  auto request = BuildIeeeGetRequest("ens1f0np0", 7);
  ASSERT_TRUE(request) << request.error().message;
  const std::vector<std::uint8_t> expected = {
      36,  0,   0,   0,  // nlmsg_len
      78,  0,            // RTM_GETDCB
      1,   0,            // NLM_F_REQUEST
      7,   0,   0,   0,  // seq
      0,   0,   0,   0,  // pid
      0,   21,  0,   0,  // struct dcbmsg {AF_UNSPEC, DCB_CMD_IEEE_GET, pad}
      14,  0,   1,   0,  // nla_len 14, DCB_ATTR_IFNAME
      'e', 'n', 's', '1', 'f', '0', 'n', 'p', '0', 0, 0, 0};
  EXPECT_EQ(*request, expected);
}

TEST(DcbnlRequest, DcbxGetUsesGdcbx) {
  auto request = BuildDcbxGetRequest("eth0", 1);
  ASSERT_TRUE(request);
  ASSERT_EQ(request->size(), 32u);
  EXPECT_EQ((*request)[17], 22);  // DCB_CMD_GDCBX
}

TEST(DcbnlRequest, RejectsBadInterfaceNames) {
  auto too_long = BuildIeeeGetRequest("ens1f0np0verylong", 1);
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().message,
            "dcbnl IEEE_GET request: interface name \"ens1f0np0verylong\" is 17 bytes; the kernel "
            "allows at most 15");
  EXPECT_FALSE(BuildIeeeGetRequest("", 1));
  EXPECT_FALSE(BuildIeeeGetRequest("eth0/1", 1));
  EXPECT_FALSE(BuildDcbxGetRequest("a b", 1));
}

TEST(DcbnlIeeeReply, DecodesMlx5RoceConfig) {
  auto state = DecodeIeeeReply(IeeeReply(RoceConfig()));
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_TRUE(state->supported);
  EXPECT_EQ(state->ifname, "ens1f0np0");

  ASSERT_TRUE(state->pfc);
  const Pfc& pfc = *state->pfc;
  EXPECT_EQ(pfc.capability, 8);
  EXPECT_EQ(pfc.enabled_bitmap, 0x08);
  for (int p = 0; p < 8; ++p) EXPECT_EQ(pfc.enabled[p], p == 3) << "priority " << p;
  EXPECT_EQ(pfc.tx_pause_frames[3], 123456u);
  EXPECT_EQ(pfc.rx_pause_frames[3], 7890u);
  EXPECT_EQ(pfc.tx_pause_frames[0], 0u);
  EXPECT_EQ(pfc.delay_bits, 0);

  ASSERT_TRUE(state->ets);
  EXPECT_FALSE(state->ets->willing);
  EXPECT_EQ(state->ets->ets_capability, 8);
  EXPECT_EQ(state->ets->tc_tx_bandwidth_percent[0], 50);
  EXPECT_EQ(state->ets->tc_tx_bandwidth_percent[3], 50);
  EXPECT_EQ(TsaName(state->ets->tc_tsa[3]), "ets");
  EXPECT_EQ(TsaName(state->ets->tc_tsa[6]), "strict");
  EXPECT_EQ(state->ets->priority_tc[3], 3);

  ASSERT_TRUE(state->tc_max_rate_bytes_per_second);
  EXPECT_EQ((*state->tc_max_rate_bytes_per_second)[0], 3125000000u);  // 25 Gbit/s
  EXPECT_EQ((*state->tc_max_rate_bytes_per_second)[1], 0u);           // no limit

  ASSERT_TRUE(state->buffer);
  EXPECT_EQ(state->buffer->priority_buffer[3], 1);
  EXPECT_EQ(state->buffer->priority_buffer[0], 0);
  EXPECT_EQ(state->buffer->buffer_size_bytes[0], 130944u);
  EXPECT_EQ(state->buffer->buffer_size_bytes[1], 261888u);
  EXPECT_EQ(state->buffer->total_size_bytes, 1048576u);

  ASSERT_EQ(state->app_table.size(), 2u);
  EXPECT_EQ(state->app_table[0].selector, 5);
  EXPECT_EQ(state->app_table[0].protocol, 48);
  EXPECT_EQ(state->app_table[0].priority, 6);
  EXPECT_EQ(SelectorName(state->app_table[1].selector), "dscp");
  EXPECT_EQ(TrustMode(*state), "dscp");

  const std::vector<DscpPriority> map = DscpToPriority(*state);
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map[0].dscp, 26);
  EXPECT_EQ(map[0].priority, 3);
  EXPECT_FALSE(map[0].ambiguous);
  EXPECT_EQ(map[1].dscp, 48);
  EXPECT_EQ(map[1].priority, 6);
  EXPECT_FALSE(map[1].ambiguous);

  ASSERT_TRUE(state->dcbx);
  EXPECT_TRUE(state->dcbx->host);
  EXPECT_TRUE(state->dcbx->ieee);
  EXPECT_FALSE(state->dcbx->cee);
  EXPECT_EQ(state->dcbx->Names(), (std::vector<std::string_view>{"host", "ieee"}));

  EXPECT_FALSE(state->peer_pfc);
  EXPECT_FALSE(state->trust_order);
}

TEST(DcbnlIeeeReply, PcpTrustWhenNoDscpEntries) {
  Mlx5Config c = RoceConfig();
  c.apps = {dcb_app{IEEE_8021QAZ_APP_SEL_ETHERTYPE, 3, 0x8915}};  // RoCEv1 ethertype
  c.dcbx = -1;  // driver without getdcbx: no DCB_ATTR_DCBX
  auto state = DecodeIeeeReply(IeeeReply(c));
  ASSERT_TRUE(state);
  EXPECT_EQ(TrustMode(*state), "pcp");
  EXPECT_TRUE(DscpToPriority(*state).empty());
  EXPECT_FALSE(state->dcbx);
  EXPECT_EQ(state->app_table[0].protocol, 0x8915);
}

TEST(DcbnlIeeeReply, OneDscpWithSeveralPrioritiesIsAmbiguousAndKeepsTheFirst) {
  Mlx5Config c = RoceConfig();
  c.apps.push_back(dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 4, 26});
  c.apps.push_back(dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26});  // the first priority again
  auto state = DecodeIeeeReply(IeeeReply(c));
  ASSERT_TRUE(state);
  const std::vector<DscpPriority> map = DscpToPriority(*state);
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map[0].dscp, 26);
  EXPECT_EQ(map[0].priority, 3);
  EXPECT_TRUE(map[0].ambiguous);
  EXPECT_FALSE(map[1].ambiguous);
}

// The same entry twice (an APP table that repeats itself) is not ambiguous; a DSCP over
// 63 is garbage and left out; the map is sorted by DSCP whatever the table's order.
TEST(DcbnlIeeeReply, RepeatedEntriesAreNotAmbiguousAndTheMapIsSortedByDscp) {
  Mlx5Config c = RoceConfig();
  c.apps = {dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 6, 48}, dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26},
            dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26}, dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 1, 64}};
  auto state = DecodeIeeeReply(IeeeReply(c));
  ASSERT_TRUE(state);
  const std::vector<DscpPriority> map = DscpToPriority(*state);
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map[0].dscp, 26);
  EXPECT_FALSE(map[0].ambiguous);
  EXPECT_EQ(map[1].dscp, 48);
  EXPECT_EQ(map[1].priority, 6);
}

TEST(DcbnlIeeeReply, DecodesNewerKernelAttributes) {
  // Kernels after 6.1: PCP entries as DCB_ATTR_DCB_APP, an APP trust table; peer PFC.
  KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(kPortId, kSeq, RTM_GETDCB, sizeof(dcbmsg), 0);
  dcbmsg header{AF_UNSPEC, DCB_CMD_IEEE_GET, 0};
  skb.SetFamilyHeader(m, header);
  skb.NlaPutString(DCB_ATTR_IFNAME, "swp1");
  const std::size_t ieee = skb.NestStartNoflag(DCB_ATTR_IEEE);
  const std::size_t app = skb.NestStartNoflag(DCB_ATTR_IEEE_APP_TABLE);
  skb.NlaPutStruct(DCB_ATTR_IEEE_APP + 1, dcb_app{255, 3, 3});  // DCB_ATTR_DCB_APP, PCP 3
  skb.NestEnd(app);
  const std::size_t trust = skb.NestStart(DCB_ATTR_DCB_BUFFER + 1);  // APP_TRUST_TABLE
  skb.NlaPutU8(DCB_ATTR_IEEE_APP, IEEE_8021QAZ_APP_SEL_DSCP);
  skb.NlaPutU8(DCB_ATTR_IEEE_APP + 1, 255);
  skb.NestEnd(trust);
  ieee_pfc peer{};
  peer.pfc_en = 0x48;
  skb.NlaPutStruct(DCB_ATTR_IEEE_PEER_PFC, peer);
  skb.NestEnd(ieee);
  skb.NlmsgEnd(m);

  auto state = DecodeIeeeReply(skb.bytes());
  ASSERT_TRUE(state) << state.error().message;
  ASSERT_EQ(state->app_table.size(), 1u);
  EXPECT_EQ(SelectorName(state->app_table[0].selector), "pcp");
  ASSERT_TRUE(state->trust_order);
  EXPECT_EQ(*state->trust_order, (std::vector<std::uint8_t>{5, 255}));
  ASSERT_TRUE(state->peer_pfc);
  EXPECT_TRUE(state->peer_pfc->enabled[3]);
  EXPECT_TRUE(state->peer_pfc->enabled[6]);
  EXPECT_FALSE(state->pfc);
  EXPECT_EQ(TrustMode(*state), "pcp");
}

TEST(DcbnlIeeeReply, EopnotsuppMeansNoDcb) {
  // A veth has no dcbnl_ops: dcb_doit() returns -EOPNOTSUPP and netlink_ack() answers.
  auto request = BuildIeeeGetRequest("veth0", kSeq);
  ASSERT_TRUE(request);
  KernelSkb skb;
  skb.Ack(*request, EOPNOTSUPP);
  auto state = DecodeIeeeReply(skb.bytes());
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_FALSE(state->supported);
  EXPECT_FALSE(state->pfc);
  EXPECT_TRUE(state->app_table.empty());

  auto dcbx = DecodeDcbxReply(skb.bytes());
  ASSERT_TRUE(dcbx);
  EXPECT_FALSE(dcbx->supported);
}

TEST(DcbnlIeeeReply, OtherErrnoIsAnError) {
  auto request = BuildIeeeGetRequest("gone0", kSeq);
  ASSERT_TRUE(request);
  KernelSkb skb;
  skb.Ack(*request, ENODEV);
  auto state = DecodeIeeeReply(skb.bytes());
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().code, ENODEV);
  EXPECT_EQ(state.error().message, "dcbnl IEEE_GET reply: kernel answered ENODEV (no such device)");
}

TEST(DcbnlIeeeReply, ShortPfcIsRejectedNamingTheAttribute) {
  auto state = DecodeIeeeReply(IeeeReply(RoceConfig(), "ens1f0np0", sizeof(ieee_pfc) - 4));
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().message,
            "dcbnl IEEE_GET reply: DCB_ATTR_IEEE_PFC: payload is 132 bytes, expected 136");
}

TEST(DcbnlIeeeReply, WrongAppEntrySizeIsRejected) {
  KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(kPortId, kSeq, RTM_GETDCB, sizeof(dcbmsg), 0);
  skb.SetFamilyHeader(m, dcbmsg{AF_UNSPEC, DCB_CMD_IEEE_GET, 0});
  const std::size_t ieee = skb.NestStartNoflag(DCB_ATTR_IEEE);
  const std::size_t app = skb.NestStartNoflag(DCB_ATTR_IEEE_APP_TABLE);
  const std::uint8_t three[3] = {5, 3, 26};
  skb.NlaPut(DCB_ATTR_IEEE_APP, three, sizeof(three));
  skb.NestEnd(app);
  skb.NestEnd(ieee);
  skb.NlmsgEnd(m);
  auto state = DecodeIeeeReply(skb.bytes());
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().message,
            "dcbnl IEEE_GET reply: DCB_ATTR_IEEE_APP: payload is 3 bytes, expected 4");
}

TEST(DcbnlIeeeReply, EveryTruncationIsRejected) {
  const std::vector<std::uint8_t> full = IeeeReply(RoceConfig());
  ASSERT_TRUE(DecodeIeeeReply(full));
  for (std::size_t n = 0; n < full.size(); ++n) {
    auto state = DecodeIeeeReply(std::span(full).first(n));
    EXPECT_FALSE(state) << "a reply cut to " << n << " of " << full.size() << " bytes decoded";
  }
}

TEST(DcbnlIeeeReply, CorruptedBytesNeverCrash) {
  // Flip each byte: every outcome must be a value (sanitizer builds check for UB).
  const std::vector<std::uint8_t> full = IeeeReply(RoceConfig());
  std::size_t rejected = 0;
  for (std::size_t i = 0; i < full.size(); ++i) {
    std::vector<std::uint8_t> bad = full;
    bad[i] ^= 0xff;
    if (!DecodeIeeeReply(bad)) ++rejected;
  }
  // Corrupting any length or type field is caught; corrupting payload bytes is not.
  EXPECT_GT(rejected, 10u);
  EXPECT_LT(rejected, full.size());
}

TEST(DcbnlIeeeReply, MaxrateOverflowIsRejected) {
  Mlx5Config c = RoceConfig();
  c.maxrate.tc_maxrate[5] = ~std::uint64_t{0};
  auto state = DecodeIeeeReply(IeeeReply(c));
  ASSERT_FALSE(state);
  EXPECT_NE(state.error().message.find("DCB_ATTR_IEEE_MAXRATE: TC 5"), std::string::npos);
}

TEST(DcbnlIeeeReply, WrongCommandIsRejected) {
  KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(kPortId, kSeq, RTM_GETDCB, sizeof(dcbmsg), 0);
  skb.SetFamilyHeader(m, dcbmsg{AF_UNSPEC, DCB_CMD_CEE_GET, 0});
  skb.NlmsgEnd(m);
  auto state = DecodeIeeeReply(skb.bytes());
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().message,
            "dcbnl IEEE_GET reply: reply is for dcb command 26, expected 21");
}

TEST(DcbnlDcbxReply, DecodesFirmwareManagedMode) {
  // dcbnl_getdcbx() for mlx5 in firmware (LLD-managed) mode.
  KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(kPortId, kSeq, RTM_GETDCB, sizeof(dcbmsg), 0);
  skb.SetFamilyHeader(m, dcbmsg{AF_UNSPEC, DCB_CMD_GDCBX, 0});
  skb.NlaPutU8(DCB_ATTR_DCBX,
               DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE);
  skb.NlmsgEnd(m);
  auto reply = DecodeDcbxReply(skb.bytes());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_TRUE(reply->supported);
  EXPECT_EQ(reply->mode.raw, 0x0e);
  EXPECT_EQ(reply->mode.Names(), (std::vector<std::string_view>{"lld_managed", "cee", "ieee"}));
  EXPECT_FALSE(reply->mode.host);
}

TEST(DcbnlDcbxReply, StaticMode) {
  const DcbxMode mode = DecodeDcbxBits(DCB_CAP_DCBX_STATIC | DCB_CAP_DCBX_VER_IEEE);
  EXPECT_EQ(mode.Names(), (std::vector<std::string_view>{"ieee", "static"}));
}

}  // namespace
}  // namespace rocewatch::dcbnl
