#pragma once

// The ethtool_netlink collector's section: link state and 802.3x pause.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

// ethtool netlink: link state with the link-down reason, and 802.3x pause.
struct LinkStateSnapshot {
  std::string netdev;
  std::optional<bool> link;
  std::string ext_state, ext_substate;  // why the link is down ("link_training_failure" …)
  std::optional<double> link_down_events;
  std::optional<double> sqi, sqi_max;
  std::optional<bool> pause_autoneg, pause_rx, pause_tx;
  std::optional<double> pause_rx_frames, pause_tx_frames;
  // --collector.ethtool_netlink.repeats: link_down_events as a series also while the ethtool
  // collector serves the driver's link_down_events_phy (mlx5: the same PPCNT counter), and the
  // link state also while roce_netdev_carrier serves it (a driver whose get_link is carrier).
  bool repeats = false;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct LinkStateSection {
  std::vector<LinkStateSnapshot> link_state;
  void Append(LinkStateSection&& part) { AppendSection(link_state, part.link_state); }
};

}  // namespace rocewatch
