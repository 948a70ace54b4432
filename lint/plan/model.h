#pragma once

// The cluster plan: which server has which NIC, its netdev and RoCE IP, and the RoCE profile it
// must run. Plain structs, filled by LoadPlan (lint/plan/load.h) and documented in docs/plan.md.
// A setting left out of a profile is not checked against the nodes.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/plan/gpudirect_settings.h"
#include "lint/plan/json_positions.h"

namespace rocewatch::lint::plan {

inline constexpr std::uint16_t kDefaultExporterPort = 9879;

struct EcnSettings {
  std::optional<std::vector<std::int64_t>> np_priorities;  // notification point (receiver)
  std::optional<std::vector<std::int64_t>> rp_priorities;  // reaction point (sender)
};

// DCQCN parameters by their mlx5 names (/sys/class/net/<if>/ecn/roce_{np,rp}/<name>).
struct DcqcnSettings {
  std::map<std::string, std::int64_t> np;
  std::map<std::string, std::int64_t> rp;
};

struct PcieSettings {
  std::optional<double> speed_gts;    // per lane, GT/s: 2.5, 5, 8, 16, 32, 64
  std::optional<std::int64_t> width;  // lanes: 1, 2, 4, 8, 16, 32
};

// FEC the ports must run and how many errors they may see (docs/plan.md "Profile", its fec.* keys).
struct FecSettings {
  std::optional<std::string> mode;                       // "rs", "baser", "llrs" or "off"
  std::optional<double> max_pre_fec_ber;                 // corrected bits / bits received
  std::optional<std::int64_t> max_uncorrectable_blocks;  // over the window; default 0
};

// Tighter limits than the transceiver's own thresholds; every bound is optional.
struct OpticsLimits {
  std::optional<double> temperature_celsius_min, temperature_celsius_max;
  std::optional<double> voltage_volts_min, voltage_volts_max;
  std::optional<double> tx_bias_milliamperes_min, tx_bias_milliamperes_max;
  std::optional<double> tx_power_dbm_min, tx_power_dbm_max;
  std::optional<double> rx_power_dbm_min, rx_power_dbm_max;
};

// `roce-lint verify`'s perftest parameters and pass thresholds (docs/verify.md); each left out
// takes the default of lint/verify/thresholds.h.
struct VerifySettings {
  std::optional<double> min_bandwidth_fraction;        // of the planned link speed, (0, 1]
  std::optional<double> max_latency_us;                // typical latency of ib_write_lat
  std::optional<double> max_pause_duration_fraction;   // of the test time, per priority, [0, 1]
  std::optional<double> max_retransmissions_per_second;
  std::optional<std::int64_t> max_discards;            // packets over the whole test
  std::optional<std::int64_t> queue_pairs;             // perftest -q
  std::optional<std::int64_t> message_bytes;           // perftest -s
};

struct Profile {
  std::string name;
  std::optional<std::int64_t> link_speed_gbps;
  std::optional<std::int64_t> netdev_mtu;
  std::optional<std::string> roce_mode;                     // "v2"
  std::optional<std::int64_t> roce_mtu;                     // 256, 512, 1024, 2048 or 4096
  std::optional<std::string> trust;                         // "dscp" or "pcp"
  std::optional<std::vector<std::int64_t>> pfc_priorities;  // the lossless priorities
  std::optional<std::int64_t> roce_dscp, roce_priority;
  std::optional<std::int64_t> cnp_dscp, cnp_priority;
  EcnSettings ecn;
  std::optional<DcqcnSettings> dcqcn;
  std::vector<std::string> firmware;        // accepted versions; empty: not checked
  std::optional<std::string> driver;        // e.g. "mlx5_core"
  std::vector<std::string> driver_version;  // accepted versions; empty: not checked
  std::optional<PcieSettings> pcie;
  std::optional<OpticsLimits> optics;
  std::optional<FecSettings> fec;
  // RDMA optional hw counters the ports must have enabled (`rdma statistic set … optional-counters`,
  // lost at reboot), e.g. "cc_rx_ce_pkts"; empty: not checked.
  std::vector<std::string> optional_counters;
  VerifySettings verify;
  std::optional<GpuDirectSettings> gpudirect{};  // lint/plan/gpudirect_settings.h
};

struct Nic {
  std::string ib_dev;   // e.g. "mlx5_0"
  std::string netdev;   // e.g. "ens1f0np0"
  std::string profile;  // key into Plan::profiles
  std::string roce_ip;  // address/prefix as written, e.g. "10.1.0.11/24" or "fd00:1::11/64"
  std::optional<std::int64_t> rail;
  std::optional<std::string> switch_port;
  std::optional<std::string> gpu{};  // the GPU it serves: a PCI address or "nearest" (gpudirect)
};

struct Node {
  std::string name;
  std::string management_ip;
  std::string exporter;  // "host:port"; management_ip:<defaults.exporter_port> when not given
  bool exporter_given = false;  // false when `exporter` was derived from management_ip
  std::map<std::string, std::string> labels;
  std::vector<Nic> nics;
};

// Where the plan came from, for finding locations.
struct PlanSource {
  std::string name;         // file name as given, e.g. "plan.json"
  JsonPositions positions;  // empty for plans built in code
};

struct Plan {
  std::string cluster;
  std::uint16_t exporter_port = kDefaultExporterPort;  // defaults.exporter_port
  std::map<std::string, Profile> profiles;
  std::vector<Node> nodes;
  PlanSource source;

  const Profile* FindProfile(std::string_view name) const {
    auto it = profiles.find(std::string(name));
    return it == profiles.end() ? nullptr : &it->second;
  }
};

// The position of the value at `pointer`, or of the nearest enclosing value that has one (a missing
// key is placed at the object that lacks it); {0, 0} when unknown.
TextPosition PositionOf(const PlanSource& source, std::string_view pointer);
// The position of the member's key, falling back to PositionOf.
TextPosition KeyPositionOf(const PlanSource& source, std::string_view pointer);

// "plan.json:12:5 /nodes/3/nics/0/roce_ip": the source position of the value at `pointer` (or of
// the nearest enclosing value that has one), then the pointer itself.
std::string LocationOf(const PlanSource& source, std::string_view pointer);
// Same, at the member's key rather than its value (for unknown and duplicate keys).
std::string KeyLocationOf(const PlanSource& source, std::string_view pointer);

}  // namespace rocewatch::lint::plan
