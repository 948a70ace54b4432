#include "exporter/ethtool/link_settings.h"

#include <linux/ethtool.h>

#include <cstring>
#include <limits>
#include <string>

namespace rocewatch::ethtool {
namespace {

static_assert(sizeof(ethtool_link_settings) == 48);
constexpr std::uint64_t kBytesPerSecondPerMbps = 1000000 / 8;
constexpr std::uint32_t kMaxValidSpeed = std::numeric_limits<std::int32_t>::max();  // INT_MAX

}  // namespace

std::vector<std::uint8_t> BuildLinkSettingsRequest(std::uint8_t mask_words) {
  if (mask_words > 127) mask_words = 127;  // link_mode_masks_nwords is an s8
  ethtool_link_settings header{};
  header.cmd = ETHTOOL_GLINKSETTINGS;
  header.link_mode_masks_nwords = static_cast<std::int8_t>(mask_words);
  std::vector<std::uint8_t> out(sizeof(header) + 3u * mask_words * sizeof(std::uint32_t), 0);
  std::memcpy(out.data(), &header, sizeof(header));
  return out;
}

std::string_view DuplexName(std::uint8_t duplex) {
  switch (duplex) {
    case DUPLEX_HALF:
      return "half";
    case DUPLEX_FULL:
      return "full";
    default:
      return "unknown";
  }
}

std::string_view PortName(std::uint8_t port) {
  switch (port) {
    case PORT_TP:
      return "tp";
    case PORT_AUI:
      return "aui";
    case PORT_MII:
      return "mii";
    case PORT_FIBRE:
      return "fibre";
    case PORT_BNC:
      return "bnc";
    case PORT_DA:
      return "da";
    case PORT_NONE:
      return "none";
    case PORT_OTHER:
      return "other";
    default:
      return "unknown";
  }
}

Result<LinkSettings> DecodeLinkSettings(std::span<const std::uint8_t> answer) {
  const std::string where = "ethtool GLINKSETTINGS answer";
  if (answer.size() < sizeof(ethtool_link_settings)) {
    return Error{where + ": " + std::to_string(answer.size()) + " bytes, expected at least " +
                 std::to_string(sizeof(ethtool_link_settings))};
  }
  ethtool_link_settings raw;
  std::memcpy(&raw, answer.data(), sizeof(raw));
  LinkSettings out;
  // ethtool_validate_speed(): anything above INT_MAX, SPEED_UNKNOWN included, is not a speed.
  if (raw.speed <= kMaxValidSpeed) {
    out.speed_mbps = raw.speed;
    out.speed_bytes_per_second = std::uint64_t{raw.speed} * kBytesPerSecondPerMbps;
  }
  out.duplex = raw.duplex;
  out.port = raw.port;
  out.autoneg = raw.autoneg == AUTONEG_ENABLE;
  out.phy_address = raw.phy_address;
  out.transceiver = raw.transceiver;

  if (raw.link_mode_masks_nwords < 0) {
    out.handshake_words = static_cast<std::uint8_t>(-static_cast<int>(raw.link_mode_masks_nwords));
    return out;
  }
  const auto words = static_cast<std::size_t>(raw.link_mode_masks_nwords);
  const std::size_t need = sizeof(raw) + 3 * words * sizeof(std::uint32_t);
  if (answer.size() < need) {
    return Error{where + ": link_mode_masks_nwords " + std::to_string(words) + " needs " +
                 std::to_string(need) + " bytes, buffer has " + std::to_string(answer.size())};
  }
  auto read_words = [&](std::size_t index) {
    std::vector<std::uint32_t> mask(words);
    if (words != 0) {
      std::memcpy(mask.data(), answer.data() + sizeof(raw) + index * words * sizeof(std::uint32_t),
                  words * sizeof(std::uint32_t));
    }
    return mask;
  };
  out.supported = read_words(0);
  out.advertising = read_words(1);
  out.lp_advertising = read_words(2);
  return out;
}

}  // namespace rocewatch::ethtool
