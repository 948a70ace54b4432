#pragma once

// ETHTOOL_GLINKSETTINGS: struct ethtool_link_settings followed by three bitmaps of
// link_mode_masks_nwords u32 each (supported, advertising, link partner advertising).
//
// The ioctl is a two-step handshake: ask with nwords 0 and the kernel answers (successfully)
// with link_mode_masks_nwords = -N and no bitmaps; ask again with N and it fills everything.
// DecodeLinkSettings reports the first answer as `handshake_words`.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::ethtool {

// `mask_words` 0 for the handshake, then the N the kernel asked for (at most 127).
std::vector<std::uint8_t> BuildLinkSettingsRequest(std::uint8_t mask_words);

struct LinkSettings {
  // The kernel asked for this many bitmap words (first step of the handshake); when set, only
  // the fields below that come from the fixed struct are meaningful and the bitmaps are empty.
  std::optional<std::uint8_t> handshake_words;
  std::optional<std::uint32_t> speed_mbps;              // absent: SPEED_UNKNOWN (link down)
  std::optional<std::uint64_t> speed_bytes_per_second;  // speed_mbps * 125000
  std::uint8_t duplex = 0xff;  // DUPLEX_HALF 0, DUPLEX_FULL 1, DUPLEX_UNKNOWN 0xff
  std::uint8_t port = 0xff;    // PORT_*: see PortName
  bool autoneg = false;
  std::uint8_t phy_address = 0;
  std::uint8_t transceiver = 0;
  std::vector<std::uint32_t> supported;
  std::vector<std::uint32_t> advertising;
  std::vector<std::uint32_t> lp_advertising;
};

// "half", "full", "unknown".
std::string_view DuplexName(std::uint8_t duplex);
// "tp", "aui", "mii", "fibre", "bnc", "da", "none", "other", "unknown".
std::string_view PortName(std::uint8_t port);

// Rejects a buffer shorter than the 48-byte struct, or shorter than the three bitmaps the
// answer says follow it.
Result<LinkSettings> DecodeLinkSettings(std::span<const std::uint8_t> answer);

}  // namespace rocewatch::ethtool
