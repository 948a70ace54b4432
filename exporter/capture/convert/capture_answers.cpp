#include "exporter/capture/convert/capture_answers.h"

#include <linux/ethtool.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "exporter/capture/files/capture_files.h"
#include "exporter/capture/files/capture_metadata.h"
#include "exporter/kernel/answers.h"
#include "exporter/optics/ioctl_layout.h"
#include "rocewatch/version.h"

namespace rocewatch::convert {
namespace {

namespace stdfs = std::filesystem;

constexpr std::size_t kMaxNetdevName = 15;  // IFNAMSIZ - 1

template <typename T>
void Append(std::vector<std::uint8_t>& out, const T& value) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

bool CopyField(char* field, std::size_t size, std::string_view text) {
  if (text.size() >= size) return false;  // the kernel strscpy()s: room for the NUL
  std::memcpy(field, text.data(), text.size());
  return true;
}

Status Write(const std::string& dir, const std::string& key, std::vector<std::uint8_t> bytes) {
  return kernel::WriteAnswer(dir, key, kernel::Answer{std::move(bytes), 0});
}

}  // namespace

Status CheckNetdevName(std::string_view name) {
  if (name.empty() || name.size() > kMaxNetdevName) {
    return Error{"netdev name \"" + std::string(name) + "\": a netdev name has 1 to " +
                 std::to_string(kMaxNetdevName) + " bytes"};
  }
  if (name == "." || name == "..") return Error{"netdev name \"" + std::string(name) + "\""};
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '/' || c == ':' || u <= 0x20 || u == 0x7f) {
      return Error{"netdev name \"" + std::string(name) +
                   "\": no '/', ':', blanks or control characters in a netdev name"};
    }
  }
  return {};
}

std::vector<std::uint8_t> SsetInfoAnswer(std::uint32_t string_set, std::uint32_t count) {
  std::vector<std::uint8_t> out;
  Append(out, std::uint32_t{ETHTOOL_GSSET_INFO});
  Append(out, std::uint32_t{0});                             // reserved
  Append(out, std::uint64_t{1} << string_set);               // sset_mask: the set asked for
  Append(out, count);                                        // data[0]
  return out;
}

std::vector<std::uint8_t> StringsAnswer(std::uint32_t string_set,
                                        const std::vector<ethtool::NamedStat>& stats) {
  std::vector<std::uint8_t> out;
  Append(out, std::uint32_t{ETHTOOL_GSTRINGS});
  Append(out, string_set);
  Append(out, static_cast<std::uint32_t>(stats.size()));
  for (const auto& s : stats) {
    std::uint8_t name[ethtool::kGstringBytes] = {};
    std::memcpy(name, s.name.data(), std::min(s.name.size(), sizeof name));
    out.insert(out.end(), name, name + sizeof name);
  }
  return out;
}

std::vector<std::uint8_t> StatsAnswer(const std::vector<ethtool::NamedStat>& stats) {
  std::vector<std::uint8_t> out;
  Append(out, std::uint32_t{ETHTOOL_GSTATS});
  Append(out, static_cast<std::uint32_t>(stats.size()));
  for (const auto& s : stats) Append(out, s.value);
  return out;
}

Result<std::vector<std::uint8_t>> DriverInfoAnswer(std::string_view driver,
                                                   std::string_view firmware,
                                                   std::uint32_t n_stats) {
  ethtool_drvinfo info{};
  info.cmd = ETHTOOL_GDRVINFO;
  if (driver.empty() || !CopyField(info.driver, sizeof info.driver, driver)) {
    return Error{"driver name \"" + std::string(driver) + "\": 1 to 31 bytes"};
  }
  if (!CopyField(info.fw_version, sizeof info.fw_version, firmware)) {
    return Error{"firmware version \"" + std::string(firmware) + "\": at most 31 bytes"};
  }
  info.n_stats = n_stats;
  std::vector<std::uint8_t> out;
  Append(out, info);
  return out;
}

