#pragma once

// The rdma collector's section: RDMA devices, their ports, counters and GIDs from sysfs.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/counter_set.h"
#include "exporter/model/section.h"

namespace rocewatch {

struct GidEntry {
  std::uint32_t index = 0;
  std::string gid;     // as sysfs prints it
  std::string type;    // "RoCE v2", "IB/RoCE v1"
  std::string netdev;  // gid_attrs/ndevs, empty on InfiniBand
  std::string ip;      // the address a RoCE GID carries
};

// An optional hw counter of a port (`rdma statistic mode supported`) and whether it is
// enabled (`rdma statistic set … optional-counters`), from RDMA netlink STAT_GET_STATUS.
struct OptionalCounterState {
  std::string name;
  bool enabled = false;
};

struct PortSnapshot {
  std::uint32_t number = 0;
  std::string netdev;
  std::string link_layer;              // "Ethernet" or "InfiniBand"
  std::optional<std::uint32_t> state;  // 1 DOWN … 4 ACTIVE
  std::string state_name;
  std::optional<std::uint32_t> phys_state;  // 2 Polling, 3 Disabled, 5 LinkUp …
  std::string phys_state_name;
  std::optional<double> rate_bytes_per_second;
  std::optional<std::uint32_t> lid;
  std::optional<std::uint32_t> sm_lid;
  CounterSet counters;  // counters/ except the data/packet ones below (default_counters.h)
  std::optional<double> received_bytes, transmitted_bytes;      // port_{rcv,xmit}_data × 4
  std::optional<double> received_packets, transmitted_packets;  // port_{rcv,xmit}_packets
  CounterSet hw_counters;  // hw_counters/ but lifespan (default_counters.h)
  std::optional<double> hw_counters_lifespan_seconds;
  std::vector<OptionalCounterState> optional_counters;  // empty without RDMA netlink
  bool gids_read = false;
  std::vector<GidEntry> gids;  // non-zero entries only
};

// --collector.rdma.all-hw-counters / .all-port-counters: which counter files the source
// reads (default_counters.h); .all-gids: whether the renderer serves RoCE v1 twins
// (metrics.cpp). docs/metrics.md "Default and opt-in series".
struct RdmaDetail {
  bool all_hw_counters = false;
  bool all_port_counters = false;
  bool all_gids = false;
};

struct DeviceSnapshot {
  std::string name;  // ibdev, e.g. mlx5_0
  std::string fw_version, board_id, hca_type, node_guid, node_type, driver, pci_address;
  std::vector<PortSnapshot> ports;
  CounterSet hw_counters;  // device-wide hw_counters/ (some drivers)
  RdmaDetail detail;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct RdmaSection {
  std::vector<DeviceSnapshot> devices;
  void Append(RdmaSection&& part) { AppendSection(devices, part.devices); }
};

}  // namespace rocewatch
