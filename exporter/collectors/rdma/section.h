#pragma once

// The rdma collector's section: RDMA devices, their ports, counters and GIDs from sysfs.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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

// A bound QP counter of a port (`rdma statistic qp show`, RDMA netlink STAT_GET qp dump):
// the QPs bound to it and its hw counters, filtered as the port's are (default_counters.h).
struct BoundCounterSnapshot {
  std::uint32_t id = 0;
  std::string mode;                   // "auto" or "manual"
  std::string qp_type;                // auto mode by QP type: "RC", "UD" ...; else empty
  std::optional<std::uint32_t> pid;   // auto mode by PID
  std::string comm;                   // its process's name: the kernel's for a kernel user,
                                      // /proc/PID/comm with --collector.rdma.per-process
  std::size_t qps = 0;                // QPs bound now
  CounterSet counters;
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
  // The QP-counter mode (`rdma statistic qp mode`: "none", "auto", "manual"); empty without
  // RDMA netlink. Bound counters: how many the port has, and the first
  // kMaxBoundCountersServed of them by id.
  std::string qp_counter_mode;
  std::optional<std::size_t> bound_counters_total;
  std::vector<BoundCounterSnapshot> bound_counters;
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

// A resource type's current count on a device (`rdma resource show`: "qp", "cq", "mr", "pd",
// "cm_id", "ctx", "srq"), from RDMA netlink RES_GET.
struct RdmaResourceCount {
  std::string type;
  double current = 0;
};

inline constexpr std::size_t kMaxBoundCountersServed = 32;

// The QPs of one owner on a device (--collector.rdma.per-process; RDMA netlink RES_QP_GET):
// a process (pid, its comm and cgroup from procfs) or a kernel user (pid empty, comm the
// kernel's name for it: "ib_core", "rdma_cm" ...).
struct RdmaProcessQps {
  std::string pid;     // empty for a kernel owner
  std::string comm;    // /proc/PID/comm, or the kernel owner's name
  std::string cgroup;  // the cgroup v2 path of /proc/PID/cgroup ("/kubepods.slice/..."), or empty
  std::size_t qps = 0;
};

inline constexpr std::size_t kMaxProcessesServed = 64;

// --collector.rdma.per-job: the QPs of one job on a device (rdma/jobs.h): the processes of a
// Kubernetes pod, a Slurm job or a systemd unit (procfs/cgroup_workload.h), with the sums of the
// QP counters the kernel bound to those processes (auto mode per PID) on the device's ports.
struct RdmaJob {
  std::string kind;  // "pod", "slurm", "unit"; "other" (in none), "kernel" (a kernel user),
                     // "folded" (the jobs past kMaxJobsServed, summed)
  std::string job;   // pod UID, Slurm job id, unit name, kernel user's name; empty otherwise
  std::string qos;   // a pod's QoS class
  // A pod's namespace and name (--collector.rdma.pod-names-root); empty where not known.
  std::string pod_namespace, pod_name;
  std::size_t processes = 0;
  std::size_t qps = 0;
  std::vector<std::pair<std::string, double>> counters;  // by name, sorted
};

inline constexpr std::size_t kMaxJobsServed = 16;

struct DeviceSnapshot {
  std::string name;  // ibdev, e.g. mlx5_0
  std::string fw_version, board_id, hca_type, node_guid, node_type, driver, pci_address;
  std::string pci_function;    // "pf", "vf", "none" (inventory/pci_function.h)
  std::string pf_pci_address;  // its PF's address on a VF, its own on a PF, empty off PCI
  std::vector<PortSnapshot> ports;
  CounterSet hw_counters;  // device-wide hw_counters/ (some drivers)
  std::vector<RdmaResourceCount> resources;  // in the kernel's order; empty without netlink
  // --collector.rdma.per-process: how many owners hold QPs, and the kMaxProcessesServed with
  // the most QPs (ties: by pid).
  std::optional<std::size_t> processes_total;
  std::vector<RdmaProcessQps> processes;
  // --collector.rdma.per-job: how many jobs hold QPs, how many of them were folded into one
  // "folded" entry, the jobs (the kMaxJobsServed with the most QPs, then the folded one), and
  // whether any port binds QP counters per process (false: the jobs carry no counters).
  std::optional<std::size_t> jobs_total;
  std::size_t jobs_folded = 0;
  std::vector<RdmaJob> jobs;
  bool job_counters_bound = false;
  RdmaDetail detail;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct RdmaSection {
  std::vector<DeviceSnapshot> devices;
  void Append(RdmaSection&& part) { AppendSection(devices, part.devices); }
};

}  // namespace rocewatch
