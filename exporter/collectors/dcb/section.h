#pragma once

// The dcb source's section of the NodeSnapshot: the QoS settings each netdev's driver holds,
// read through dcbnl (PFC, ETS, APP table, buffers, DCBX). Plain structs in base units.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

// dcbnl (DCB_CMD_IEEE_GET, DCB_CMD_GDCBX): the QoS settings as the kernel holds them.
// Compared as a whole by the render cache (collectors/dcb/render_input.cpp): everything but
// the pause counters, which DcbSnapshot adds.
struct DcbSettings {
  std::string netdev;
  bool supported = false;  // false: the device has no DCB (EOPNOTSUPP); nothing else is set
  std::optional<std::array<bool, 8>> pfc_enabled;
  std::optional<std::uint32_t> pfc_capability;
  std::optional<std::array<std::uint32_t, 8>> priority_tc;
  std::optional<std::array<double, 8>> tc_tx_bandwidth_percent;
  std::optional<std::array<std::string_view, 8>> tc_tsa;  // dcbnl::TsaName (static text)
  std::optional<std::array<double, 8>> tc_max_rate_bytes_per_second;
  std::string_view trust;  // dcbnl::TrustMode: "dscp" or "pcp" (from the APP table)
  struct App {
    std::string_view selector;  // dcbnl::SelectorName (static text: a pass copies no string)
    std::uint32_t protocol = 0;
    std::uint32_t priority = 0;
    bool operator==(const App&) const = default;
  };
  std::vector<App> app_table;
  struct DscpMap {
    std::uint32_t dscp = 0;
    std::uint32_t priority = 0;     // the first priority the table gives it
    bool ambiguous = false;         // the table gives it more than one
    bool operator==(const DscpMap&) const = default;
  };
  std::vector<DscpMap> dscp_priority;
  std::optional<std::array<std::uint32_t, 8>> priority_buffer;
  std::optional<std::array<double, 8>> buffer_size_bytes;
  std::optional<double> buffer_total_bytes;
  std::vector<std::string> dcbx_modes;  // "host", "lld_managed", "cee", "ieee", "static"
  // What the renderer exports beyond the default series (--collector.dcb.full-tables,
  // --collector.dcb.dscps); the source copies its options here.
  bool full_tables = false;
  std::vector<std::uint32_t> exported_dscps;  // DSCPs whose priority is always exported
  bool operator==(const DcbSettings&) const = default;
};

// The settings and the PFC pause counters (ieee_pfc requests/indications), which move on
// every pass of a node that pauses.
struct DcbSnapshot : DcbSettings {
  std::optional<std::array<double, 8>> pfc_tx_pause_frames, pfc_rx_pause_frames;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct DcbSection {
  std::vector<DcbSnapshot> dcb;
  void Append(DcbSection&& part) { AppendSection(dcb, part.dcb); }
};

}  // namespace rocewatch
