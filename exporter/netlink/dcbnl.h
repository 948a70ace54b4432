#pragma once

// dcbnl (Data Center Bridging over rtnetlink): the requests the exporter sends and the
// decoding of the kernel's answers into plain structs in base units.
//
// Request: RTM_GETDCB + struct dcbmsg {AF_UNSPEC, cmd} + DCB_ATTR_IFNAME (NUL-terminated).
// IEEE_GET reply, as net/dcb/dcbnl.c dcbnl_ieee_fill() builds it:
//   DCB_ATTR_IFNAME  string
//   DCB_ATTR_IEEE    nest (no NLA_F_NESTED flag)
//     DCB_ATTR_IEEE_ETS          struct ieee_ets        (if the driver has ieee_getets)
//     DCB_ATTR_IEEE_MAXRATE      struct ieee_maxrate    (kbit/s per TC)
//     DCB_ATTR_IEEE_QCN, _QCN_STATS                     (ignored)
//     DCB_ATTR_IEEE_PFC          struct ieee_pfc
//     DCB_ATTR_DCB_BUFFER        struct dcbnl_buffer
//     DCB_ATTR_IEEE_APP_TABLE    nest of DCB_ATTR_IEEE_APP (struct dcb_app) entries;
//                                kernels after 6.1 put non-IEEE selectors in DCB_ATTR_DCB_APP
//     DCB_ATTR_DCB_APP_TRUST_TABLE (kernels after 6.1) nest of u8 selectors, most trusted first
//     DCB_ATTR_DCB_REWR_TABLE      (newer kernels, ignored)
//     DCB_ATTR_IEEE_PEER_ETS / _PEER_PFC / _PEER_APP    (what the link partner advertised)
//   DCB_ATTR_DCBX    u8 (outside the nest; only when the driver has getdcbx)
// A device without dcbnl_ops (veth, lo) answers NLMSG_ERROR -EOPNOTSUPP: that decodes to
// `supported == false`, not to an error.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "rocewatch/result.h"

