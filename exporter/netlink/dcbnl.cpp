#include "exporter/netlink/dcbnl.h"

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "exporter/netlink/interface_name.h"
#include "exporter/netlink/message_builder.h"
#include "exporter/netlink/messages.h"

namespace rocewatch::dcbnl {
namespace {

using netlink::Attribute;
using netlink::Bytes;

// Attributes newer than the installed UAPI headers (linux-libc-dev 6.1), from the kernel's
// include/uapi/linux/dcbnl.h. The enums are dense, so they follow the last known member.
static_assert(DCB_ATTR_DCB_BUFFER == 10, "enum ieee_attrs changed");
static_assert(DCB_ATTR_IEEE_APP == 1, "enum ieee_attrs_app changed");
constexpr std::uint16_t kAttrAppTrustTable =
    DCB_ATTR_DCB_BUFFER + 1;                                  // DCB_ATTR_DCB_APP_TRUST_TABLE
constexpr std::uint16_t kAttrDcbApp = DCB_ATTR_IEEE_APP + 1;  // DCB_ATTR_DCB_APP: PCP selector

constexpr std::uint64_t kBytesPerSecondPerKbit = 1000 / 8;  // ieee_maxrate is in kbit/s

// Kernel structs must have the layout the decoders assume.
static_assert(sizeof(ieee_pfc) == 136);
static_assert(sizeof(ieee_ets) == 59);
static_assert(sizeof(ieee_maxrate) == 64);
static_assert(sizeof(dcbnl_buffer) == 44);
static_assert(sizeof(dcb_app) == 4);
static_assert(sizeof(dcbmsg) == 4);

Error Prefixed(std::string_view where, const Error& error) {
  return Error{std::string(where) + ": " + error.message, error.code};
}

Result<std::vector<std::uint8_t>> BuildRequest(std::string_view ifname, std::uint8_t cmd,
                                               std::uint32_t seq, std::string_view what) {
  if (Status valid = netlink::ValidateInterfaceName(ifname); !valid) {
    return Error{std::string(what) + " request: " + valid.error().message};
  }
  netlink::MessageBuilder builder(RTM_GETDCB, NLM_F_REQUEST, seq);
  dcbmsg header{};
  header.dcb_family = AF_UNSPEC;
  header.cmd = cmd;
  builder.PutFamilyHeader(header);
  builder.PutString(DCB_ATTR_IFNAME, ifname);
  return std::move(builder).Finish();
}

// The attributes after struct dcbmsg, after checking the command echoed back.
Result<std::vector<Attribute>> DcbAttributes(const netlink::Message& message, std::uint8_t cmd,
                                             std::string_view where) {
  if (message.payload.size() < sizeof(dcbmsg)) {
    return Error{std::string(where) + ": payload is " + std::to_string(message.payload.size()) +
                 " bytes, too short for struct dcbmsg"};
  }
  dcbmsg header;
  std::memcpy(&header, message.payload.data(), sizeof(header));
  if (header.cmd != cmd) {
    return Error{std::string(where) + ": reply is for dcb command " + std::to_string(header.cmd) +
                 ", expected " + std::to_string(cmd)};
  }
  return netlink::ParseAttributes(message.payload.subspan(NLMSG_ALIGN(sizeof(dcbmsg))), where);
}

Pfc ToPfc(const ieee_pfc& raw) {
  Pfc pfc;
  pfc.capability = raw.pfc_cap;
  pfc.enabled_bitmap = raw.pfc_en;
  for (int p = 0; p < kPriorities; ++p) {
    pfc.enabled[p] = ((raw.pfc_en >> p) & 1u) != 0;
    pfc.tx_pause_frames[p] = raw.requests[p];
    pfc.rx_pause_frames[p] = raw.indications[p];
  }
  pfc.mbc = raw.mbc;
  pfc.delay_bits = raw.delay;
  return pfc;
}

Ets ToEts(const ieee_ets& raw) {
  Ets ets;
  ets.willing = raw.willing != 0;
  ets.ets_capability = raw.ets_cap;
  ets.cbs = raw.cbs != 0;
  std::copy_n(raw.tc_tx_bw, kTrafficClasses, ets.tc_tx_bandwidth_percent.begin());
  std::copy_n(raw.tc_rx_bw, kTrafficClasses, ets.tc_rx_bandwidth_percent.begin());
  std::copy_n(raw.tc_tsa, kTrafficClasses, ets.tc_tsa.begin());
  std::copy_n(raw.prio_tc, kPriorities, ets.priority_tc.begin());
  std::copy_n(raw.tc_reco_bw, kTrafficClasses, ets.tc_recommended_bandwidth_percent.begin());
  std::copy_n(raw.tc_reco_tsa, kTrafficClasses, ets.tc_recommended_tsa.begin());
  std::copy_n(raw.reco_prio_tc, kPriorities, ets.recommended_priority_tc.begin());
  return ets;
}

Buffer ToBuffer(const dcbnl_buffer& raw) {
  Buffer buffer;
  std::copy_n(raw.prio2buffer, kPriorities, buffer.priority_buffer.begin());
  std::copy_n(raw.buffer_size, kBuffers, buffer.buffer_size_bytes.begin());
  buffer.total_size_bytes = raw.total_size;
  return buffer;
}

Result<std::array<std::uint64_t, kTrafficClasses>> ToMaxRate(const ieee_maxrate& raw) {
  std::array<std::uint64_t, kTrafficClasses> out{};
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const std::uint64_t kbits = raw.tc_maxrate[tc];
    if (kbits > std::numeric_limits<std::uint64_t>::max() / kBytesPerSecondPerKbit) {
      return Error{"DCB_ATTR_IEEE_MAXRATE: TC " + std::to_string(tc) + " rate " +
                   std::to_string(kbits) + " kbit/s overflows bytes/s"};
    }
    out[tc] = kbits * kBytesPerSecondPerKbit;
  }
  return out;
}

Status DecodeAppTable(const Attribute& nest, std::vector<AppEntry>& out) {
  auto entries = netlink::GetNested(nest, "DCB_ATTR_IEEE_APP_TABLE");
  if (!entries) return entries.error();
  for (const Attribute& entry : *entries) {
    if (entry.type != DCB_ATTR_IEEE_APP && entry.type != kAttrDcbApp) continue;
    auto app = netlink::GetStruct<dcb_app>(
        entry, entry.type == DCB_ATTR_IEEE_APP ? "DCB_ATTR_IEEE_APP" : "DCB_ATTR_DCB_APP");
    if (!app) return app.error();
    out.push_back(AppEntry{app->selector, app->priority, app->protocol});
  }
  return {};
}

Result<std::vector<std::uint8_t>> DecodeTrustTable(const Attribute& nest) {
  auto entries = netlink::GetNested(nest, "DCB_ATTR_DCB_APP_TRUST_TABLE");
  if (!entries) return entries.error();
  std::vector<std::uint8_t> selectors;
  for (const Attribute& entry : *entries) {
    if (entry.type != DCB_ATTR_IEEE_APP && entry.type != kAttrDcbApp) continue;
    auto selector = netlink::GetU8(entry, "DCB_ATTR_DCB_APP_TRUST_TABLE selector");
    if (!selector) return selector.error();
    selectors.push_back(*selector);
  }
  return selectors;
}

Status DecodeIeeeNest(const Attribute& nest, DcbState& state) {
  auto attributes = netlink::GetNested(nest, "DCB_ATTR_IEEE");
  if (!attributes) return attributes.error();
  for (const Attribute& a : *attributes) {
    switch (a.type) {
      case DCB_ATTR_IEEE_ETS:
      case DCB_ATTR_IEEE_PEER_ETS: {
        const bool peer = a.type == DCB_ATTR_IEEE_PEER_ETS;
        auto raw =
            netlink::GetStruct<ieee_ets>(a, peer ? "DCB_ATTR_IEEE_PEER_ETS" : "DCB_ATTR_IEEE_ETS");
        if (!raw) return raw.error();
        (peer ? state.peer_ets : state.ets) = ToEts(*raw);
        break;
      }
      case DCB_ATTR_IEEE_PFC:
      case DCB_ATTR_IEEE_PEER_PFC: {
        const bool peer = a.type == DCB_ATTR_IEEE_PEER_PFC;
        auto raw =
            netlink::GetStruct<ieee_pfc>(a, peer ? "DCB_ATTR_IEEE_PEER_PFC" : "DCB_ATTR_IEEE_PFC");
        if (!raw) return raw.error();
        (peer ? state.peer_pfc : state.pfc) = ToPfc(*raw);
        break;
      }
      case DCB_ATTR_IEEE_MAXRATE: {
        auto raw = netlink::GetStruct<ieee_maxrate>(a, "DCB_ATTR_IEEE_MAXRATE");
        if (!raw) return raw.error();
        auto rates = ToMaxRate(*raw);
        if (!rates) return rates.error();
        state.tc_max_rate_bytes_per_second = *rates;
        break;
      }
      case DCB_ATTR_DCB_BUFFER: {
        auto raw = netlink::GetStruct<dcbnl_buffer>(a, "DCB_ATTR_DCB_BUFFER");
        if (!raw) return raw.error();
        state.buffer = ToBuffer(*raw);
        break;
      }
      case DCB_ATTR_IEEE_APP_TABLE: {
        state.app_table.clear();
        if (Status s = DecodeAppTable(a, state.app_table); !s) return s;
        break;
      }
      case kAttrAppTrustTable: {
        auto selectors = DecodeTrustTable(a);
        if (!selectors) return selectors.error();
        state.trust_order = std::move(*selectors);
        break;
      }
      default:
        break;  // QCN, peer APP, rewrite table, and anything newer
    }
  }
  return {};
}

}  // namespace

