#include "exporter/collectors/rdma/pod_names.h"

#include <utility>
#include <vector>

#include "exporter/log.h"

namespace rocewatch::collectors {

PodNames::PodNames(std::string host_root) : root_("pod-names-root", std::move(host_root)) {}

void PodNames::BeginScrape() {
  reads_this_scrape_ = 0;
  for (auto& [uid, e] : pods_) e.asked = false;
}

const oci::PodName* PodNames::Find(const procfs::Workload& w) {
  if (w.kind != procfs::WorkloadKind::kPod || w.pod_uid.empty()) return nullptr;
  auto it = pods_.find(w.pod_uid);
  if (it != pods_.end()) {
    it->second.asked = true;
    if (it->second.name || w.container_id.empty() || w.container_id == it->second.tried_container)
      return it->second.name ? &*it->second.name : nullptr;
  }
  // A process in the pod's own cgroup names no container: nothing to read yet.
  if (w.container_id.empty() || reads_this_scrape_ >= kMaxBundleReads) return nullptr;
  ++reads_this_scrape_;
  Entry& e = pods_[w.pod_uid];
  e.asked = true;
  std::string why = "no config.json of the container (" +
                    (w.runtime.empty() ? std::string("containerd or CRI-O") : w.runtime) + ")";
  std::string where;
  for (const std::string& rel : oci::BundleConfigPaths(w.runtime, w.container_id)) {
    auto text = root_.ReadText(rel);
    if (!text) continue;
    ++bundle_reads_;
    where = root_.Abs(rel);
    auto pod = oci::DecodeBundlePod(*text, w.pod_uid);
    if (pod) {
      e.name = std::move(*pod);
      e.tried_container.clear();
      return &*e.name;
    }
    why = pod.error().message;
    break;
  }
  e.tried_container = w.container_id;
  log::Info("pod not named: its UID alone names its job",
            {{"pod_uid", w.pod_uid}, {"container", w.container_id}, {"file", where}, {"reason", why}});
  return nullptr;
}

void PodNames::EndScrape() {
  std::erase_if(pods_, [](const auto& p) { return !p.second.asked; });
}

}  // namespace rocewatch::collectors
