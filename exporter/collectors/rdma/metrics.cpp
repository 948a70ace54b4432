#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/collectors/rdma/collector.h"
#include "exporter/collectors/rdma/nldev_resources.h"
#include "exporter/collectors/rdma/transport_events.h"
#include "exporter/metrics/label_value.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;
using S = Served;

const MetricSpec kDeviceInfo{"roce_device_info", T::kGauge,
    "RDMA device identity from sysfs; always 1. driver is the parent device's driver, or for "
    "a device without a parent (rxe) the one RDMA netlink's uverbs driver id names. "
    "pci_function is pf, vf (an SR-IOV virtual function; pf_pci_address names its PF) or none "
    "(its parent is not a PCI function: software RDMA, virtio; the PCI labels empty).",
    {"device", "fw_version", "board_id", "hca_type", "node_guid", "node_type", "driver", "pci_address",
     "pci_function", "pf_pci_address"}};
const MetricSpec kPortInfo{"roce_port_info", T::kGauge,
    "An RDMA port and the netdev it maps to; always 1. Join on device and port, or on netdev.",
    {"device", "port", "netdev", "link_layer"}};
const MetricSpec kPortState{"roce_port_state", T::kGauge,
    "Logical port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER.", {"device", "port"}};
const MetricSpec kPortPhysState{"roce_port_physical_state", T::kGauge,
    "Physical port state: 1 Sleep, 2 Polling, 3 Disabled, 4 PortConfigurationTraining, 5 LinkUp, "
    "6 LinkErrorRecovery, 7 PhyTest.",
    {"device", "port"}};
const MetricSpec kPortRate{"roce_port_rate_bytes_per_second", T::kGauge,
    "Port rate as the device reports it, in bytes per second.", {"device", "port"}};
const MetricSpec kPortLid{"roce_port_lid", T::kGauge, "Port LID (InfiniBand link layer only).",
    {"device", "port"}};
const MetricSpec kPortSmLid{"roce_port_sm_lid", T::kGauge,
    "LID of the subnet manager the port uses (InfiniBand link layer only).", {"device", "port"}};
const MetricSpec kRxBytes{"roce_port_received_bytes_total", T::kCounter,
    "Bytes received on the port (counters/port_rcv_data x 4).", {"device", "port"}};
const MetricSpec kTxBytes{"roce_port_transmitted_bytes_total", T::kCounter,
    "Bytes transmitted on the port (counters/port_xmit_data x 4).", {"device", "port"}};
const MetricSpec kRxPackets{"roce_port_received_packets_total", T::kCounter,
    "Packets received on the port (counters/port_rcv_packets).", {"device", "port"}};
const MetricSpec kTxPackets{"roce_port_transmitted_packets_total", T::kCounter,
    "Packets transmitted on the port (counters/port_xmit_packets).", {"device", "port"}};
const MetricSpec kPortCounter{"roce_port_stat_total", T::kCounter,
    "Every other counters/ file of the port (IB PMA counters), named as in sysfs; on Ethernet "
    "ports without the unicast/multicast split and the InfiniBand-fabric counters unless "
    "--collector.rdma.all-port-counters.",
    {"device", "port", "counter"},
    S::kTrimmed, "--collector.rdma.all-port-counters (Ethernet ports: unicast/multicast split, "
    "InfiniBand-fabric counters)"};
const MetricSpec kHwCounter{"roce_hw_stat_total", T::kCounter,
    "Every hw counter of the port (driver-specific, e.g. out_of_buffer, req_cqe_error, "
    "resp_cqe_error), named as in sysfs: from one RDMA netlink STAT_GET where the kernel "
    "answers it (with the optional counters the driver has enabled, e.g. mlx5's cc_rx_ce_pkts), "
    "else one hw_counters/ file each. Only with --collector.rdma.all-hw-counters: the counters "
    "served by meaning as roce_transport_events_total, and each driver's detail counters "
    "(mlx5: operation counts, flush errors, application-error breakdown, congestion-control "
    "internals; bnxt_re: volume, resource counts, operation mix, responder error breakdown; "
    "irdma: volume, operation mix, iWARP's TCP).",
    {"device", "port", "counter"},
    S::kTrimmed, "--collector.rdma.all-hw-counters (the counters roce_transport_events_total "
    "serves; each driver's detail counters, listed in its table)"};
const MetricSpec kDeviceHwCounter{"roce_device_hw_stat_total", T::kCounter,
    "Every device-wide hw_counters/ file but lifespan (drivers that keep counters per device), named as in sysfs.",
    {"device", "counter"}};