Result<std::vector<std::uint8_t>> BuildIeeeGetRequest(std::string_view ifname, std::uint32_t seq) {
  return BuildRequest(ifname, DCB_CMD_IEEE_GET, seq, "dcbnl IEEE_GET");
}

Result<std::vector<std::uint8_t>> BuildDcbxGetRequest(std::string_view ifname, std::uint32_t seq) {
  return BuildRequest(ifname, DCB_CMD_GDCBX, seq, "dcbnl GDCBX");
}

std::string_view TsaName(std::uint8_t tsa) {
  switch (tsa) {
    case IEEE_8021QAZ_TSA_STRICT:
      return "strict";
    case IEEE_8021QAZ_TSA_CB_SHAPER:
      return "cbs";
    case IEEE_8021QAZ_TSA_ETS:
      return "ets";
    case IEEE_8021QAZ_TSA_VENDOR:
      return "vendor";
    default:
      return "unknown";
  }
}

std::string_view SelectorName(std::uint8_t selector) {
  switch (selector) {
    case IEEE_8021QAZ_APP_SEL_ETHERTYPE:
      return "ethertype";
    case IEEE_8021QAZ_APP_SEL_STREAM:
      return "stream";
    case IEEE_8021QAZ_APP_SEL_DGRAM:
      return "dgram";
    case IEEE_8021QAZ_APP_SEL_ANY:
      return "any";
    case IEEE_8021QAZ_APP_SEL_DSCP:
      return "dscp";
    case kSelectorPcp:
      return "pcp";
    default:
      return "unknown";
  }
}

