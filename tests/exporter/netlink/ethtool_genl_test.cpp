// ethtool genetlink requests and reply decoding, against replies laid out the way
// net/ethtool/netlink.c (ethnl_fill_reply_header) and linkstate.c / pause.c / eeprom.c, and
// net/netlink/genetlink.c (ctrl_fill_info) build them.

#include "exporter/netlink/ethtool_genl.h"

#include <gtest/gtest.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cerrno>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "exporter/netlink/messages.h"
#include "exporter/netlink/kernel_skb.h"

namespace rocewatch::ethtool_nl {
namespace {

using testing::KernelSkb;

constexpr std::uint16_t kFamily = 21;  // what GETFAMILY answered on this kind of node
constexpr std::uint32_t kSeq = 33;
constexpr std::uint16_t kLinkStateExtDownCnt = 7;  // ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT (after 6.1)

// ethnl_fill_reply_header(): nla_nest_start (flagged), DEV_INDEX u32, DEV_NAME string.
void PutReplyHeader(KernelSkb& skb, std::uint16_t attr, std::uint32_t ifindex,
                    std::string_view ifname) {
  const std::size_t nest = skb.NestStart(attr);
  skb.NlaPutU32(ETHTOOL_A_HEADER_DEV_INDEX, ifindex);
  skb.NlaPutString(ETHTOOL_A_HEADER_DEV_NAME, ifname);
  skb.NestEnd(nest);
}

TEST(EthtoolNlRequest, GetFamilyBytes) {
  const std::vector<std::uint8_t> request = BuildGetFamilyRequest(1);
  const std::vector<std::uint8_t> expected = {
      32,  0,   0,   0,  // nlmsg_len
      16,  0,            // GENL_ID_CTRL
      1,   0,            // NLM_F_REQUEST
      1,   0,   0,   0,  // seq
      0,   0,   0,   0,  // pid
      3,   1,   0,   0,  // genlmsghdr {CTRL_CMD_GETFAMILY, version 1}
      12,  0,   2,   0,  // nla_len 12, CTRL_ATTR_FAMILY_NAME
      'e', 't', 'h', 't', 'o', 'o', 'l', 0};
  EXPECT_EQ(request, expected);
}

TEST(EthtoolNlRequest, LinkStateBytes) {
  auto request = BuildLinkStateRequest(kFamily, "eth0", 9);
  ASSERT_TRUE(request) << request.error().message;
  const std::vector<std::uint8_t> expected = {
      36,  0,   0,   0,     // nlmsg_len
      21,  0,               // the ethtool family id
      1,   0,               // NLM_F_REQUEST
      9,   0,   0,   0,     // seq
      0,   0,   0,   0,     // pid
      6,   1,   0,   0,     // genlmsghdr {ETHTOOL_MSG_LINKSTATE_GET, ETHTOOL_GENL_VERSION}
      16,  0,   1,   0x80,  // ETHTOOL_A_LINKSTATE_HEADER | NLA_F_NESTED, 16 bytes
      9,   0,   2,   0,     // ETHTOOL_A_HEADER_DEV_NAME
      'e', 't', 'h', '0',  0, 0, 0, 0};
  EXPECT_EQ(*request, expected);
}

TEST(EthtoolNlRequest, PauseAsksForStats) {
  auto request = BuildPauseRequest(kFamily, "ens1f0np0", 2);
  ASSERT_TRUE(request);
  auto message = netlink::ExpectReply(*request, kFamily, "request");
  ASSERT_TRUE(message);
  EXPECT_EQ(message->payload[0], ETHTOOL_MSG_PAUSE_GET);
  auto attrs = netlink::ParseAttributes(message->payload.subspan(GENL_HDRLEN), "request");
  ASSERT_TRUE(attrs);
  ASSERT_EQ(attrs->size(), 1u);
  EXPECT_EQ((*attrs)[0].type, ETHTOOL_A_PAUSE_HEADER);
  EXPECT_TRUE((*attrs)[0].nested_flag);
  auto header = netlink::GetNested((*attrs)[0], "header");
  ASSERT_TRUE(header);
  EXPECT_EQ(*netlink::GetString(*netlink::FindAttribute(*header, ETHTOOL_A_HEADER_DEV_NAME), "n"),
            "ens1f0np0");
  EXPECT_EQ(*netlink::GetU32(*netlink::FindAttribute(*header, ETHTOOL_A_HEADER_FLAGS), "f"),
            static_cast<std::uint32_t>(ETHTOOL_FLAG_STATS));
}

TEST(EthtoolNlRequest, LinkStateStatsFlagIsOptIn) {
  auto plain = BuildLinkStateRequest(kFamily, "eth0", 1);
  auto stats = BuildLinkStateRequest(kFamily, "eth0", 1, /*with_stats=*/true);
  ASSERT_TRUE(plain);
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->size(), plain->size() + 8);  // one u32 ETHTOOL_A_HEADER_FLAGS
}

TEST(EthtoolNlRequest, ModuleEepromAttributes) {
  ModuleEepromRequest r;
  r.offset = 128;
  r.length = 128;
  r.page = 3;
  r.bank = 0;
  r.i2c_address = 0x50;
  auto request = BuildModuleEepromRequest(kFamily, "ens1f0np0", r, 4);
  ASSERT_TRUE(request) << request.error().message;
  auto message = netlink::ExpectReply(*request, kFamily, "request");
  ASSERT_TRUE(message);
  auto attrs = netlink::ParseAttributes(message->payload.subspan(GENL_HDRLEN), "request");
  ASSERT_TRUE(attrs);
  using netlink::FindAttribute;
  EXPECT_EQ(*netlink::GetU32(*FindAttribute(*attrs, ETHTOOL_A_MODULE_EEPROM_OFFSET), "o"), 128u);
  EXPECT_EQ(*netlink::GetU32(*FindAttribute(*attrs, ETHTOOL_A_MODULE_EEPROM_LENGTH), "l"), 128u);
  EXPECT_EQ(*netlink::GetU8(*FindAttribute(*attrs, ETHTOOL_A_MODULE_EEPROM_PAGE), "p"), 3);
  EXPECT_EQ(*netlink::GetU8(*FindAttribute(*attrs, ETHTOOL_A_MODULE_EEPROM_BANK), "b"), 0);
  EXPECT_EQ(*netlink::GetU8(*FindAttribute(*attrs, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS), "i"),
            0x50);
}

TEST(EthtoolNlRequest, ModuleEepromRefusesWhatTheKernelRefuses) {
  auto build = [](std::uint32_t offset, std::uint32_t length, std::uint8_t page,
                  std::uint8_t i2c = 0x50) {
    ModuleEepromRequest r{offset, length, page, 0, i2c};
    return BuildModuleEepromRequest(kFamily, "eth0", r, 1);
  };
  EXPECT_TRUE(build(0, 128, 0));
  EXPECT_TRUE(build(96, 32, 0));
  auto crossing = build(64, 128, 0);
  ASSERT_FALSE(crossing);
  EXPECT_EQ(crossing.error().message,
            "ethtool MODULE_EEPROM_GET request: offset 64 length 128 crosses offset 128 "
            "(lower/upper page boundary)");
  EXPECT_FALSE(build(0, 0, 0));
  EXPECT_FALSE(build(0, 129, 0));
  EXPECT_FALSE(build(200, 100, 0));
  EXPECT_FALSE(build(0, 64, 1));  // lower half exists only for page 0
  EXPECT_FALSE(build(0, 1, 0, 0x80));
  EXPECT_FALSE(BuildModuleEepromRequest(3, "eth0", ModuleEepromRequest{}, 1));  // not a family
}

TEST(EthtoolNlFamily, DecodesCtrlReply) {
  // ctrl_fill_info(): NAME, ID, VERSION, HDRSIZE, MAXATTR, OPS, MCAST_GROUPS.
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(4242, 1, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 2);
  skb.NlaPutString(CTRL_ATTR_FAMILY_NAME, "ethtool");
  skb.NlaPutU16(CTRL_ATTR_FAMILY_ID, kFamily);
  skb.NlaPutU32(CTRL_ATTR_VERSION, ETHTOOL_GENL_VERSION);
  skb.NlaPutU32(CTRL_ATTR_HDRSIZE, 0);
  skb.NlaPutU32(CTRL_ATTR_MAXATTR, 0);
  const std::size_t ops = skb.NestStartNoflag(CTRL_ATTR_OPS);
  const std::size_t op = skb.NestStartNoflag(1);
  skb.NlaPutU32(CTRL_ATTR_OP_ID, ETHTOOL_MSG_LINKSTATE_GET);
  skb.NlaPutU32(CTRL_ATTR_OP_FLAGS, GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP);
  skb.NestEnd(op);
  skb.NestEnd(ops);
  const std::size_t groups = skb.NestStartNoflag(CTRL_ATTR_MCAST_GROUPS);
  const std::size_t group = skb.NestStartNoflag(1);
  skb.NlaPutString(CTRL_ATTR_MCAST_GRP_NAME, "monitor");
  skb.NlaPutU32(CTRL_ATTR_MCAST_GRP_ID, 5);
  skb.NestEnd(group);
  skb.NestEnd(groups);
  skb.NlmsgEnd(m);

  auto info = DecodeGetFamilyReply(skb.bytes());
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->id, kFamily);
  EXPECT_EQ(info->name, "ethtool");
  EXPECT_EQ(info->version, 1u);
}

