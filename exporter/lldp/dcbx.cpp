#include "exporter/lldp/dcbx.h"

namespace rocewatch::lldp {
namespace {

// Offsets in the information string (after the OUI and the subtype).
constexpr std::size_t kEtsFlagsOffset = 0;      // ETS Configuration flags / Recommendation reserved
constexpr std::size_t kEtsPriorityOffset = 1;   // 4 bytes
constexpr std::size_t kEtsBandwidthOffset = 5;  // 8 bytes
constexpr std::size_t kEtsTsaOffset = 13;       // 8 bytes
constexpr std::size_t kAppEntriesOffset = 1;    // after the reserved byte

Error LengthError(const char* tlv, std::size_t got, const std::string& want) {
  return Error{std::string("802.1Qaz ") + tlv + " TLV: information string of " +
               std::to_string(got) + " bytes, " + want + " expected"};
}

DcbxEts Tables(std::span<const std::uint8_t> info) {
  DcbxEts e;
  for (std::size_t p = 0; p < 8; ++p) {
    const std::uint8_t b = info[kEtsPriorityOffset + p / 2];
    e.priority_tc[p] =
        p % 2 == 0 ? static_cast<std::uint8_t>(b >> 4) : static_cast<std::uint8_t>(b & 0x0F);
    e.tc_bandwidth_percent[p] = info[kEtsBandwidthOffset + p];
    e.tc_tsa[p] = info[kEtsTsaOffset + p];
  }
  return e;
}

char Hex(unsigned v) { return "0123456789ABCDEF"[v & 0x0F]; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Result<DcbxPfc> DecodePfcConfiguration(std::span<const std::uint8_t> info) {
  if (info.size() != kPfcInfoBytes)
    return LengthError("PFC Configuration", info.size(), std::to_string(kPfcInfoBytes));
  DcbxPfc p;
  p.willing = (info[0] & 0x80) != 0;
  p.mbc = (info[0] & 0x40) != 0;
  p.capability = info[0] & 0x0F;
  p.enabled_bitmap = info[1];
  return p;
}

Result<std::vector<DcbxAppEntry>> DecodeApplicationPriority(std::span<const std::uint8_t> info) {
  if (info.empty() || info.size() > kMaxTlvInfoBytes ||
      (info.size() - kAppEntriesOffset) % kAppEntryBytes != 0)
    return LengthError("Application Priority", info.size(),
                       "1 + 3 per entry (at most " + std::to_string(kMaxTlvInfoBytes) + ")");
  std::vector<DcbxAppEntry> out;
  out.reserve((info.size() - kAppEntriesOffset) / kAppEntryBytes);
  for (std::size_t i = kAppEntriesOffset; i + kAppEntryBytes <= info.size(); i += kAppEntryBytes) {
    DcbxAppEntry e;
    e.priority = static_cast<std::uint8_t>(info[i] >> 5);
    e.selector = info[i] & 0x07;
    e.protocol = static_cast<std::uint16_t>((info[i + 1] << 8) | info[i + 2]);
    out.push_back(e);
  }
  return out;
}

Result<DcbxEts> DecodeEtsConfiguration(std::span<const std::uint8_t> info) {
  if (info.size() != kEtsInfoBytes)
    return LengthError("ETS Configuration", info.size(), std::to_string(kEtsInfoBytes));
  DcbxEts e = Tables(info);
  e.willing = (info[kEtsFlagsOffset] & 0x80) != 0;
  e.cbs = (info[kEtsFlagsOffset] & 0x40) != 0;
  e.max_tcs = info[kEtsFlagsOffset] & 0x07;
  return e;
}

Result<DcbxEts> DecodeEtsRecommendation(std::span<const std::uint8_t> info) {
  if (info.size() != kEtsInfoBytes)
    return LengthError("ETS Recommendation", info.size(), std::to_string(kEtsInfoBytes));
  return Tables(info);
}

PeerDcbx DecodeDcbx(const std::vector<LldpUnknownTlv>& tlvs) {
  PeerDcbx out;
  auto take = [&out](auto& slot, auto decoded, const char* name) {
    if (slot) {
      out.errors.push_back(std::string("802.1Qaz ") + name +
                           " TLV: sent more than once, the first kept");
    } else if (!decoded) {
      out.errors.push_back(decoded.error().message);
    } else {
      slot = std::move(*decoded);
    }
  };
  for (const auto& t : tlvs) {
    if (t.oui != kIeee8021Oui) continue;
    const std::span<const std::uint8_t> info(t.info);
    switch (t.subtype) {
      case kSubtypeEtsConfiguration:
        out.sent = true;
        take(out.ets_configuration, DecodeEtsConfiguration(info), "ETS Configuration");
        break;
      case kSubtypeEtsRecommendation:
        out.sent = true;
        take(out.ets_recommendation, DecodeEtsRecommendation(info), "ETS Recommendation");
        break;
      case kSubtypePfcConfiguration:
        out.sent = true;
        take(out.pfc, DecodePfcConfiguration(info), "PFC Configuration");
        break;
      case kSubtypeApplicationPriority:
        out.sent = true;
        take(out.app, DecodeApplicationPriority(info), "Application Priority");
        break;
      default:
        break;
    }
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> ParseLldpHex(std::string_view text,
                                                      std::size_t max_bytes) {
  std::vector<std::uint8_t> out;
  if (text.empty()) return out;
  if ((text.size() + 1) % 3 != 0 || (text.size() + 1) / 3 > max_bytes) return std::nullopt;
  for (std::size_t i = 0; i < text.size(); i += 3) {
    const int hi = HexValue(text[i]), lo = HexValue(text[i + 1]);
    if (hi < 0 || lo < 0 || (i + 2 < text.size() && text[i + 2] != ',')) return std::nullopt;
    out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
  }
  return out;
}

std::string FormatLldpHex(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve(bytes.size() * 3);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i > 0) out += ',';
    out += Hex(bytes[i] >> 4);
    out += Hex(bytes[i]);
  }
  return out;
}

}  // namespace rocewatch::lldp
