#pragma once

// ethtool over generic netlink (family "ethtool", kernel net/ethtool/*.c): requests and
// reply decoders for LINKSTATE_GET, PAUSE_GET (with statistics) and MODULE_EEPROM_GET, plus
// the genetlink controller's GETFAMILY to learn the family id.
//
// Every request carries a nested ETHTOOL_A_*_HEADER with ETHTOOL_A_HEADER_DEV_NAME (and
// ETHTOOL_A_HEADER_FLAGS where needed); every reply echoes a header with the device index
// and name. Requests use NLM_F_REQUEST without NLM_F_ACK: the kernel answers with one
// message or one NLMSG_ERROR. An errno answer decodes to an Error whose code is that errno
// (EOPNOTSUPP: the driver lacks the operation, e.g. pause or module EEPROM on a veth;
// ENODEV: no such device; ENOENT from GETFAMILY: the kernel has no ethtool netlink).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "rocewatch/result.h"

namespace rocewatch::ethtool_nl {

// --- the genetlink controller --------------------------------------------------------

// CTRL_CMD_GETFAMILY for "ethtool", sent to GENL_ID_CTRL.
std::vector<std::uint8_t> BuildGetFamilyRequest(std::uint32_t seq);

struct FamilyInfo {
  std::uint16_t id = 0;  // the nlmsg_type to use for ethtool requests
  std::string name;
  std::uint32_t version = 0;
  std::uint32_t max_attribute = 0;
};
Result<FamilyInfo> DecodeGetFamilyReply(netlink::Bytes reply);

// --- requests ------------------------------------------------------------------------

// ETHTOOL_MSG_LINKSTATE_GET. `with_stats` sets ETHTOOL_FLAG_STATS, which makes kernels
// newer than 6.1 add ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT; kernels whose LINKSTATE policy
// predates it (6.1 and older) reject the flag with EINVAL, so set it only where the kernel
// is known to take it (or retry without it on EINVAL).
Result<std::vector<std::uint8_t>> BuildLinkStateRequest(std::uint16_t family_id,
                                                        std::string_view ifname, std::uint32_t seq,
                                                        bool with_stats = false);
// ETHTOOL_MSG_PAUSE_GET with ETHTOOL_FLAG_STATS.
Result<std::vector<std::uint8_t>> BuildPauseRequest(std::uint16_t family_id,
                                                    std::string_view ifname, std::uint32_t seq);

// One read of module EEPROM (net/ethtool/eeprom.c eeprom_parse_request). The kernel maps a
// 256-byte view: offsets 0-127 are the lower page (only with page 0), 128-255 the upper
// page `page` (bank `bank` on CMIS modules); one read may not cross offset 128, so it is at
// most 128 bytes. i2c_address is 0x50 for the identifier/ID pages, 0x51 for SFF-8472
// diagnostics.
struct ModuleEepromRequest {
  std::uint32_t offset = 0;
  std::uint32_t length = 128;
  std::uint8_t page = 0;
  std::uint8_t bank = 0;
  std::uint8_t i2c_address = 0x50;
};
// Errors on a request the kernel would refuse with EINVAL: length 0, a read crossing offset
// 128 or 256, page > 0 with an offset below 128, an i2c address above 0x7f.
Result<std::vector<std::uint8_t>> BuildModuleEepromRequest(std::uint16_t family_id,
                                                           std::string_view ifname,
                                                           const ModuleEepromRequest& request,
                                                           std::uint32_t seq);

// --- replies -------------------------------------------------------------------------

struct ReplyHeader {
  std::string ifname;                    // ETHTOOL_A_HEADER_DEV_NAME
  std::optional<std::uint32_t> ifindex;  // ETHTOOL_A_HEADER_DEV_INDEX
};

struct NamedValue {
  std::uint8_t value = 0;
  std::string_view name;  // snake_case name of the enum member, "unknown" if not known
};

struct LinkState {
  ReplyHeader header;
  std::optional<bool> link;          // absent when the driver cannot tell
  std::optional<std::uint32_t> sqi;  // signal quality index (some PHYs only)
  std::optional<std::uint32_t> sqi_max;
  // Why the link is down (enum ethtool_link_ext_state), when the driver says; only sent
  // while the interface is administratively up.
  std::optional<NamedValue> ext_state;
  std::optional<NamedValue> ext_substate;       // the enum matching ext_state
  std::optional<std::uint32_t> ext_down_count;  // link-down events (newer kernels, with stats)
};
Result<LinkState> DecodeLinkStateReply(netlink::Bytes reply);

// "link_training_failure" etc.; "unknown" for a value the table does not know.
std::string_view LinkExtStateName(std::uint8_t state);
std::string_view LinkExtSubstateName(std::uint8_t state, std::uint8_t substate);

struct PauseStats {
  std::optional<std::uint64_t> tx_pause_frames;  // absent when the driver does not count
  std::optional<std::uint64_t> rx_pause_frames;
};
struct Pause {
  ReplyHeader header;
  bool autoneg = false;
  bool rx = false;                  // honour received pause frames
  bool tx = false;                  // send pause frames
  std::optional<PauseStats> stats;  // present when the kernel sent ETHTOOL_A_PAUSE_STATS
};
Result<Pause> DecodePauseReply(netlink::Bytes reply);

struct ModuleEeprom {
  ReplyHeader header;
  std::vector<std::uint8_t> data;
};
Result<ModuleEeprom> DecodeModuleEepromReply(netlink::Bytes reply);

}  // namespace rocewatch::ethtool_nl