TEST(EthtoolNlFamily, NoEthtoolNetlinkIsEnoent) {
  const std::vector<std::uint8_t> request = BuildGetFamilyRequest(1);
  KernelSkb skb;
  skb.Ack(request, ENOENT);
  auto info = DecodeGetFamilyReply(skb.bytes());
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().code, ENOENT);
}

TEST(EthtoolNlLinkState, LinkDownWithTrainingFailure) {
  // linkstate_fill_reply() for an mlx5 port whose link training failed.
  KernelSkb skb;
  const std::size_t m =
      skb.GenlmsgPut(4242, kSeq, kFamily, ETHTOOL_MSG_LINKSTATE_GET_REPLY, ETHTOOL_GENL_VERSION);
  PutReplyHeader(skb, ETHTOOL_A_LINKSTATE_HEADER, 4, "ens1f0np0");
  skb.NlaPutU8(ETHTOOL_A_LINKSTATE_LINK, 0);
  skb.NlaPutU8(ETHTOOL_A_LINKSTATE_EXT_STATE, ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE);
  skb.NlaPutU8(ETHTOOL_A_LINKSTATE_EXT_SUBSTATE,
               ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_LINK_INHIBIT_TIMEOUT);
  skb.NlaPutU32(kLinkStateExtDownCnt, 17);
  skb.NlmsgEnd(m);

  auto state = DecodeLinkStateReply(skb.bytes());
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_EQ(state->header.ifname, "ens1f0np0");
  EXPECT_EQ(state->header.ifindex, 4u);
  ASSERT_TRUE(state->link);
  EXPECT_FALSE(*state->link);
  EXPECT_FALSE(state->sqi);
  ASSERT_TRUE(state->ext_state);
  EXPECT_EQ(state->ext_state->value, 1);
  EXPECT_EQ(state->ext_state->name, "link_training_failure");
  ASSERT_TRUE(state->ext_substate);
  EXPECT_EQ(state->ext_substate->value, 2);
  EXPECT_EQ(state->ext_substate->name, "kr_link_inhibit_timeout");
  EXPECT_EQ(state->ext_down_count, 17u);
}

