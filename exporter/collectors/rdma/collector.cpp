#include "exporter/collectors/rdma/collector.h"

#include "exporter/collectors/rdma/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo Rdma::Info() {
  return {"rdma",
          "RDMA devices, ports, counters, hw_counters (RDMA netlink or sysfs) and GID table",
          true,
          {{"gid-interval", "30s", "how often to re-read the GID table"},
           {"all-hw-counters", "false",
            "every hw_counters/ file as roce_hw_stat_total (default: the counters served by "
            "meaning as roce_transport_events_total left out; mlx5's operation counts, flush "
            "errors, application-error breakdown and congestion-control internals left out, and "
            "not read)",
            "true"},
           {"all-port-counters", "false",
            "every counters/ file of Ethernet ports as roce_port_stat_total (default: the "
            "unicast/multicast split and InfiniBand-fabric counters left out, and not read)",
            "true"},
           {"netlink", "true",
            "read a port's hw counters in one RDMA netlink STAT_GET (optional counters the "
            "driver has enabled included) where the kernel answers it; else, and with false, "
            "one hw_counters/ file each. False asks RDMA netlink nothing: what only it answers "
            "is not served (roce_rdma_resources, the QP-counter mode and bound counters, the "
            "optional counters' state, --collector.rdma.per-process)"},
           {"per-process", "false",
            "the QPs of each device per process (RDMA netlink RES_QP_GET dump) with the "
            "process's comm and cgroup from --path.procfs, at most 64 processes a device "
            "(needs --collector.rdma.netlink)",
            "true"},
           {"per-job", "false",
            "the QPs of each device per job: the Kubernetes pod, Slurm job or systemd unit the "
            "owning processes' cgroups name (from --path.procfs), with the QP counters the kernel "
            "bound to those processes (auto mode per PID) summed per job; the 16 jobs with the "
            "most QPs a device, the rest summed as kind \"folded\" (needs --collector.rdma.netlink)",
            "true"},
           {"pod-names-root", "",
            "the host's root directory as the exporter sees it (\"/\", or where a container "
            "mounts it, e.g. /host): name each pod of --collector.rdma.per-job by its namespace "
            "and name (roce_rdma_job_pod_info) from the config.json containerd or CRI-O wrote "
            "for one of its containers; empty: pods by UID only"},
           {"all-gids", "false",
            "RoCE v1 GID entries that repeat a RoCE v2 entry's GID (default: left out)"}},
          &MakeRdmaSource,
          &RenderRdma,
          &RdmaSpecs};
}

}  // namespace rocewatch::collectors
