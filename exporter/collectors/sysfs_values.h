#pragma once

// Pure parsers for the text of RDMA, netdev and PCI sysfs attributes: bytes in,
// values in base units out, no I/O. Each returns an Error naming what it got.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rocewatch/result.h"

namespace rocewatch::collectors {

// "4: ACTIVE" (ports/N/state) or "5: LinkUp" (phys_state) or "1: CA" (node_type).
struct NumberedState {
  std::uint32_t id = 0;
  std::string name;
};
Result<NumberedState> ParseNumberedState(std::string_view text);

// ports/N/rate: "400 Gb/sec (4X NDR)", "2.5 Gb/sec (1X SDR)", "100 Gb/sec (2X HDR)".
// Returns bytes per second (decimal gigabits: 400 Gb/sec → 5e10 B/s).
Result<double> ParseRateBytesPerSecond(std::string_view text);

// A value of counters/ or hw_counters/: an unsigned decimal, or a marker that the
// kernel cannot provide it ("N/A (no PMA)", "N/A").
struct CounterValue {
  std::optional<std::uint64_t> value;  // empty when unavailable
  bool unavailable() const { return !value.has_value(); }
};
Result<CounterValue> ParseCounterValue(std::string_view text);

// PCI current_link_speed / max_link_speed: "32.0 GT/s PCIe", "16.0 GT/s PCIe",
// "8.0 GT/s PCIe", "2.5 GT/s", "5.0 GT/s PCIe". Returns transfers per second;
// empty for "Unknown" / "Unknown speed" (a link that never trained).
Result<std::optional<double>> ParsePcieSpeed(std::string_view text);
// PCI *_link_width: "16", "8"; empty for 0 or 255 (unknown).
Result<std::optional<std::uint32_t>> ParsePcieWidth(std::string_view text);

// A GID as sysfs prints it: eight colon-separated groups of four hex digits.
using Gid = std::array<std::uint8_t, 16>;
Result<Gid> ParseGid(std::string_view text);
bool IsZeroGid(const Gid& gid);
// The IP a RoCE GID carries: dotted quad for IPv4-mapped (::ffff:a.b.c.d),
// RFC 5952 text for anything else.
std::string GidToIp(const Gid& gid);
// The canonical sysfs spelling ("fe80:0000:...").
std::string FormatGid(const Gid& gid);

// gid_attrs/types/N: "RoCE v2" → "RoCE v2", "IB/RoCE v1" → "RoCE v1" on
// Ethernet, "IB" on InfiniBand. Returns the text as the kernel wrote it, trimmed.
std::string_view ParseGidType(std::string_view text);

// ports/N/lid and sm_lid: "0x1a" (hex, as the kernel prints them).
Result<std::uint32_t> ParseLid(std::string_view text);

// rdma_cm configfs default_roce_mode: "RoCE v2", "IB/RoCE v1".
Result<std::string> ParseRoceMode(std::string_view text);

// Netdev operstate ("up", "down", "lowerlayerdown", "unknown", "dormant",
// "testing", "notpresent") → its RFC 2863 ifOperStatus number (up = 1 … lowerlayerdown = 7).
Result<std::uint32_t> ParseOperState(std::string_view text);

// Netdev speed in Mb/s → bytes per second; empty for -1 / unknown (link down).
Result<std::optional<double>> ParseNetdevSpeed(std::string_view text);

}  // namespace rocewatch::collectors