TEST(EthtoolNlLinkState, LinkUpWithSqi) {
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(1, kSeq, kFamily, ETHTOOL_MSG_LINKSTATE_GET_REPLY, 1);
  PutReplyHeader(skb, ETHTOOL_A_LINKSTATE_HEADER, 2, "eth0");
  skb.NlaPutU8(ETHTOOL_A_LINKSTATE_LINK, 1);
  skb.NlaPutU32(ETHTOOL_A_LINKSTATE_SQI, 6);
  skb.NlaPutU32(ETHTOOL_A_LINKSTATE_SQI_MAX, 7);
  skb.NlmsgEnd(m);
  auto state = DecodeLinkStateReply(skb.bytes());
  ASSERT_TRUE(state);
  EXPECT_TRUE(*state->link);
  EXPECT_EQ(state->sqi, 6u);
  EXPECT_EQ(state->sqi_max, 7u);
  EXPECT_FALSE(state->ext_state);
  EXPECT_FALSE(state->ext_down_count);
}

TEST(EthtoolNlLinkState, WrongLengthNamesTheAttribute) {
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(1, kSeq, kFamily, ETHTOOL_MSG_LINKSTATE_GET_REPLY, 1);
  skb.NlaPutU32(ETHTOOL_A_LINKSTATE_LINK, 1);
  skb.NlmsgEnd(m);
  auto state = DecodeLinkStateReply(skb.bytes());
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().message,
            "ethtool LINKSTATE_GET reply: ETHTOOL_A_LINKSTATE_LINK: payload is 4 bytes, "
            "expected 1");
}

