#pragma once

// ETHTOOL_GDRVINFO: struct ethtool_drvinfo, decoded from the buffer the ioctl fills.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::ethtool {

struct DriverInfo {
  std::string driver;        // "mlx5_core", "veth"
  std::string version;       // driver version ("6.1.0-18-amd64" for in-tree drivers)
  std::string fw_version;    // "28.39.1002 (MT_0000000838)"
  std::string bus_info;      // "0000:17:00.0"
  std::string erom_version;  // expansion ROM version, often empty
  std::uint32_t n_priv_flags = 0;
  std::uint32_t n_stats = 0;  // entries in ETH_SS_STATS (GSTATS/GSTRINGS)
  std::uint32_t testinfo_len = 0;
  std::uint32_t eedump_len = 0;  // bytes of EEPROM ETHTOOL_GEEPROM can read
  std::uint32_t regdump_len = 0;
};

std::vector<std::uint8_t> BuildDriverInfoRequest();
// Rejects a buffer shorter than struct ethtool_drvinfo (196 bytes). Text fields stop at the
// first NUL or at the end of their 32-byte field.
Result<DriverInfo> DecodeDriverInfo(std::span<const std::uint8_t> answer);

}  // namespace rocewatch::ethtool
