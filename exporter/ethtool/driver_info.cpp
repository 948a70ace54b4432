#include "exporter/ethtool/driver_info.h"

#include <linux/ethtool.h>

#include <cstring>
#include <string>

namespace rocewatch::ethtool {
namespace {

static_assert(sizeof(ethtool_drvinfo) == 196);

template <std::size_t N>
std::string FixedString(const char (&field)[N]) {
  const void* nul = std::memchr(field, '\0', N);
  const std::size_t length =
      nul == nullptr ? N : static_cast<std::size_t>(static_cast<const char*>(nul) - field);
  return std::string(field, length);
}

}  // namespace

std::vector<std::uint8_t> BuildDriverInfoRequest() {
  ethtool_drvinfo info{};
  info.cmd = ETHTOOL_GDRVINFO;
  std::vector<std::uint8_t> out(sizeof(info));
  std::memcpy(out.data(), &info, sizeof(info));
  return out;
}

Result<DriverInfo> DecodeDriverInfo(std::span<const std::uint8_t> answer) {
  if (answer.size() < sizeof(ethtool_drvinfo)) {
    return Error{"ethtool GDRVINFO answer: " + std::to_string(answer.size()) + " bytes, expected " +
                 std::to_string(sizeof(ethtool_drvinfo))};
  }
  ethtool_drvinfo raw;
  std::memcpy(&raw, answer.data(), sizeof(raw));
  DriverInfo info;
  info.driver = FixedString(raw.driver);
  info.version = FixedString(raw.version);
  info.fw_version = FixedString(raw.fw_version);
  info.bus_info = FixedString(raw.bus_info);
  info.erom_version = FixedString(raw.erom_version);
  info.n_priv_flags = raw.n_priv_flags;
  info.n_stats = raw.n_stats;
  info.testinfo_len = raw.testinfo_len;
  info.eedump_len = raw.eedump_len;
  info.regdump_len = raw.regdump_len;
  return info;
}

}  // namespace rocewatch::ethtool
