#pragma once

// The IEEE 802.1Qaz DCBX TLVs a switch port sends (organizationally specific TLVs of the
// IEEE 802.1 OUI 00-80-C2, IEEE Std 802.1Q-2018 Annex D.2.9-D.2.12), which lldpd does not
// decode but keeps as unknown TLVs (oui, subtype, information string). Pure decoders: the
// information string after the OUI and subtype, as bytes, to a struct; an Error names the TLV
// and what is wrong with its length. Fuzzed: tests/fuzz/lldp_dcbx_fuzz.cpp.
//
//   subtype  9 ETS Configuration:  willing(7) CBS(6) reserved(5-3) max TCs(2-0); priority
//                                  assignment table (4 bytes, priority 0 in the high nibble of
//                                  the first); TC bandwidth table (8 bytes, %); TSA table (8)
//   subtype 10 ETS Recommendation: one reserved byte, then the three tables as above
//   subtype 11 PFC Configuration:  willing(7) MBC(6) reserved(5-4) PFC cap(3-0); PFC enable
//                                  (bit n = priority n)
//   subtype 12 Application Priority: one reserved byte, then 3-byte entries: priority(7-5)
//                                  reserved(4-3) selector(2-0), 16-bit protocol ID

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::lldp {

inline constexpr std::array<std::uint8_t, 3> kIeee8021Oui = {0x00, 0x80, 0xC2};
inline constexpr std::uint8_t kSubtypeEtsConfiguration = 9;
inline constexpr std::uint8_t kSubtypeEtsRecommendation = 10;
inline constexpr std::uint8_t kSubtypePfcConfiguration = 11;
inline constexpr std::uint8_t kSubtypeApplicationPriority = 12;

// Application Priority selectors (802.1Q-2018 Table D-9).
inline constexpr std::uint8_t kSelectorEthertype = 1;
inline constexpr std::uint8_t kSelectorTcpSctpPort = 2;
inline constexpr std::uint8_t kSelectorUdpDccpPort = 3;
inline constexpr std::uint8_t kSelectorTcpSctpUdpDccpPort = 4;
inline constexpr std::uint8_t kSelectorDscp = 5;

// An organizationally specific TLV as lldpd keeps it (its "unknown-tlv").
struct LldpUnknownTlv {
  std::array<std::uint8_t, 3> oui{};
  std::uint8_t subtype = 0;
  std::vector<std::uint8_t> info;  // the information string, at most 507 bytes
};

struct DcbxPfc {
  bool willing = false;
  bool mbc = false;                 // MACsec bypass capability
  std::uint8_t capability = 0;      // traffic classes that can have PFC at once (0-15)
  std::uint8_t enabled_bitmap = 0;  // bit n: PFC on priority n
};

struct DcbxAppEntry {
  std::uint8_t priority = 0;  // 0-7
  std::uint8_t selector = 0;  // 0-7 (0, 6, 7 reserved)
  std::uint16_t protocol = 0;
};

struct DcbxEts {
  bool willing = false;      // configuration TLV only
  bool cbs = false;          // credit-based shaper supported (configuration TLV only)
  std::uint8_t max_tcs = 0;  // as sent: 0 means 8 (configuration TLV only)
  std::array<std::uint8_t, 8> priority_tc{};           // traffic class of priority n (0-15)
  std::array<std::uint8_t, 8> tc_bandwidth_percent{};  // bandwidth share of traffic class n
  std::array<std::uint8_t, 8> tc_tsa{};  // 0 strict, 1 CBS, 2 ETS, 255 vendor; others reserved
};

inline constexpr std::size_t kPfcInfoBytes = 2;
inline constexpr std::size_t kEtsInfoBytes = 21;
inline constexpr std::size_t kAppEntryBytes = 3;
inline constexpr std::size_t kMaxTlvInfoBytes = 507;  // 511 minus OUI and subtype

Result<DcbxPfc> DecodePfcConfiguration(std::span<const std::uint8_t> info);
Result<std::vector<DcbxAppEntry>> DecodeApplicationPriority(std::span<const std::uint8_t> info);
Result<DcbxEts> DecodeEtsConfiguration(std::span<const std::uint8_t> info);
Result<DcbxEts> DecodeEtsRecommendation(std::span<const std::uint8_t> info);

// The DCBX a neighbour sent: each TLV that came and decoded; `errors` says which did not (a
// malformed length, a TLV sent twice). `sent` is false when the neighbour sent no 802.1Qaz TLV
// at all (DCBX off on the switch port, or a switch that has none): a state, not an error.
struct PeerDcbx {
  bool sent = false;
  std::optional<DcbxPfc> pfc;
  std::optional<std::vector<DcbxAppEntry>> app;
  std::optional<DcbxEts> ets_configuration;
  std::optional<DcbxEts> ets_recommendation;
  std::vector<std::string> errors;
};

// The 802.1Qaz TLVs among a neighbour's unknown TLVs (others are ignored), decoded.
PeerDcbx DecodeDcbx(const std::vector<LldpUnknownTlv>& tlvs);

// lldpd's text for bytes ("00,80,C2", "08,08": two hex digits each, comma separated, as
// lldpcli prints them) and back. nullopt when the text is not that form or longer than
// `max_bytes`.
std::optional<std::vector<std::uint8_t>> ParseLldpHex(std::string_view text, std::size_t max_bytes);
std::string FormatLldpHex(std::span<const std::uint8_t> bytes);

}  // namespace rocewatch::lldp
