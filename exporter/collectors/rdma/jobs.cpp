#include "exporter/collectors/rdma/jobs.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace rocewatch::collectors {
namespace {

struct Sums {
  std::string qos;
  // A pod's workload whose bundle names the pod: one with a container where a process has one.
  const procfs::Workload* workload = nullptr;
  std::size_t processes = 0, qps = 0;
  std::map<std::string, double> counters;

  void Add(const Sums& o) {
    processes += o.processes;
    qps += o.qps;
    for (const auto& [name, v] : o.counters) counters[name] += v;
  }
};

RdmaJob Served(std::string kind, std::string job, Sums&& s) {
  RdmaJob j;
  j.kind = std::move(kind);
  j.job = std::move(job);
  j.qos = std::move(s.qos);
  j.processes = s.processes;
  j.qps = s.qps;
  j.counters.assign(s.counters.begin(), s.counters.end());
  return j;
}

}  // namespace

void GroupJobs(const std::vector<QpOwner>& owners, const fs::Tree& proc, ProcessIdentities& known,
               const BoundByPid& bound, PodNames* pod_names, DeviceSnapshot& out) {
  // (kind, job) -> its sums; a process in no workload is "other", a kernel user "kernel".
  std::map<std::pair<std::string, std::string>, Sums> jobs;
  for (const auto& o : owners) {
    Sums* s = nullptr;
    if (!o.pid) {
      s = &jobs[{"kernel", o.kernel}];
    } else {
      const procfs::Workload& w = IdentityOf(proc, *o.pid, known).workload;
      if (w.kind == procfs::WorkloadKind::kNone) {
        s = &jobs[{"other", ""}];
      } else {
        s = &jobs[{std::string(procfs::WorkloadKindName(w.kind)), w.Job()}];
        s->qos = w.qos;
        if (s->workload == nullptr || s->workload->container_id.empty()) s->workload = &w;
      }
      if (auto it = bound.find(*o.pid); it != bound.end())
        for (const auto& [name, v] : it->second) s->counters[name] += v;
    }
    ++s->processes;
    s->qps += o.qps;
  }
  out.jobs_total = jobs.size();
  std::vector<std::pair<std::pair<std::string, std::string>, Sums>> order(
      std::make_move_iterator(jobs.begin()), std::make_move_iterator(jobs.end()));
  // The most QPs first; ties by kind and job (the map's order), so the page is stable.
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second.qps > b.second.qps; });
  Sums folded;
  out.jobs_folded = order.size() > kMaxJobsServed ? order.size() - kMaxJobsServed : 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    auto& [key, sums] = order[i];
    if (i < kMaxJobsServed) {
      std::optional<oci::PodName> pod;
      if (pod_names != nullptr && sums.workload != nullptr) pod = pod_names->Find(*sums.workload);
      out.jobs.push_back(Served(key.first, key.second, std::move(sums)));
      if (pod) {
        out.jobs.back().pod_namespace = pod->namespace_name;
        out.jobs.back().pod_name = pod->pod;
      }
    } else {
      folded.Add(sums);
    }
  }
  if (out.jobs_folded > 0) out.jobs.push_back(Served("folded", "", std::move(folded)));
}

}  // namespace rocewatch::collectors