namespace rocewatch::dcbnl {

inline constexpr int kPriorities = 8;      // IEEE_8021Q_MAX_PRIORITIES
inline constexpr int kTrafficClasses = 8;  // IEEE_8021QAZ_MAX_TCS
inline constexpr int kBuffers = 8;         // DCBX_MAX_BUFFERS

// Requests (RTM_GETDCB, NLM_F_REQUEST, no ACK: the kernel answers with one message, or one
// NLMSG_ERROR). Errors on an interface name that is empty, longer than IFNAMSIZ-1 or holds
// '/', ':' , whitespace or NUL.
Result<std::vector<std::uint8_t>> BuildIeeeGetRequest(std::string_view ifname, std::uint32_t seq);
Result<std::vector<std::uint8_t>> BuildDcbxGetRequest(std::string_view ifname, std::uint32_t seq);

// struct ieee_pfc. The kernel calls per-priority PFC frames "requests" (sent) and
// "indications" (received).
struct Pfc {
  std::uint8_t capability = 0;              // pfc_cap: how many priorities may have PFC on at once
  std::uint8_t enabled_bitmap = 0;          // pfc_en, bit p = priority p
  std::array<bool, kPriorities> enabled{};  // pfc_en expanded
  std::uint8_t mbc = 0;                     // MACsec bypass capability
  std::uint16_t delay_bits = 0;             // allowance for the round-trip delay, bit times
  std::array<std::uint64_t, kPriorities> tx_pause_frames{};  // requests[]
  std::array<std::uint64_t, kPriorities> rx_pause_frames{};  // indications[]
};

// struct ieee_ets.
struct Ets {
  bool willing = false;
  std::uint8_t ets_capability = 0;  // ets_cap: number of traffic classes supported
  bool cbs = false;                 // credit-based shaper supported
  std::array<std::uint8_t, kTrafficClasses> tc_tx_bandwidth_percent{};
  std::array<std::uint8_t, kTrafficClasses> tc_rx_bandwidth_percent{};
  std::array<std::uint8_t, kTrafficClasses> tc_tsa{};   // IEEE_8021QAZ_TSA_*: see TsaName
  std::array<std::uint8_t, kPriorities> priority_tc{};  // prio_tc: priority -> TC
  std::array<std::uint8_t, kTrafficClasses> tc_recommended_bandwidth_percent{};
  std::array<std::uint8_t, kTrafficClasses> tc_recommended_tsa{};
  std::array<std::uint8_t, kPriorities> recommended_priority_tc{};
};

// "strict", "cbs", "ets", "vendor", or "unknown".
std::string_view TsaName(std::uint8_t tsa);

// struct dcb_app. selector: IEEE_8021QAZ_APP_SEL_* (1 ethertype, 2 stream port, 3 dgram port,
// 4 any port, 5 DSCP) or 255 (PCP, kernels after 6.1). protocol: the ethertype, port or DSCP.
struct AppEntry {
  std::uint8_t selector = 0;
  std::uint8_t priority = 0;
  std::uint16_t protocol = 0;
};

inline constexpr std::uint8_t kSelectorDscp = 5;  // IEEE_8021QAZ_APP_SEL_DSCP
inline constexpr std::uint8_t kSelectorPcp =
    255;  // DCB_APP_SEL_PCP (kernels after 6.1; defined here)

// "ethertype", "stream", "dgram", "any", "dscp", "pcp", or "unknown".
std::string_view SelectorName(std::uint8_t selector);

// struct dcbnl_buffer.
struct Buffer {
  std::array<std::uint8_t, kPriorities> priority_buffer{};  // prio2buffer: priority -> buffer
  std::array<std::uint32_t, kBuffers> buffer_size_bytes{};
  std::uint32_t total_size_bytes = 0;
};

// DCB_ATTR_DCBX bits (DCB_CAP_DCBX_*).
struct DcbxMode {
  std::uint8_t raw = 0;
  bool host = false;           // DCBX negotiated by a host LLDP agent (lldpad)
  bool lld_managed = false;    // negotiated by the device's own agent (firmware)
  bool cee = false;            // VER_CEE
  bool ieee = false;           // VER_IEEE
  bool static_config = false;  // STATIC: no negotiation
  // "host", "lld_managed", "cee", "ieee", "static" for the bits set, in that order.
  std::vector<std::string_view> Names() const;
};
DcbxMode DecodeDcbxBits(std::uint8_t raw);

struct DcbState {
  bool supported = false;  // false: the device has no DCB (EOPNOTSUPP); nothing else is set
  std::string ifname;      // DCB_ATTR_IFNAME as the kernel echoed it
  std::optional<Ets> ets;
  std::optional<Pfc> pfc;
  // DCB_ATTR_IEEE_MAXRATE converted from kbit/s to bytes/s; 0 means no limit.
  std::optional<std::array<std::uint64_t, kTrafficClasses>> tc_max_rate_bytes_per_second;
  std::optional<Buffer> buffer;
  std::vector<AppEntry> app_table;  // in kernel order; empty when the driver has none
  // DCB_ATTR_DCB_APP_TRUST_TABLE selectors, most trusted first (kernels after 6.1 and drivers
  // that implement dcbnl_getapptrust; mlx5 does not).
  std::optional<std::vector<std::uint8_t>> trust_order;
  std::optional<Ets> peer_ets;
  std::optional<Pfc> peer_pfc;
  std::optional<DcbxMode> dcbx;
};

// Decodes the reply to BuildIeeeGetRequest. A reply whose struct attributes differ in size
// from the kernel structs is rejected with an Error naming the attribute; an NLMSG_ERROR
// other than EOPNOTSUPP is an Error naming the errno (Error::code = errno).
Result<DcbState> DecodeIeeeReply(netlink::Bytes reply);

struct DcbxReply {
  bool supported = false;  // false: EOPNOTSUPP (no DCB, or the driver has no getdcbx)
  DcbxMode mode;
};
Result<DcbxReply> DecodeDcbxReply(netlink::Bytes reply);

// "dscp" if the APP table has any DSCP entry, else "pcp" (what mlx5 and lldptool mean by
// the trust mode).
std::string_view TrustMode(const DcbState& state);

struct DscpPriority {
  std::uint8_t dscp = 0;
  std::uint8_t priority = 0;  // the first priority the APP table gives this DSCP
  // The kernel allows one DSCP to appear with several priorities: then the map is ambiguous
  // and the NIC uses only one of them.
  bool ambiguous = false;
};
// The DSCP -> priority map from the APP table, sorted by DSCP. Entries whose protocol is not
// a DSCP (above 63) are left out here; they stay in DcbState::app_table.
std::vector<DscpPriority> DscpToPriority(const DcbState& state);

}  // namespace rocewatch::dcbnl