const MetricSpec kLifespan{"roce_hw_counters_lifespan_seconds", T::kGauge,
    "How long the driver caches hw_counters values before querying the device again "
    "(with --collector.rdma.all-hw-counters).",
    {"device", "port"},
    S::kOptIn, "--collector.rdma.all-hw-counters"};
const MetricSpec kOptionalCounter{"roce_hw_optional_counter_enabled", T::kGauge,
    "1 when the port's optional hw counter (mlx5: cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts) "
    "is enabled (rdma statistic set ... optional-counters), else 0; from RDMA netlink "
    "STAT_GET_STATUS (kernels 6.0 and later). An enabled one is served in roce_hw_stat_total.",
    {"device", "port", "counter"}};
const MetricSpec kResources{"roce_rdma_resources", T::kGauge,
    "How many RDMA resources of a type the device has now (rdma resource show: qp, cq, mr, pd, "
    "cm_id, ctx, srq), from RDMA netlink RES_GET; all processes of the exporter's pid namespace.",
    {"device", "type"}};
const MetricSpec kQpCounterMode{"roce_rdma_qp_counter_mode", T::kGauge,
    "The port's QP-counter mode (rdma statistic qp mode: none, auto, manual) as the mode label; "
    "always 1. From RDMA netlink STAT_GET with STAT_RES = RES_QP.",
    {"device", "port", "mode"}};
const MetricSpec kBoundCounters{"roce_rdma_bound_counters", T::kGauge,
    "How many QP counters are bound on the port (rdma statistic qp show), all of them; the "
    "per-counter series cover the 32 with the lowest counter id.",
    {"device", "port"}};
const MetricSpec kBoundCounterInfo{"roce_rdma_bound_counter_info", T::kGauge,
    "A bound QP counter: how it was bound (mode auto or manual), the QP type it binds in auto "
    "mode by type, the process it binds in auto mode by PID, and the kernel's name of a kernel "
    "user (empty otherwise); always 1.",
    {"device", "port", "counter_id", "mode", "qp_type", "pid", "comm"}};
const MetricSpec kBoundCounterQps{"roce_rdma_bound_counter_qps", T::kGauge,
    "How many QPs are bound to the counter now.", {"device", "port", "counter_id"}};
const MetricSpec kBoundCounterStat{"roce_rdma_bound_counter_stat_total", T::kCounter,
    "A hw counter of a bound QP counter (the QPs bound to it only), named as the driver names "
    "it; the same names roce_hw_stat_total keeps by default.",
    {"device", "port", "counter_id", "counter"},
    S::kTrimmed, "--collector.rdma.all-hw-counters (the same names roce_hw_stat_total trims)"};
const MetricSpec kProcessQps{"roce_rdma_process_qps", T::kGauge,
    "How many QPs a process (or a kernel user, pid empty) holds on the device, with its comm and "
    "cgroup path from procfs; the 64 with the most QPs a device. From the RDMA netlink RES_QP_GET "
    "dump.",
    {"device", "pid", "comm", "cgroup"},
    S::kOptIn, "--collector.rdma.per-process"};
const MetricSpec kProcesses{"roce_rdma_processes", T::kGauge,
    "How many processes and kernel users hold QPs on the device, all of them (roce_rdma_process_qps "
    "covers 64).",
    {"device"},
    S::kOptIn, "--collector.rdma.per-process"};
const MetricSpec kJobs{"roce_rdma_jobs", T::kGauge,
    "How many jobs (pods, Slurm jobs, systemd units, kernel users, and other for processes in "
    "none) hold QPs on the device, all of them (roce_rdma_job_qps covers 16 and one folded entry).",
    {"device"},
    S::kOptIn, "--collector.rdma.per-job"};
const MetricSpec kJobsFolded{"roce_rdma_jobs_folded", T::kGauge,
    "How many jobs with QPs on the device are past the 16 served and summed into the entry of "
    "kind folded.",
    {"device"},
    S::kOptIn, "--collector.rdma.per-job"};
const MetricSpec kJobQps{"roce_rdma_job_qps", T::kGauge,
    "How many QPs a job holds on the device: kind pod (workload is the pod UID, qos its QoS class), "
    "slurm (the Slurm job id), unit (the systemd unit), kernel (a kernel user), other (processes "
    "in none of them, workload empty) or folded (the jobs past the 16 with the most QPs, summed).",
    {"device", "kind", "workload", "qos"},
    S::kOptIn, "--collector.rdma.per-job"};
