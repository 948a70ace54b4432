#pragma once

// NodeSnapshot: everything one collection pass read from the kernel, as plain
// structs in base units. Sources fill it (each its own section); the metrics
// step turns it into families. Neither side knows the other (DESIGN.md).

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <optional>
#include <string>
#include <vector>

#include "model/kernel_snapshot.h"
#include "model/lldp_snapshot.h"

namespace rocewatch {

// A directory of counter files (counters/, hw_counters/): the names, fixed
// while the device stays, shared with the source that reads them (no copy per
// scrape), and this pass's values in the same order; NaN where a value was
// unavailable or did not parse.
struct CounterSet {
  std::shared_ptr<const std::vector<std::string>> names;
  std::vector<double> values;

  std::size_t size() const { return values.size(); }
  const std::string& name(std::size_t i) const { return (*names)[i]; }
  bool has(std::size_t i) const { return values[i] == values[i]; }  // not NaN
  // The value of `counter` when it was read this pass.
  std::optional<double> Find(std::string_view counter) const;
  // How many values were read this pass.
  std::size_t present() const;
};

struct GidEntry {
  std::uint32_t index = 0;
  std::string gid;     // as sysfs prints it
  std::string type;    // "RoCE v2", "IB/RoCE v1"
  std::string netdev;  // gid_attrs/ndevs, empty on InfiniBand
  std::string ip;      // the address a RoCE GID carries
};

struct PortSnapshot {
  std::uint32_t number = 0;
  std::string netdev;
  std::string link_layer;  // "Ethernet" or "InfiniBand"
  std::optional<std::uint32_t> state;       // 1 DOWN … 4 ACTIVE
  std::string state_name;
  std::optional<std::uint32_t> phys_state;  // 2 Polling, 3 Disabled, 5 LinkUp …
  std::string phys_state_name;
  std::optional<double> rate_bytes_per_second;
  std::optional<std::uint32_t> lid;
  std::optional<std::uint32_t> sm_lid;
  CounterSet counters;                    // counters/ except the data/packet ones below
  std::optional<double> received_bytes, transmitted_bytes;      // port_{rcv,xmit}_data × 4
  std::optional<double> received_packets, transmitted_packets;  // port_{rcv,xmit}_packets
  CounterSet hw_counters;                 // every hw_counters/ file but lifespan
  std::optional<double> hw_counters_lifespan_seconds;
  bool gids_read = false;
  std::vector<GidEntry> gids;  // non-zero entries only
};

struct DeviceSnapshot {
  std::string name;  // ibdev, e.g. mlx5_0
  std::string fw_version, board_id, hca_type, node_guid, node_type, driver, pci_address;
  std::vector<PortSnapshot> ports;
  CounterSet hw_counters;                 // device-wide hw_counters/ (some drivers)
};

struct NetdevSnapshot {
  std::string name;
  std::string device;  // ibdev it belongs to, empty for extra netdevs
  std::uint32_t port = 0;
  std::optional<double> mtu_bytes;
  std::string operstate;
  std::optional<std::uint32_t> operstate_id;
  std::optional<bool> carrier;
  std::optional<double> carrier_changes;
  std::optional<double> speed_bytes_per_second;
  std::string address;
};

struct PcieSnapshot {
  std::string device;       // ibdev
  std::string pci_address;  // 0000:17:00.0
  std::optional<double> current_speed_transfers, max_speed_transfers;  // transfers per second
  std::optional<std::uint32_t> current_width, max_width;
  std::optional<std::int64_t> numa_node;
  std::string vendor_id, device_id;
};

// ECN/DCQCN as MLNX_OFED's sysfs (/sys/class/net/<if>/ecn/roce_{np,rp}) or
// upstream mlx5's debugfs (mlx5/<bdf>/cc_params) holds them.
struct EcnSnapshot {
  std::string netdev;
  std::string device;
  std::array<std::optional<bool>, 8> np_enabled{};  // notification point, per priority
  std::array<std::optional<bool>, 8> rp_enabled{};  // reaction point, per priority
  struct Parameter {
    std::string point;  // "np" or "rp"
    std::string name;   // as the kernel names it, without the rp_/np_ prefix of debugfs
    double value = 0;
    std::string source;  // "sysfs" or "debugfs"
  };
  std::vector<Parameter> parameters;
  // --collector.ecn.all-priorities / .all-sources: what the renderer exports beyond the
  // default series (the source copies its options here).
  bool all_priorities = false;
  bool all_sources = false;
};

struct RdmaCmSnapshot {
  std::string device;
  std::uint32_t port = 0;
  std::string roce_mode;      // "RoCE v2", "IB/RoCE v1"
  std::optional<double> tos;  // default_roce_tos (DSCP << 2 | ECN)
};

// How one source fared in this collection (DESIGN.md: each source reports its
// own success and duration; one broken device never fails the scrape).
struct SourceStatus {
  std::string name;
  bool success = true;
  double duration_seconds = 0;
  double parse_errors_total = 0;   // cumulative since start
  double unavailable_values = 0;   // "N/A (no PMA)" and the like, this collection
  double vanished_total = 0;       // devices/attributes that disappeared mid-read, cumulative
  std::vector<std::string> errors;  // this collection's errors, for the log
  bool rediscover = false;          // something vanished: walk the tree again next time
};

struct NodeSnapshot {
  std::vector<DeviceSnapshot> devices;
  std::vector<NetdevSnapshot> netdevs;
  std::vector<PcieSnapshot> pcie;
  std::vector<EcnSnapshot> ecn;
  std::vector<RdmaCmSnapshot> rdma_cm;
  std::vector<EthtoolSnapshot> ethtool;
  std::vector<DcbSnapshot> dcb;
  std::vector<LinkStateSnapshot> link_state;
  std::vector<VerbsPortSnapshot> verbs;
  std::vector<OpticsSnapshot> optics;
  std::optional<LldpSnapshot> lldp;  // absent when the lldp source did not run or a replay has no answer
  std::vector<SourceStatus> sources;
  double collection_seconds = 0;
};

}  // namespace rocewatch