TEST(EthtoolNlLinkState, WrongCommandIsRejected) {
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(1, kSeq, kFamily, ETHTOOL_MSG_PAUSE_GET_REPLY, 1);
  skb.NlmsgEnd(m);
  auto state = DecodeLinkStateReply(skb.bytes());
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().message, "ethtool LINKSTATE_GET reply: reply command is 22, expected 6");
}

std::vector<std::uint8_t> PauseReply(bool pad64, bool with_stats = true) {
  // pause_fill_reply(): AUTONEG, RX, TX, then the STATS nest with nla_put_u64_64bit().
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(4242, kSeq, kFamily, ETHTOOL_MSG_PAUSE_GET_REPLY, 1);
  PutReplyHeader(skb, ETHTOOL_A_PAUSE_HEADER, 4, "ens1f0np0");
  skb.NlaPutU8(ETHTOOL_A_PAUSE_AUTONEG, 0);
  skb.NlaPutU8(ETHTOOL_A_PAUSE_RX, 1);
  skb.NlaPutU8(ETHTOOL_A_PAUSE_TX, 1);
  if (with_stats) {
    const std::size_t stats = skb.NestStart(ETHTOOL_A_PAUSE_STATS);
    skb.NlaPutU64With64BitPad(ETHTOOL_A_PAUSE_STAT_TX_FRAMES, 1266552, ETHTOOL_A_PAUSE_STAT_PAD,
                              pad64);
    skb.NlaPutU64With64BitPad(ETHTOOL_A_PAUSE_STAT_RX_FRAMES, 40, ETHTOOL_A_PAUSE_STAT_PAD, pad64);
    skb.NestEnd(stats);
  }
  skb.NlmsgEnd(m);
  return skb.bytes();
}

TEST(EthtoolNlPause, DecodesSettingsAndStats) {
  for (bool pad64 : {false, true}) {
    const std::vector<std::uint8_t> reply = PauseReply(pad64);
    auto pause = DecodePauseReply(reply);
    ASSERT_TRUE(pause) << pause.error().message;
    EXPECT_EQ(pause->header.ifname, "ens1f0np0");
    EXPECT_FALSE(pause->autoneg);
    EXPECT_TRUE(pause->rx);
    EXPECT_TRUE(pause->tx);
    ASSERT_TRUE(pause->stats);
    EXPECT_EQ(pause->stats->tx_pause_frames, 1266552u);
    EXPECT_EQ(pause->stats->rx_pause_frames, 40u);
  }
  // The padded layout really has PAD attributes in it.
  EXPECT_GT(PauseReply(true).size(), PauseReply(false).size());
}

TEST(EthtoolNlPause, WithoutStats) {
  auto pause = DecodePauseReply(PauseReply(false, /*with_stats=*/false));
  ASSERT_TRUE(pause);
  EXPECT_FALSE(pause->stats);
}

TEST(EthtoolNlPause, VethAnswersEopnotsupp) {
  auto request = BuildPauseRequest(kFamily, "veth0", kSeq);
  ASSERT_TRUE(request);
  KernelSkb skb;
  skb.Ack(*request, EOPNOTSUPP);
  auto pause = DecodePauseReply(skb.bytes());
  ASSERT_FALSE(pause);
  EXPECT_EQ(pause.error().code, EOPNOTSUPP);
  EXPECT_EQ(pause.error().message,
            "ethtool PAUSE_GET reply: kernel answered EOPNOTSUPP (operation not supported)");
}

TEST(EthtoolNlPause, ShortStatIsRejected) {
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(1, kSeq, kFamily, ETHTOOL_MSG_PAUSE_GET_REPLY, 1);
  skb.NlaPutU8(ETHTOOL_A_PAUSE_AUTONEG, 0);
  skb.NlaPutU8(ETHTOOL_A_PAUSE_RX, 1);
  skb.NlaPutU8(ETHTOOL_A_PAUSE_TX, 1);
  const std::size_t stats = skb.NestStart(ETHTOOL_A_PAUSE_STATS);
  skb.NlaPutU32(ETHTOOL_A_PAUSE_STAT_TX_FRAMES, 5);
  skb.NestEnd(stats);
  skb.NlmsgEnd(m);
  auto pause = DecodePauseReply(skb.bytes());
  ASSERT_FALSE(pause);
  EXPECT_EQ(pause.error().message,
            "ethtool PAUSE_GET reply: ETHTOOL_A_PAUSE_STAT_TX_FRAMES: payload is 4 bytes, "
            "expected 8");
}

