#pragma once

// Turns what a user pasted into a bug report into the kernel answers of a capture directory
// (docs/capture.md), so that `roce_exporter --replay DIR` serves it through the same decoders
// as a live node:
//   - `ethtool -S DEV` text -> kernel/ethtool/DEV/{sset_info.1,strings.1,stats} (and drvinfo
//     when the driver is known), the buffers SIOCETHTOOL GSSET_INFO/GSTRINGS/GSTATS fill;
//   - `ethtool -m DEV [hex on|raw on]` -> kernel/ethtool/DEV/{module_info,module_eeprom.0.N},
//     the GMODULEINFO/GMODULEEEPROM answers (the ioctl path the optics source falls back to
//     when a capture has no netlink pages).
// PrepareCapture adds what --replay needs around them: a capture.json when there is none, and
// the netdev's sysfs directory (sys/devices/virtual/net/DEV with its class/net link) when the
// capture has no such netdev yet.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/ethtool/string_set.h"
#include "exporter/optics/eeprom_image.h"
#include "rocewatch/result.h"

namespace rocewatch::convert {

// A netdev name the kernel would accept (dev_valid_name: 1-15 bytes, not "." or "..", no '/',
// ':' or whitespace); it becomes a path component of the capture, so nothing else passes.
Status CheckNetdevName(std::string_view name);

// The answer buffers, laid out as the kernel fills them (include/uapi/linux/ethtool.h).
std::vector<std::uint8_t> SsetInfoAnswer(std::uint32_t string_set, std::uint32_t count);
std::vector<std::uint8_t> StringsAnswer(std::uint32_t string_set,
                                        const std::vector<ethtool::NamedStat>& stats);
std::vector<std::uint8_t> StatsAnswer(const std::vector<ethtool::NamedStat>& stats);
// struct ethtool_drvinfo with driver (and firmware, when given) and n_stats set.
Result<std::vector<std::uint8_t>> DriverInfoAnswer(std::string_view driver,
                                                   std::string_view firmware,
                                                   std::uint32_t n_stats);

struct DriverIdentity {
  std::string driver;    // "mlx5_core", as `ethtool -i` says
  std::string firmware;  // may be empty
};

// Writes the statistics answers of `netdev` under capture_dir/kernel/.
Status WriteEthtoolStats(const std::string& capture_dir, const std::string& netdev,
                         const std::vector<ethtool::NamedStat>& stats,
                         const std::optional<DriverIdentity>& driver);
// Writes the module answers of `netdev` for `image` under capture_dir/kernel/.
Status WriteModuleEeprom(const std::string& capture_dir, const std::string& netdev,
                         const optics::EepromImage& image);
// capture.json (when absent) and the netdev's sysfs directory (when absent).
Status PrepareCapture(const std::string& capture_dir, const std::string& netdev,
                      const std::string& description);

}  // namespace rocewatch::convert
