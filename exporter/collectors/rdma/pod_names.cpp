#include "exporter/collectors/rdma/pod_names.h"

#include <utility>

#include "exporter/log.h"

namespace rocewatch::collectors {

PodNames::PodNames(std::string host_root) : root_("pod-names-root", std::move(host_root)) {}

PodNames::~PodNames() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void PodNames::BeginScrape() {
  std::lock_guard lock(mu_);
  asked_this_scrape_ = 0;
  for (auto& [uid, e] : pods_) e.asked = false;
}

std::optional<oci::PodName> PodNames::Find(const procfs::Workload& w) {
  if (w.kind != procfs::WorkloadKind::kPod || w.pod_uid.empty()) return std::nullopt;
  std::lock_guard lock(mu_);
  auto it = pods_.find(w.pod_uid);
  if (it != pods_.end()) {
    Entry& e = it->second;
    e.asked = true;
    if (e.name || e.pending || w.container_id.empty() || w.container_id == e.tried_container) return e.name;
  }
  // A process in the pod's own cgroup names no container: nothing to read yet.
  if (w.container_id.empty() || asked_this_scrape_ >= kMaxBundleReads) return std::nullopt;
  ++asked_this_scrape_;
  Entry& e = pods_[w.pod_uid];
  e.asked = true;
  e.pending = true;
  queue_.push_back({w.pod_uid, w.runtime, w.container_id});
  if (!worker_.joinable()) worker_ = std::thread([this] { Work(); });
  wake_.notify_one();
  return std::nullopt;
}

void PodNames::EndScrape() {
  std::lock_guard lock(mu_);
  std::erase_if(pods_, [](const auto& p) { return !p.second.asked; });
}

void PodNames::WaitIdle() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

std::size_t PodNames::bundle_reads() {
  std::lock_guard lock(mu_);
  return bundle_reads_;
}

void PodNames::Work() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    Request r = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    Read(r);
    lock.lock();
    busy_ = false;
    if (queue_.empty()) idle_.notify_all();
  }
}

// On the worker's thread, without the lock but for the result.
void PodNames::Read(const Request& r) {
  std::optional<oci::PodName> name;
  std::string why = "no config.json of the container (" +
                    (r.runtime.empty() ? std::string("containerd or CRI-O") : r.runtime) + ")";
  std::string where;
  std::size_t reads = 0;
  for (const std::string& rel : oci::BundleConfigPaths(r.runtime, r.container_id)) {
    auto text = root_.ReadText(rel);
    if (!text) continue;
    ++reads;
    where = root_.Abs(rel);
    auto pod = oci::DecodeBundlePod(*text, r.pod_uid);
    if (pod) {
      name = std::move(*pod);
    } else {
      why = pod.error().message;
    }
    break;
  }
  if (!name)
    log::Info("pod not named: its UID alone names its job",
              {{"pod_uid", r.pod_uid}, {"container", r.container_id}, {"file", where}, {"reason", why}});
  std::lock_guard lock(mu_);
  bundle_reads_ += reads;
  auto it = pods_.find(r.pod_uid);
  if (it == pods_.end()) return;  // forgotten meanwhile
  it->second.pending = false;
  if (name) {
    it->second.name = std::move(name);
    it->second.tried_container.clear();
  } else {
    it->second.tried_container = r.container_id;
  }
}

}  // namespace rocewatch::collectors
