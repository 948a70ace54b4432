#include "exporter/netlink/ethtool_genl.h"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cstring>
#include <string>

#include "exporter/netlink/ethtool_reply.h"
#include "exporter/netlink/interface_name.h"
#include "exporter/netlink/message_builder.h"
#include "exporter/netlink/messages.h"
#include "rocewatch/strings.h"

namespace rocewatch::ethtool_nl {

using netlink::Attribute;
using netlink::Bytes;

namespace {

// Newer than the installed UAPI headers (linux-libc-dev 6.1); from the kernel's
// include/uapi/linux/ethtool_netlink.h: ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT (u32) follows
// EXT_SUBSTATE in kernels after 6.1.
static_assert(ETHTOOL_A_LINKSTATE_EXT_SUBSTATE == 6, "LINKSTATE enum changed");
constexpr std::uint16_t kLinkStateExtDownCount = ETHTOOL_A_LINKSTATE_EXT_SUBSTATE + 1;

constexpr std::uint32_t kEepromHalfPage = 128;  // ETH_MODULE_EEPROM_PAGE_LEN / 2
constexpr std::uint32_t kEepromPage = 256;      // ETH_MODULE_EEPROM_PAGE_LEN
constexpr std::uint8_t kMaxI2cAddress = 0x7f;   // ETH_MODULE_MAX_I2C_ADDRESS

}  // namespace

namespace detail {

Error Prefixed(std::string_view where, const Error& error) {
  return Error{std::string(where) + ": " + error.message, error.code};
}

// Starts an ethtool request: header, genlmsghdr, and the nested request header.
Result<netlink::MessageBuilder> StartRequest(std::uint16_t family_id, std::uint8_t cmd,
                                             std::uint16_t header_attr, std::string_view ifname,
                                             std::uint32_t flags, std::uint32_t seq,
                                             std::string_view what) {
  if (Status valid = netlink::ValidateInterfaceName(ifname); !valid) {
    return Error{std::string(what) + " request: " + valid.error().message};
  }
  if (family_id < NLMSG_MIN_TYPE) {
    return Error{std::string(what) + " request: family id " + std::to_string(family_id) +
                 " is not a genetlink family (resolve \"ethtool\" with GETFAMILY first)"};
  }
  netlink::MessageBuilder builder(family_id, NLM_F_REQUEST, seq);
  genlmsghdr genl{};
  genl.cmd = cmd;
  genl.version = ETHTOOL_GENL_VERSION;
  builder.PutFamilyHeader(genl);
  const std::size_t nest = builder.BeginNest(header_attr);
  builder.PutString(ETHTOOL_A_HEADER_DEV_NAME, ifname);
  if (flags != 0) builder.PutU32(ETHTOOL_A_HEADER_FLAGS, flags);
  builder.EndNest(nest);
  return builder;
}

// The attributes of a genetlink reply after checking its command.
Result<std::vector<Attribute>> GenlAttributes(const netlink::Message& message, std::uint8_t cmd,
                                              std::string_view where) {
  if (message.payload.size() < GENL_HDRLEN) {
    return Error{std::string(where) + ": payload is " + std::to_string(message.payload.size()) +
                 " bytes, too short for struct genlmsghdr"};
  }
  genlmsghdr genl;
  std::memcpy(&genl, message.payload.data(), sizeof(genl));
  if (genl.cmd != cmd) {
    return Error{std::string(where) + ": reply command is " + std::to_string(genl.cmd) +
                 ", expected " + std::to_string(cmd)};
  }
  return netlink::ParseAttributes(message.payload.subspan(GENL_HDRLEN), where);
}

// An ethtool reply: the data message whatever its family id (the caller's id is not known
// here), identified by its command.
Result<std::vector<Attribute>> EthtoolReply(Bytes reply, std::uint8_t cmd, std::string_view where) {
  auto message = netlink::ExpectDataReply(reply, where);
  if (!message) return message.error();
  return GenlAttributes(*message, cmd, where);
}

Result<ReplyHeader> DecodeHeader(const Attribute& nest, std::string_view name) {
  auto attributes = netlink::GetNested(nest, name);
  if (!attributes) return attributes.error();
  ReplyHeader header;
  for (const Attribute& a : *attributes) {
    if (a.type == ETHTOOL_A_HEADER_DEV_NAME) {
      auto ifname = netlink::GetString(a, "ETHTOOL_A_HEADER_DEV_NAME");
      if (!ifname) return ifname.error();
      header.ifname = std::move(*ifname);
    } else if (a.type == ETHTOOL_A_HEADER_DEV_INDEX) {
      auto index = netlink::GetU32(a, "ETHTOOL_A_HEADER_DEV_INDEX");
      if (!index) return index.error();
      header.ifindex = *index;
    }
  }
  return header;
}

}  // namespace detail

namespace {

using detail::DecodeHeader;
using detail::EthtoolReply;
using detail::GenlAttributes;
using detail::Prefixed;
using detail::StartRequest;

Result<bool> GetFlag(const Attribute& a, std::string_view name) {
  auto value = netlink::GetU8(a, name);
  if (!value) return value.error();
  return *value != 0;
}

Result<PauseStats> DecodePauseStats(const Attribute& nest) {
  auto attributes = netlink::GetNested(nest, "ETHTOOL_A_PAUSE_STATS");
  if (!attributes) return attributes.error();
  PauseStats stats;
  for (const Attribute& a : *attributes) {
    // ETHTOOL_A_PAUSE_STAT_PAD only aligns the u64s that follow; skip it whatever its size.
    if (a.type == ETHTOOL_A_PAUSE_STAT_TX_FRAMES) {
      auto v = netlink::GetU64(a, "ETHTOOL_A_PAUSE_STAT_TX_FRAMES");
      if (!v) return v.error();
      stats.tx_pause_frames = *v;
    } else if (a.type == ETHTOOL_A_PAUSE_STAT_RX_FRAMES) {
      auto v = netlink::GetU64(a, "ETHTOOL_A_PAUSE_STAT_RX_FRAMES");
      if (!v) return v.error();
      stats.rx_pause_frames = *v;
    }
  }
  return stats;
}

}  // namespace

std::vector<std::uint8_t> BuildGetFamilyRequest(std::uint32_t seq) {
  netlink::MessageBuilder builder(GENL_ID_CTRL, NLM_F_REQUEST, seq);
  genlmsghdr genl{};
  genl.cmd = CTRL_CMD_GETFAMILY;
  genl.version = 1;
  builder.PutFamilyHeader(genl);
  builder.PutString(CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
  return std::move(builder).Finish();
}

Result<FamilyInfo> DecodeGetFamilyReply(Bytes reply) {
  constexpr std::string_view kWhere = "genetlink GETFAMILY \"ethtool\" reply";
  auto message = netlink::ExpectReply(reply, GENL_ID_CTRL, kWhere);
  if (!message) return message.error();
  auto attributes = GenlAttributes(*message, CTRL_CMD_NEWFAMILY, kWhere);
  if (!attributes) return attributes.error();
  FamilyInfo info;
  bool have_id = false;
  for (const Attribute& a : *attributes) {
    switch (a.type) {
      case CTRL_ATTR_FAMILY_ID: {
        auto id = netlink::GetU16(a, "CTRL_ATTR_FAMILY_ID");
        if (!id) return Prefixed(kWhere, id.error());
        info.id = *id;
        have_id = true;
        break;
      }
      case CTRL_ATTR_FAMILY_NAME: {
        auto name = netlink::GetString(a, "CTRL_ATTR_FAMILY_NAME");
        if (!name) return Prefixed(kWhere, name.error());
        info.name = std::move(*name);
        break;
      }
      case CTRL_ATTR_VERSION: {
        auto v = netlink::GetU32(a, "CTRL_ATTR_VERSION");
        if (!v) return Prefixed(kWhere, v.error());
        info.version = *v;
        break;
      }
      case CTRL_ATTR_MAXATTR: {
        auto v = netlink::GetU32(a, "CTRL_ATTR_MAXATTR");
        if (!v) return Prefixed(kWhere, v.error());
        info.max_attribute = *v;
        break;
      }
      default:
        break;  // HDRSIZE, OPS, MCAST_GROUPS, POLICY
    }
  }
  if (!have_id) return Error{std::string(kWhere) + ": no CTRL_ATTR_FAMILY_ID"};
  if (info.name != ETHTOOL_GENL_NAME) {
    return Error{std::string(kWhere) + ": family name is " + Quote(info.name) +
                 ", expected \"ethtool\""};
  }
  if (info.id < NLMSG_MIN_TYPE) {
    return Error{std::string(kWhere) + ": family id " + std::to_string(info.id) +
                 " is in the reserved control range"};
  }
  return info;
}

Result<std::vector<std::uint8_t>> BuildLinkStateRequest(std::uint16_t family_id,
                                                        std::string_view ifname, std::uint32_t seq,
                                                        bool with_stats) {
  auto builder =
      StartRequest(family_id, ETHTOOL_MSG_LINKSTATE_GET, ETHTOOL_A_LINKSTATE_HEADER, ifname,
                   with_stats ? ETHTOOL_FLAG_STATS : 0, seq, "ethtool LINKSTATE_GET");
  if (!builder) return builder.error();
  return std::move(*builder).Finish();
}

Result<std::vector<std::uint8_t>> BuildPauseRequest(std::uint16_t family_id,
                                                    std::string_view ifname, std::uint32_t seq) {
  auto builder = StartRequest(family_id, ETHTOOL_MSG_PAUSE_GET, ETHTOOL_A_PAUSE_HEADER, ifname,
                              ETHTOOL_FLAG_STATS, seq, "ethtool PAUSE_GET");
  if (!builder) return builder.error();
  return std::move(*builder).Finish();
}

Result<std::vector<std::uint8_t>> BuildModuleEepromRequest(std::uint16_t family_id,
                                                           std::string_view ifname,
                                                           const ModuleEepromRequest& request,
                                                           std::uint32_t seq) {
  const std::string what = "ethtool MODULE_EEPROM_GET request";
  const std::string range =
      "offset " + std::to_string(request.offset) + " length " + std::to_string(request.length);
  if (request.length == 0 || request.length > kEepromHalfPage) {
    return Error{what + ": " + range + ": length must be 1-128"};
  }
  if (request.offset >= kEepromPage || request.offset + request.length > kEepromPage) {
    return Error{what + ": " + range + " runs past the 256-byte page view"};
  }
  if (request.offset < kEepromHalfPage && request.offset + request.length > kEepromHalfPage) {
    return Error{what + ": " + range + " crosses offset 128 (lower/upper page boundary)"};
  }
  if (request.page != 0 && request.offset < kEepromHalfPage) {
    return Error{what + ": " + range + " reads the lower half, which only page 0 has (page " +
                 std::to_string(request.page) + ")"};
  }
  if (request.i2c_address > kMaxI2cAddress) {
    return Error{what + ": i2c address " + std::to_string(request.i2c_address) + " is above 0x7f"};
  }
  auto builder =
      StartRequest(family_id, ETHTOOL_MSG_MODULE_EEPROM_GET, ETHTOOL_A_MODULE_EEPROM_HEADER, ifname,
                   0, seq, "ethtool MODULE_EEPROM_GET");
  if (!builder) return builder.error();
  builder->PutU32(ETHTOOL_A_MODULE_EEPROM_OFFSET, request.offset);
  builder->PutU32(ETHTOOL_A_MODULE_EEPROM_LENGTH, request.length);
  builder->PutU8(ETHTOOL_A_MODULE_EEPROM_PAGE, request.page);
  builder->PutU8(ETHTOOL_A_MODULE_EEPROM_BANK, request.bank);
  builder->PutU8(ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, request.i2c_address);
  return std::move(*builder).Finish();
}

Result<LinkState> DecodeLinkStateReply(Bytes reply) {
  constexpr std::string_view kWhere = "ethtool LINKSTATE_GET reply";
  auto attributes = EthtoolReply(reply, ETHTOOL_MSG_LINKSTATE_GET_REPLY, kWhere);
  if (!attributes) return attributes.error();
  LinkState state;
  std::optional<std::uint8_t> substate;
  for (const Attribute& a : *attributes) {
    switch (a.type) {
      case ETHTOOL_A_LINKSTATE_HEADER: {
        auto header = DecodeHeader(a, "ETHTOOL_A_LINKSTATE_HEADER");
        if (!header) return Prefixed(kWhere, header.error());
        state.header = std::move(*header);
        break;
      }
      case ETHTOOL_A_LINKSTATE_LINK: {
        auto link = GetFlag(a, "ETHTOOL_A_LINKSTATE_LINK");
        if (!link) return Prefixed(kWhere, link.error());
        state.link = *link;
        break;
      }
      case ETHTOOL_A_LINKSTATE_SQI: {
        auto v = netlink::GetU32(a, "ETHTOOL_A_LINKSTATE_SQI");
        if (!v) return Prefixed(kWhere, v.error());
        state.sqi = *v;
        break;
      }
      case ETHTOOL_A_LINKSTATE_SQI_MAX: {
        auto v = netlink::GetU32(a, "ETHTOOL_A_LINKSTATE_SQI_MAX");
        if (!v) return Prefixed(kWhere, v.error());
        state.sqi_max = *v;
        break;
      }
      case ETHTOOL_A_LINKSTATE_EXT_STATE: {
        auto v = netlink::GetU8(a, "ETHTOOL_A_LINKSTATE_EXT_STATE");
        if (!v) return Prefixed(kWhere, v.error());
        state.ext_state = NamedValue{*v, LinkExtStateName(*v)};
        break;
      }
      case ETHTOOL_A_LINKSTATE_EXT_SUBSTATE: {
        auto v = netlink::GetU8(a, "ETHTOOL_A_LINKSTATE_EXT_SUBSTATE");
        if (!v) return Prefixed(kWhere, v.error());
        substate = *v;
        break;
      }
      case kLinkStateExtDownCount: {
        auto v = netlink::GetU32(a, "ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT");
        if (!v) return Prefixed(kWhere, v.error());
        state.ext_down_count = *v;
        break;
      }
      default:
        break;
    }
  }
  // The substate's meaning depends on the state, which may come in any order.
  if (substate) {
    const std::string_view name =
        state.ext_state ? LinkExtSubstateName(state.ext_state->value, *substate) : "unknown";
    state.ext_substate = NamedValue{*substate, name};
  }
  return state;
}

std::string_view LinkExtStateName(std::uint8_t state) {
  switch (state) {
    case ETHTOOL_LINK_EXT_STATE_AUTONEG:
      return "autoneg";
    case ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE:
      return "link_training_failure";
    case ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH:
      return "link_logical_mismatch";
    case ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY:
      return "bad_signal_integrity";
    case ETHTOOL_LINK_EXT_STATE_NO_CABLE:
      return "no_cable";
    case ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE:
      return "cable_issue";
    case ETHTOOL_LINK_EXT_STATE_EEPROM_ISSUE:
      return "eeprom_issue";
    case ETHTOOL_LINK_EXT_STATE_CALIBRATION_FAILURE:
      return "calibration_failure";
    case ETHTOOL_LINK_EXT_STATE_POWER_BUDGET_EXCEEDED:
      return "power_budget_exceeded";
    case ETHTOOL_LINK_EXT_STATE_OVERHEAT:
      return "overheat";
    case ETHTOOL_LINK_EXT_STATE_MODULE:
      return "module";
    default:
      return "unknown";
  }
}

std::string_view LinkExtSubstateName(std::uint8_t state, std::uint8_t substate) {
  switch (state) {
    case ETHTOOL_LINK_EXT_STATE_AUTONEG:
      switch (substate) {
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_PARTNER_DETECTED:
          return "no_partner_detected";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_ACK_NOT_RECEIVED:
          return "ack_not_received";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_NEXT_PAGE_EXCHANGE_FAILED:
          return "next_page_exchange_failed";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_PARTNER_DETECTED_FORCE_MODE:
          return "no_partner_detected_force_mode";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_FEC_MISMATCH_DURING_OVERRIDE:
          return "fec_mismatch_during_override";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_HCD:
          return "no_hcd";
        default:
          return "unknown";
      }
    case ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE:
      switch (substate) {
        case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_FRAME_LOCK_NOT_ACQUIRED:
          return "kr_frame_lock_not_acquired";
        case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_LINK_INHIBIT_TIMEOUT:
          return "kr_link_inhibit_timeout";
        case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_LINK_PARTNER_DID_NOT_SET_RECEIVER_READY:
          return "kr_link_partner_did_not_set_receiver_ready";
        case ETHTOOL_LINK_EXT_SUBSTATE_LT_REMOTE_FAULT:
          return "remote_fault";
        default:
          return "unknown";
      }
    case ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH:
      switch (substate) {
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_ACQUIRE_BLOCK_LOCK:
          return "pcs_did_not_acquire_block_lock";
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_ACQUIRE_AM_LOCK:
          return "pcs_did_not_acquire_am_lock";
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_GET_ALIGN_STATUS:
          return "pcs_did_not_get_align_status";
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_FC_FEC_IS_NOT_LOCKED:
          return "fc_fec_is_not_locked";
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_RS_FEC_IS_NOT_LOCKED:
          return "rs_fec_is_not_locked";
        default:
          return "unknown";
      }
    case ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY:
      switch (substate) {
        case ETHTOOL_LINK_EXT_SUBSTATE_BSI_LARGE_NUMBER_OF_PHYSICAL_ERRORS:
          return "large_number_of_physical_errors";
        case ETHTOOL_LINK_EXT_SUBSTATE_BSI_UNSUPPORTED_RATE:
          return "unsupported_rate";
        case ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_REFERENCE_CLOCK_LOST:
          return "serdes_reference_clock_lost";
        case ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_ALOS:
          return "serdes_alos";
        default:
          return "unknown";
      }
    case ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE:
      switch (substate) {
        case ETHTOOL_LINK_EXT_SUBSTATE_CI_UNSUPPORTED_CABLE:
          return "unsupported_cable";
        case ETHTOOL_LINK_EXT_SUBSTATE_CI_CABLE_TEST_FAILURE:
          return "cable_test_failure";
        default:
          return "unknown";
      }
    case ETHTOOL_LINK_EXT_STATE_MODULE:
      switch (substate) {
        case ETHTOOL_LINK_EXT_SUBSTATE_MODULE_CMIS_NOT_READY:
          return "cmis_not_ready";
        default:
          return "unknown";
      }
    default:
      return "unknown";
  }
}

Result<Pause> DecodePauseReply(Bytes reply) {
  constexpr std::string_view kWhere = "ethtool PAUSE_GET reply";
  auto attributes = EthtoolReply(reply, ETHTOOL_MSG_PAUSE_GET_REPLY, kWhere);
  if (!attributes) return attributes.error();
  Pause pause;
  bool have_autoneg = false, have_rx = false, have_tx = false;
  for (const Attribute& a : *attributes) {
    switch (a.type) {
      case ETHTOOL_A_PAUSE_HEADER: {
        auto header = DecodeHeader(a, "ETHTOOL_A_PAUSE_HEADER");
        if (!header) return Prefixed(kWhere, header.error());
        pause.header = std::move(*header);
        break;
      }
      case ETHTOOL_A_PAUSE_AUTONEG: {
        auto v = GetFlag(a, "ETHTOOL_A_PAUSE_AUTONEG");
        if (!v) return Prefixed(kWhere, v.error());
        pause.autoneg = *v;
        have_autoneg = true;
        break;
      }
      case ETHTOOL_A_PAUSE_RX: {
        auto v = GetFlag(a, "ETHTOOL_A_PAUSE_RX");
        if (!v) return Prefixed(kWhere, v.error());
        pause.rx = *v;
        have_rx = true;
        break;
      }
      case ETHTOOL_A_PAUSE_TX: {
        auto v = GetFlag(a, "ETHTOOL_A_PAUSE_TX");
        if (!v) return Prefixed(kWhere, v.error());
        pause.tx = *v;
        have_tx = true;
        break;
      }
      case ETHTOOL_A_PAUSE_STATS: {
        auto stats = DecodePauseStats(a);
        if (!stats) return Prefixed(kWhere, stats.error());
        pause.stats = *stats;
        break;
      }
      default:
        break;  // ETHTOOL_A_PAUSE_STATS_SRC and anything newer
    }
  }
  if (!have_autoneg || !have_rx || !have_tx) {
    return Error{std::string(kWhere) + ": missing " +
                 (!have_autoneg ? "ETHTOOL_A_PAUSE_AUTONEG"
                                : (!have_rx ? "ETHTOOL_A_PAUSE_RX" : "ETHTOOL_A_PAUSE_TX"))};
  }
  return pause;
}

Result<ModuleEeprom> DecodeModuleEepromReply(Bytes reply) {
  constexpr std::string_view kWhere = "ethtool MODULE_EEPROM_GET reply";
  auto attributes = EthtoolReply(reply, ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, kWhere);
  if (!attributes) return attributes.error();
  ModuleEeprom eeprom;
  bool have_data = false;
  for (const Attribute& a : *attributes) {
    if (a.type == ETHTOOL_A_MODULE_EEPROM_HEADER) {
      auto header = DecodeHeader(a, "ETHTOOL_A_MODULE_EEPROM_HEADER");
      if (!header) return Prefixed(kWhere, header.error());
      eeprom.header = std::move(*header);
    } else if (a.type == ETHTOOL_A_MODULE_EEPROM_DATA) {
      if (a.payload.empty() || a.payload.size() > kEepromHalfPage) {
        return Error{std::string(kWhere) + ": ETHTOOL_A_MODULE_EEPROM_DATA: payload is " +
                     std::to_string(a.payload.size()) + " bytes, expected 1-128"};
      }
      eeprom.data.assign(a.payload.begin(), a.payload.end());
      have_data = true;
    }
  }
  if (!have_data) {
    return Error{std::string(kWhere) + ": no ETHTOOL_A_MODULE_EEPROM_DATA attribute"};
  }
  return eeprom;
}

}  // namespace rocewatch::ethtool_nl
