#pragma once

// --collector.rdma.per-job: a device's QP owners grouped by the job they work for (the pod,
// Slurm job or systemd unit their cgroup names, procfs/cgroup_workload.h), with the QP counters
// the kernel bound to each process summed per job, under a hard budget: the kMaxJobsServed jobs
// with the most QPs are served, the rest summed into one "folded" entry (docs/metrics.md
// "The per-job view").

#include <vector>

#include "exporter/collectors/rdma/nldev_resources.h"
#include "exporter/collectors/rdma/pod_names.h"
#include "exporter/collectors/rdma/section.h"
#include "exporter/fs/tree.h"

namespace rocewatch::collectors {

// Fills out.jobs_total, jobs_folded and jobs from the device's `owners` (ReadQpOwners), each
// process's workload from `proc` (--path.procfs) (or `known`, this scrape's), and `bound` (the device's
// counters bound per PID, ReadBoundCounters); with `pod_names` (--collector.rdma.pod-names-root),
// each served pod's namespace and name.
void GroupJobs(const std::vector<QpOwner>& owners, const fs::Tree& proc, ProcessIdentities& known,
               const BoundByPid& bound, PodNames* pod_names, DeviceSnapshot& out);

}  // namespace rocewatch::collectors