TEST(EthtoolNlPause, MissingSettingIsRejected) {
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(1, kSeq, kFamily, ETHTOOL_MSG_PAUSE_GET_REPLY, 1);
  skb.NlaPutU8(ETHTOOL_A_PAUSE_AUTONEG, 0);
  skb.NlaPutU8(ETHTOOL_A_PAUSE_TX, 1);
  skb.NlmsgEnd(m);
  auto pause = DecodePauseReply(skb.bytes());
  ASSERT_FALSE(pause);
  EXPECT_EQ(pause.error().message, "ethtool PAUSE_GET reply: missing ETHTOOL_A_PAUSE_RX");
}

TEST(EthtoolNlModuleEeprom, ReturnsDataBytes) {
  // eeprom_fill_reply(): header, then DATA of the length read. SFF-8636 lower page of a
  // QSFP28 module: identifier 0x11, revision 0x08 (SFF-8636 rev 2.7+), status flags.
  std::vector<std::uint8_t> page(128, 0);
  page[0] = 0x11;
  page[1] = 0x08;
  page[2] = 0x04;
  page[22] = 38;  // temperature MSB: 38 °C
  page[23] = 128;
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(1, kSeq, kFamily, ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, 1);
  PutReplyHeader(skb, ETHTOOL_A_MODULE_EEPROM_HEADER, 4, "ens1f0np0");
  skb.NlaPut(ETHTOOL_A_MODULE_EEPROM_DATA, page.data(), page.size());
  skb.NlmsgEnd(m);
  auto eeprom = DecodeModuleEepromReply(skb.bytes());
  ASSERT_TRUE(eeprom) << eeprom.error().message;
  EXPECT_EQ(eeprom->header.ifname, "ens1f0np0");
  EXPECT_EQ(eeprom->data, page);
}

TEST(EthtoolNlModuleEeprom, ExtackExplainsRefusal) {
  ModuleEepromRequest r{0, 128, 0, 0, 0x50};
  auto request = BuildModuleEepromRequest(kFamily, "ens1f0np0", r, kSeq);
  ASSERT_TRUE(request);
  KernelSkb skb;
  skb.Ack(*request, EIO, /*capped=*/true, "Module EEPROM read failed", 0);
  auto eeprom = DecodeModuleEepromReply(skb.bytes());
  ASSERT_FALSE(eeprom);
  EXPECT_EQ(eeprom.error().code, EIO);
  EXPECT_EQ(eeprom.error().message,
            "ethtool MODULE_EEPROM_GET reply: kernel answered EIO (input/output error): Module "
            "EEPROM read failed");
}

TEST(EthtoolNlModuleEeprom, MissingDataIsRejected) {
  KernelSkb skb;
  const std::size_t m = skb.GenlmsgPut(1, kSeq, kFamily, ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, 1);
  PutReplyHeader(skb, ETHTOOL_A_MODULE_EEPROM_HEADER, 4, "ens1f0np0");
  skb.NlmsgEnd(m);
  auto eeprom = DecodeModuleEepromReply(skb.bytes());
  ASSERT_FALSE(eeprom);
  EXPECT_EQ(eeprom.error().message,
            "ethtool MODULE_EEPROM_GET reply: no ETHTOOL_A_MODULE_EEPROM_DATA attribute");
}

TEST(EthtoolNlLinkState, NamesEveryKnownState) {
  EXPECT_EQ(LinkExtStateName(ETHTOOL_LINK_EXT_STATE_AUTONEG), "autoneg");
  EXPECT_EQ(LinkExtStateName(ETHTOOL_LINK_EXT_STATE_MODULE), "module");
  EXPECT_EQ(LinkExtStateName(200), "unknown");
  EXPECT_EQ(LinkExtSubstateName(ETHTOOL_LINK_EXT_STATE_AUTONEG,
                                ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_PARTNER_DETECTED),
            "no_partner_detected");
  EXPECT_EQ(LinkExtSubstateName(ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY,
                                ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_ALOS),
            "serdes_alos");
  EXPECT_EQ(LinkExtSubstateName(ETHTOOL_LINK_EXT_STATE_NO_CABLE, 1), "unknown");
}

}  // namespace
}  // namespace rocewatch::ethtool_nl
