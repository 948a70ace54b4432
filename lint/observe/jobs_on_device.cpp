#include "lint/observe/jobs_on_device.h"

#include <algorithm>
#include <tuple>

#include "lint/metric_contract.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {

std::optional<std::vector<JobOnDevice>> JobsOnDevice(const NodeView& view, std::string_view device) {
  if (!view.Value(metric::roce_rdma_jobs, {{label::device, device}})) return std::nullopt;
  std::vector<JobOnDevice> out;
  for (const auto& s : view.Select(metric::roce_rdma_job_qps, {{label::device, device}})) {
    const std::string_view kind = s.Label(label::kind);
    if (kind == "kernel" || !(s.value() > 0)) continue;
    JobOnDevice j{std::string(kind), std::string(s.Label(label::workload)), s.value(), ""};
    if (kind == "pod" && !j.job.empty())
      for (const auto& p : view.Select(metric::roce_rdma_job_pod_info, {{label::device, device}, {label::workload, j.job}}))
        j.pod = std::string(p.Label(label::pod_namespace)) + "/" + std::string(p.Label(label::pod_name));
    out.push_back(std::move(j));
  }
  std::sort(out.begin(), out.end(), [](const JobOnDevice& a, const JobOnDevice& b) {
    if (a.qps != b.qps) return a.qps > b.qps;
    return std::tie(a.kind, a.job) < std::tie(b.kind, b.job);
  });
  return out;
}

std::string JobList(const std::vector<JobOnDevice>& jobs, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < jobs.size() && i < max; ++i) {
    const auto& j = jobs[i];
    if (!out.empty()) out += ", ";
    out += j.kind;
    if (!j.pod.empty()) {
      out += " " + Quote(j.pod, 320);
    } else if (!j.job.empty()) {
      out += " " + Quote(j.job, 80);
    }
    out += " (" + FormatDouble(j.qps) + " QPs)";
  }
  if (jobs.size() > max) out += ", +" + std::to_string(jobs.size() - max) + " more";
  return out;
}

}  // namespace rocewatch::lint::observe