Status WriteEthtoolStats(const std::string& capture_dir, const std::string& netdev,
                         const std::vector<ethtool::NamedStat>& stats,
                         const std::optional<DriverIdentity>& driver) {
  if (Status s = CheckNetdevName(netdev); !s) return s;
  if (stats.empty() || stats.size() > ethtool::kMaxEntries) {
    return Error{"ethtool statistics: " + std::to_string(stats.size()) + " values"};
  }
  const auto count = static_cast<std::uint32_t>(stats.size());
  if (driver) {
    auto info = DriverInfoAnswer(driver->driver, driver->firmware, count);
    if (!info) return info.error();
    if (Status s = Write(capture_dir, kernel::call::DriverInfo{netdev}.Key(), std::move(*info)); !s)
      return s;
  }
  if (Status s = Write(capture_dir, kernel::call::StringSetInfo{netdev, ETH_SS_STATS}.Key(),
                       SsetInfoAnswer(ETH_SS_STATS, count));
      !s)
    return s;
  if (Status s = Write(capture_dir, kernel::call::Strings{netdev, ETH_SS_STATS}.Key(),
                       StringsAnswer(ETH_SS_STATS, stats));
      !s)
    return s;
  return Write(capture_dir, kernel::call::Stats{netdev}.Key(), StatsAnswer(stats));
}

Status WriteModuleEeprom(const std::string& capture_dir, const std::string& netdev,
                         const optics::EepromImage& image) {
  if (Status s = CheckNetdevName(netdev); !s) return s;
  optics::IoctlModule module = optics::IoctlModuleLayout(image);
  if (module.raw.empty()) return Error{"module EEPROM dump: it has no lower page (offset 0)"};
  ethtool_modinfo info{};
  info.cmd = ETHTOOL_GMODULEINFO;
  info.type = module.type;
  info.eeprom_len = static_cast<std::uint32_t>(module.raw.size());
  std::vector<std::uint8_t> info_bytes;
  Append(info_bytes, info);
  if (Status s = Write(capture_dir, kernel::call::ModuleInfo{netdev}.Key(), std::move(info_bytes));
      !s)
    return s;

  ethtool_eeprom header{};
  header.cmd = ETHTOOL_GMODULEEEPROM;
  header.offset = 0;
  header.len = info.eeprom_len;
  std::vector<std::uint8_t> eeprom;
  Append(eeprom, header);
  eeprom.insert(eeprom.end(), module.raw.begin(), module.raw.end());
  return Write(capture_dir, kernel::call::ModuleEeprom{netdev, 0, info.eeprom_len}.Key(),
               std::move(eeprom));
}

Status PrepareCapture(const std::string& capture_dir, const std::string& netdev,
                      const std::string& description) {
  if (Status s = CheckNetdevName(netdev); !s) return s;
  const stdfs::path root(capture_dir);
  std::error_code ec;
  stdfs::create_directories(root, ec);
  if (ec) return Error{"cannot create " + root.string() + ": " + ec.message()};

  const stdfs::path meta = root / "capture.json";
  if (!stdfs::exists(stdfs::symlink_status(meta, ec))) {
    replay::CaptureMetadata m;
    m.created_by = std::string("roce_exporter convert ") + kVersion + " (" + kRevision + ")";
    m.created_unix = static_cast<std::int64_t>(std::time(nullptr));
    m.description = description;
    std::ofstream out(meta, std::ios::trunc);
    out << m.ToJson();
    out.close();
    if (!out) return Error{"cannot write " + meta.string()};
  }

  // sys/class/net/DEV -> ../../devices/virtual/net/DEV, as on a node for a virtual netdev: the
  // inventory lists class/net, so the converted answers have a netdev to belong to.
  const stdfs::path link = root / "sys/class/net" / netdev;
  if (stdfs::exists(stdfs::symlink_status(link, ec))) return {};
  const stdfs::path device = root / "sys/devices/virtual/net" / netdev;
  stdfs::create_directories(device, ec);
  if (ec) return Error{"cannot create " + device.string() + ": " + ec.message()};
  stdfs::create_directories(link.parent_path(), ec);
  if (ec) return Error{"cannot create " + link.parent_path().string() + ": " + ec.message()};
  stdfs::create_directory_symlink(stdfs::path("../../devices/virtual/net") / netdev, link, ec);
  if (ec) return Error{"cannot link " + link.string() + ": " + ec.message()};
  return {};
}

}  // namespace rocewatch::convert
