#include "exporter/collectors/sysfs_values.h"

#include <arpa/inet.h>

#include <cmath>
#include <cstdio>

#include "rocewatch/strings.h"

namespace rocewatch::collectors {
namespace {

Error Bad(std::string_view what, std::string_view text) {
  return Error{"cannot parse " + std::string(what) + " from " + Quote(Trim(text))};
}

}  // namespace

Result<NumberedState> ParseNumberedState(std::string_view text) {
  std::string_view t = Trim(text);
  auto colon = t.find(':');
  if (colon == std::string_view::npos) return Bad("a numbered state (\"4: ACTIVE\")", text);
  auto id = ParseU64(t.substr(0, colon));
  if (!id || *id > 0xffffffffu) return Bad("a numbered state (\"4: ACTIVE\")", text);
  return NumberedState{static_cast<std::uint32_t>(*id), std::string(Trim(t.substr(colon + 1)))};
}

Result<double> ParseRateBytesPerSecond(std::string_view text) {
  std::string_view t = Trim(text);
  auto space = t.find(' ');
  if (space == std::string_view::npos) return Bad("a port rate (\"400 Gb/sec (4X NDR)\")", text);
  auto number = ParseDouble(t.substr(0, space));
  std::string_view unit = t.substr(space + 1);
  if (!number || *number < 0) return Bad("a port rate (\"400 Gb/sec (4X NDR)\")", text);
  double bits_per_unit = 0;
  if (unit.rfind("Gb/sec", 0) == 0) {
    bits_per_unit = 1e9;
  } else if (unit.rfind("Mb/sec", 0) == 0) {
    bits_per_unit = 1e6;
  } else {
    return Bad("a port rate (\"400 Gb/sec (4X NDR)\")", text);
  }
  // from_chars takes "nan" and "inf", and a huge number overflows: a rate is a finite number.
  const double bytes_per_second = *number * bits_per_unit / 8.0;
  if (!std::isfinite(bytes_per_second)) return Bad("a port rate (\"400 Gb/sec (4X NDR)\")", text);
  return bytes_per_second;
}

Result<CounterValue> ParseCounterValue(std::string_view text) {
  std::string_view t = Trim(text);
  if (t.rfind("N/A", 0) == 0) return CounterValue{};
  auto v = ParseU64(t);
  if (!v) return Bad("a counter value", text);
  return CounterValue{*v};
}

Result<std::optional<double>> ParsePcieSpeed(std::string_view text) {
  std::string_view t = Trim(text);
  if (t.rfind("Unknown", 0) == 0) return std::optional<double>{};
  auto space = t.find(' ');
  if (space == std::string_view::npos || t.substr(space + 1).rfind("GT/s", 0) != 0)
    return Bad("a PCIe link speed (\"32.0 GT/s PCIe\")", text);
  auto gts = ParseDouble(t.substr(0, space));
  if (!gts || *gts <= 0 || !std::isfinite(*gts * 1e9))  // not "nan", "inf" or an overflow
    return Bad("a PCIe link speed (\"32.0 GT/s PCIe\")", text);
  return std::optional<double>{*gts * 1e9};
}

Result<std::optional<std::uint32_t>> ParsePcieWidth(std::string_view text) {
  auto w = ParseU64(text);
  if (!w || *w > 255) return Bad("a PCIe link width", text);
  if (*w == 0 || *w == 255) return std::optional<std::uint32_t>{};
  return std::optional<std::uint32_t>{static_cast<std::uint32_t>(*w)};
}

Result<Gid> ParseGid(std::string_view text) {
  std::string_view t = Trim(text);
  auto groups = Split(t, ':');
  if (groups.size() != 8) return Bad("a GID (8 groups of 4 hex digits)", text);
  Gid gid{};
  for (std::size_t i = 0; i < 8; ++i) {
    if (groups[i].size() != 4) return Bad("a GID (8 groups of 4 hex digits)", text);
    auto v = ParseU64Auto(std::string("0x") + std::string(groups[i]));
    if (!v) return Bad("a GID (8 groups of 4 hex digits)", text);
    gid[2 * i] = static_cast<std::uint8_t>(*v >> 8);
    gid[2 * i + 1] = static_cast<std::uint8_t>(*v & 0xff);
  }
  return gid;
}

bool IsZeroGid(const Gid& gid) {
  for (auto b : gid)
    if (b != 0) return false;
  return true;
}

std::string GidToIp(const Gid& gid) {
  bool v4_mapped = gid[10] == 0xff && gid[11] == 0xff;
  for (int i = 0; i < 10 && v4_mapped; ++i) v4_mapped = gid[i] == 0;
  char buf[INET6_ADDRSTRLEN];
  if (v4_mapped) {
    std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", gid[12], gid[13], gid[14], gid[15]);
    return buf;
  }
  if (::inet_ntop(AF_INET6, gid.data(), buf, sizeof buf) == nullptr) return "";
  return buf;
}

std::string FormatGid(const Gid& gid) {
  std::string out;
  char buf[8];
  for (std::size_t i = 0; i < 8; ++i) {
    std::snprintf(buf, sizeof buf, "%s%02x%02x", i == 0 ? "" : ":", gid[2 * i], gid[2 * i + 1]);
    out += buf;
  }
  return out;
}

std::string_view ParseGidType(std::string_view text) { return Trim(text); }

Result<std::uint32_t> ParseLid(std::string_view text) {
  std::string_view t = Trim(text);
  auto v = ParseU64Auto(t);
  if (!v || *v > 0xffff) return Bad("a LID (\"0x1a\")", text);
  return static_cast<std::uint32_t>(*v);
}

Result<std::string> ParseRoceMode(std::string_view text) {
  std::string_view t = Trim(text);
  if (t == "RoCE v2" || t == "IB/RoCE v1") return std::string(t);
  return Bad("an rdma_cm RoCE mode (\"RoCE v2\" or \"IB/RoCE v1\")", text);
}

Result<std::uint32_t> ParseOperState(std::string_view text) {
  std::string_view t = Trim(text);
  static constexpr std::pair<std::string_view, std::uint32_t> kStates[] = {
      {"up", 1},      {"down", 2},       {"testing", 3},        {"unknown", 4},
      {"dormant", 5}, {"notpresent", 6}, {"lowerlayerdown", 7},
  };
  for (const auto& [name, id] : kStates)
    if (t == name) return id;
  return Bad("a netdev operstate", text);
}

Result<std::optional<double>> ParseNetdevSpeed(std::string_view text) {
  auto v = ParseI64(text);
  if (!v) return Bad("a netdev speed in Mb/s", text);
  if (*v <= 0 || *v == 0xffffffffLL) return std::optional<double>{};
  return std::optional<double>{static_cast<double>(*v) * 1e6 / 8.0};
}

}  // namespace rocewatch::collectors
