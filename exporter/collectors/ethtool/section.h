#pragma once

// The ethtool collector's section (SIOCETHTOOL answers, decoded).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/ethtool/classify.h"
#include "exporter/model/section.h"

namespace rocewatch {

// SIOCETHTOOL: driver info, link settings and the classified statistics of one netdev.
struct EthtoolSnapshot {
  std::string netdev;
  bool driver_info_read = false;
  std::string driver, version, firmware, bus_info;
  std::optional<double> speed_bytes_per_second;  // GLINKSETTINGS; absent when unknown
  std::string duplex, connector;                 // "full", "fibre" … ("unknown" when unknown)
  std::optional<bool> autoneg;
  // The values say what they are by the classifier's enums and static table entries
  // (ethtool/classify.h), never by a string that a pass builds or frees: a scrape copies no
  // name, and the renderer finds each family by index.
  struct PriorityValue {
    std::uint8_t priority = 0;
    ethtool::Direction direction = ethtool::Direction::kRx;
    ethtool::PriorityKind kind = ethtool::PriorityKind::kPauseFrames;
    double value = 0;  // base units
  };
  std::vector<PriorityValue> per_priority;
  struct PortValue {
    const ethtool::PortStatSpec* spec = nullptr;  // an entry of ethtool::PortStatTable()
    double value = 0;                             // base units
  };
  std::vector<PortValue> port;
  struct RawValue {
    std::string name;  // the driver's name, for --collector.ethtool.metrics-include matches
    double value = 0;
  };
  // How many statistic names the driver printed that its table (exporter/drivers/) does not
  // know; absent when no string set was read.
  std::optional<std::size_t> unclassified;
  std::vector<RawValue> included;  // per-queue and unclassified stats the include regex selected
  // --collector.ethtool.all-priorities: every priority's per-priority series, not only
  // those of the priorities in use (metrics.cpp, ServedPriorities).
  bool all_priorities = false;
  // --collector.ethtool.all-port-stats: the port statistics that repeat another family or
  // are detail no check, rule or panel reads (metrics.cpp, ServePortStat), too.
  bool all_port_stats = false;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct EthtoolSection {
  std::vector<EthtoolSnapshot> ethtool;
  void Append(EthtoolSection&& part) { AppendSection(ethtool, part.ethtool); }
};

}  // namespace rocewatch