std::vector<std::string_view> DcbxMode::Names() const {
  std::vector<std::string_view> names;
  if (host) names.push_back("host");
  if (lld_managed) names.push_back("lld_managed");
  if (cee) names.push_back("cee");
  if (ieee) names.push_back("ieee");
  if (static_config) names.push_back("static");
  return names;
}

DcbxMode DecodeDcbxBits(std::uint8_t raw) {
  DcbxMode mode;
  mode.raw = raw;
  mode.host = (raw & DCB_CAP_DCBX_HOST) != 0;
  mode.lld_managed = (raw & DCB_CAP_DCBX_LLD_MANAGED) != 0;
  mode.cee = (raw & DCB_CAP_DCBX_VER_CEE) != 0;
  mode.ieee = (raw & DCB_CAP_DCBX_VER_IEEE) != 0;
  mode.static_config = (raw & DCB_CAP_DCBX_STATIC) != 0;
  return mode;
}

Result<DcbState> DecodeIeeeReply(Bytes reply) {
  constexpr std::string_view kWhere = "dcbnl IEEE_GET reply";
  auto message = netlink::ExpectReply(reply, RTM_GETDCB, kWhere);
  if (!message) {
    if (message.error().code == EOPNOTSUPP) return DcbState{};  // no DCB on this device
    return message.error();
  }
  auto attributes = DcbAttributes(*message, DCB_CMD_IEEE_GET, kWhere);
  if (!attributes) return attributes.error();

  DcbState state;
  state.supported = true;
  bool saw_ieee = false;
  for (const Attribute& a : *attributes) {
    switch (a.type) {
      case DCB_ATTR_IFNAME: {
        auto name = netlink::GetString(a, "DCB_ATTR_IFNAME");
        if (!name) return Prefixed(kWhere, name.error());
        state.ifname = std::move(*name);
        break;
      }
      case DCB_ATTR_IEEE: {
        saw_ieee = true;
        if (Status s = DecodeIeeeNest(a, state); !s) return Prefixed(kWhere, s.error());
        break;
      }
      case DCB_ATTR_DCBX: {
        auto bits = netlink::GetU8(a, "DCB_ATTR_DCBX");
        if (!bits) return Prefixed(kWhere, bits.error());
        state.dcbx = DecodeDcbxBits(*bits);
        break;
      }
      default:
        break;
    }
  }
  if (!saw_ieee) {
    return Error{std::string(kWhere) + ": no DCB_ATTR_IEEE attribute in the reply"};
  }
  return state;
}