const MetricSpec kJobProcesses{"roce_rdma_job_processes", T::kGauge,
    "How many processes (or kernel users) of the job hold QPs on the device.",
    {"device", "kind", "workload"},
    S::kOptIn, "--collector.rdma.per-job"};
const MetricSpec kJobStat{"roce_rdma_job_stat_total", T::kCounter,
    "A hw counter summed over the QP counters the kernel bound to the job's processes on the "
    "device's ports (auto mode per PID), named as the driver names it; falls when one of the "
    "processes exits (rate() reads that as a reset).",
    {"device", "kind", "workload", "counter"},
    S::kOptIn, "--collector.rdma.per-job (where the kernel binds QP counters per process)"};
const MetricSpec kJobPodInfo{"roce_rdma_job_pod_info", T::kGauge,
    "The namespace and name of a pod among the device's jobs (workload is its UID, as in "
    "roce_rdma_job_qps), from the config.json containerd or CRI-O wrote for one of its "
    "containers; always 1. pod_namespace and pod_name, not namespace and pod: those are the "
    "scrape target's own labels under Kubernetes service discovery.",
    {"device", "workload", "pod_namespace", "pod_name"},
    S::kOptIn, "--collector.rdma.per-job with --collector.rdma.pod-names-root"};
const MetricSpec kJobCountersBound{"roce_rdma_job_counters_bound", T::kGauge,
    "1 when the kernel has bound QP counters to processes on the device (the jobs carry "
    "roce_rdma_job_stat_total), 0 when it has not (QP-counter mode none, a driver that cannot "
    "bind such as rxe, or auto mode by QP type): the per-job view is QPs only.",
    {"device"},
    S::kOptIn, "--collector.rdma.per-job"};
const MetricSpec kGidInfo{"roce_gid_info", T::kGauge,
    "A non-empty GID table entry with its type, netdev and the IP it carries; always 1. A RoCE v1 "
    "entry that repeats a RoCE v2 entry's GID only with --collector.rdma.all-gids.",
    {"device", "port", "index", "gid", "type", "netdev", "ip"},
    S::kTrimmed, "--collector.rdma.all-gids (RoCE v1 twins of RoCE v2 entries)"};

// The kernel adds a RoCE v1 and a RoCE v2 entry for every address of a port that runs
// both; the v1 twin is left out by default (roce_cm_default_roce_mode_info says which mode
// rdma_cm uses; roce-lint reads the v2 entries).
bool RepeatsV2Gid(const PortSnapshot& p, const GidEntry& g) {
  if (g.type != "IB/RoCE v1") return false;
  return std::any_of(p.gids.begin(), p.gids.end(), [&](const GidEntry& o) {
    return o.type == "RoCE v2" && o.gid == g.gid && o.netdev == g.netdev;
  });
}

}  // namespace

const SpecList& RdmaSpecs() {
  static const SpecList kSpecs = {&kDeviceInfo, &kPortInfo,   &kPortState, &kPortPhysState,
                                  &kPortRate,   &kPortLid,    &kPortSmLid, &kRxBytes,
                                  &kTxBytes,    &kRxPackets,  &kTxPackets, &kPortCounter,
                                  &kHwCounter,  &kDeviceHwCounter, &kLifespan, &kOptionalCounter,
                                  &kGidInfo, &kResources, &kQpCounterMode, &kBoundCounters,
                                  &kBoundCounterInfo, &kBoundCounterQps, &kBoundCounterStat,
                                  &kProcessQps, &kProcesses, &kJobs, &kJobsFolded, &kJobQps,
                                  &kJobProcesses, &kJobStat, &kJobCountersBound, &kJobPodInfo,
                                  &TransportEventsSpec()};
  return kSpecs;
}

