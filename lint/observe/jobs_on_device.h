#pragma once

// The jobs that hold QPs on an RDMA device, as the node's exporter serves them with
// --collector.rdma.per-job (roce_rdma_job_qps: a pod, a Slurm job, a systemd unit, processes
// in none, kernel users, the folded rest; docs/metrics.md "The per-job view"). Read by the
// counters checks that name the jobs on a congested port and by `roce-lint verify`, which
// refuses a port a job is using.

#include <optional>
#include <string>
#include <vector>

#include "lint/observe/node_view.h"

namespace rocewatch::lint::observe {

struct JobOnDevice {
  std::string kind;  // "pod", "slurm", "unit", "other", "folded" (kernel users are left out)
  std::string job;   // pod UID, Slurm job id, unit; empty for other and folded
  double qps = 0;
  // A pod's "namespace/name" where the exporter names it (roce_rdma_job_pod_info,
  // --collector.rdma.pod-names-root); empty otherwise.
  std::string pod;
};

// The device's jobs with QPs, the most QPs first (ties by kind and job); kernel users (the
// GSI QP every port has, rdma_cm, IPoIB) are no job. nullopt when the exporter serves no
// per-job view for the device (roce_rdma_jobs absent): nothing is known then.
std::optional<std::vector<JobOnDevice>> JobsOnDevice(const NodeView& view, std::string_view device);

// "pod \"ml/llama-0\" (12 QPs), slurm \"4711\" (4 QPs)" (a pod by its name where the exporter
// serves one, else its UID): at most `max` jobs, then "+N more".
std::string JobList(const std::vector<JobOnDevice>& jobs, std::size_t max = 5);

}  // namespace rocewatch::lint::observe