Result<DcbxReply> DecodeDcbxReply(Bytes reply) {
  constexpr std::string_view kWhere = "dcbnl GDCBX reply";
  auto message = netlink::ExpectReply(reply, RTM_GETDCB, kWhere);
  if (!message) {
    if (message.error().code == EOPNOTSUPP) return DcbxReply{};
    return message.error();
  }
  auto attributes = DcbAttributes(*message, DCB_CMD_GDCBX, kWhere);
  if (!attributes) return attributes.error();
  const Attribute* dcbx = netlink::FindAttribute(*attributes, DCB_ATTR_DCBX);
  if (dcbx == nullptr) {
    return Error{std::string(kWhere) + ": no DCB_ATTR_DCBX attribute in the reply"};
  }
  auto bits = netlink::GetU8(*dcbx, "DCB_ATTR_DCBX");
  if (!bits) return Prefixed(kWhere, bits.error());
  DcbxReply out;
  out.supported = true;
  out.mode = DecodeDcbxBits(*bits);
  return out;
}

std::string_view TrustMode(const DcbState& state) {
  const bool any_dscp = std::any_of(state.app_table.begin(), state.app_table.end(),
                                    [](const AppEntry& e) { return e.selector == kSelectorDscp; });
  return any_dscp ? "dscp" : "pcp";
}

std::vector<DscpPriority> DscpToPriority(const DcbState& state) {
  // Indexed by DSCP: one pass over the table, no allocation but the answer's (every scrape
  // decodes the map of every netdev).
  std::array<std::optional<DscpPriority>, 64> by_dscp{};
  for (const AppEntry& e : state.app_table) {
    if (e.selector != kSelectorDscp) continue;
    // DSCP is 6 bits; the kernel rejects larger values on set, so a bigger one is garbage.
    if (e.protocol > 63) continue;
    auto& slot = by_dscp[e.protocol];
    if (!slot) {
      slot = DscpPriority{static_cast<std::uint8_t>(e.protocol), e.priority, false};
    } else if (slot->priority != e.priority) {
      slot->ambiguous = true;
    }
  }
  std::vector<DscpPriority> out;
  out.reserve(by_dscp.size());
  for (const auto& slot : by_dscp)
    if (slot) out.push_back(*slot);
  return out;
}

}  // namespace rocewatch::dcbnl