void RenderRdma(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& d : snap.devices) {
    out.Add(kDeviceInfo, {d.name, d.fw_version, d.board_id, d.hca_type, d.node_guid, d.node_type,
                          d.driver, d.pci_address, d.pci_function, d.pf_pci_address}, 1);
    for (std::size_t i = 0; i < d.hw_counters.size(); ++i)
      if (d.hw_counters.has(i)) out.Add(kDeviceHwCounter, {d.name, d.hw_counters.name(i)}, d.hw_counters.values[i]);
    for (const auto& r : d.resources) out.Add(kResources, {d.name, r.type}, r.current);
    if (d.processes_total) out.Add(kProcesses, {d.name}, static_cast<double>(*d.processes_total));
    for (const auto& p : d.processes)
      out.Add(kProcessQps,
              {d.name, p.pid, BoundedLabelValue(p.comm, kMaxCommBytes),
               BoundedLabelValue(p.cgroup, kMaxCgroupLabelBytes)},
              static_cast<double>(p.qps));
    if (d.jobs_total) {
      out.Add(kJobs, {d.name}, static_cast<double>(*d.jobs_total));
      out.Add(kJobsFolded, {d.name}, static_cast<double>(d.jobs_folded));
      out.Add(kJobCountersBound, {d.name}, d.job_counters_bound ? 1 : 0);
    }
    for (const auto& j : d.jobs) {
      const std::string job = BoundedLabelValue(j.job, procfs::kMaxUnitName);
      out.Add(kJobQps, {d.name, j.kind, job, j.qos}, static_cast<double>(j.qps));
      out.Add(kJobProcesses, {d.name, j.kind, job}, static_cast<double>(j.processes));
      if (!j.pod_name.empty()) out.Add(kJobPodInfo, {d.name, job, j.pod_namespace, j.pod_name}, 1);
      for (const auto& [counter, value] : j.counters) out.Add(kJobStat, {d.name, j.kind, job, counter}, value);
    }
    for (const auto& p : d.ports) {
      const std::string port = std::to_string(p.number);
      out.Add(kPortInfo, {d.name, port, p.netdev, p.link_layer}, 1);
      if (p.state) out.Add(kPortState, {d.name, port}, *p.state);
      if (p.phys_state) out.Add(kPortPhysState, {d.name, port}, *p.phys_state);
      if (p.rate_bytes_per_second) out.Add(kPortRate, {d.name, port}, *p.rate_bytes_per_second);
      if (p.lid) out.Add(kPortLid, {d.name, port}, *p.lid);
      if (p.sm_lid) out.Add(kPortSmLid, {d.name, port}, *p.sm_lid);
      if (p.received_bytes) out.Add(kRxBytes, {d.name, port}, *p.received_bytes);
      if (p.transmitted_bytes) out.Add(kTxBytes, {d.name, port}, *p.transmitted_bytes);
      if (p.received_packets) out.Add(kRxPackets, {d.name, port}, *p.received_packets);
      if (p.transmitted_packets) out.Add(kTxPackets, {d.name, port}, *p.transmitted_packets);
      for (std::size_t i = 0; i < p.counters.size(); ++i)
        if (p.counters.has(i)) out.Add(kPortCounter, {d.name, port, p.counters.name(i)}, p.counters.values[i]);
      // A counter served as roce_transport_events_total is not served raw by default.
      const std::vector<bool> as_event =
          d.detail.all_hw_counters ? std::vector<bool>(p.hw_counters.size(), false) : TransportEventCounters(d, p);
      for (std::size_t i = 0; i < p.hw_counters.size(); ++i)
        if (p.hw_counters.has(i) && !as_event[i])
          out.Add(kHwCounter, {d.name, port, p.hw_counters.name(i)}, p.hw_counters.values[i]);
      if (p.hw_counters_lifespan_seconds)
        out.Add(kLifespan, {d.name, port}, *p.hw_counters_lifespan_seconds);
      for (const auto& o : p.optional_counters)
        out.Add(kOptionalCounter, {d.name, port, o.name}, o.enabled ? 1 : 0);
      if (!p.qp_counter_mode.empty()) out.Add(kQpCounterMode, {d.name, port, p.qp_counter_mode}, 1);
      if (p.bound_counters_total)
        out.Add(kBoundCounters, {d.name, port}, static_cast<double>(*p.bound_counters_total));
      for (const auto& b : p.bound_counters) {
        const std::string id = std::to_string(b.id);
        out.Add(kBoundCounterInfo,
                {d.name, port, id, b.mode, b.qp_type, b.pid ? std::to_string(*b.pid) : "", b.comm},
                1);
        out.Add(kBoundCounterQps, {d.name, port, id}, static_cast<double>(b.qps));
        for (std::size_t i = 0; i < b.counters.size(); ++i)
          if (b.counters.has(i))
            out.Add(kBoundCounterStat, {d.name, port, id, b.counters.name(i)}, b.counters.values[i]);
      }
      for (const auto& g : p.gids) {
        if (!d.detail.all_gids && RepeatsV2Gid(p, g)) continue;
        out.Add(kGidInfo, {d.name, port, std::to_string(g.index), g.gid, g.type, g.netdev, g.ip}, 1);
      }
    }
    RenderTransportEvents(d, out);
  }
}

}  // namespace rocewatch::collectors
