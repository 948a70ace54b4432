#pragma once

// What the dcb table of one netdev is rendered from besides its settings: what the rest of
// the snapshot decides (the DSCPs in use; the priorities whose PFC state and dcbnl pause
// counters are series, which depend on what ethtool serves and on which priorities pause)
// and the values of the pause counters that are series. RenderDcb renders each netdev from
// its DcbSettings and this alone, so the render cache (collectors/dcb/render_input.cpp) can
// serve the table again while both are equal. Defined in collectors/dcb/metrics.cpp.

#include <array>
#include <cstdint>
#include <vector>

namespace rocewatch {
struct NodeSnapshot;
struct DcbSnapshot;
namespace collectors {

struct DcbShown {
  std::vector<std::uint32_t> used_dscps;  // UsedDscps: sorted, without duplicates
  std::array<bool, 8> frames{};           // priorities with roce_dcb_pfc_pause_frames_total series
  std::array<bool, 8> pfc{};              // priorities with a roce_pfc_enabled series
  std::array<double, 8> rx_frames{}, tx_frames{};  // the counters of the priorities in `frames`
  bool operator==(const DcbShown&) const = default;
};

DcbShown DcbShownOf(const NodeSnapshot& snap, const DcbSnapshot& d);

}  // namespace collectors
}  // namespace rocewatch
