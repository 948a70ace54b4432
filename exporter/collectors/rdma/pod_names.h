#pragma once

// --collector.rdma.pod-names-root: the namespace and name of the pods whose processes hold QPs,
// read from the config.json that containerd or CRI-O wrote into the bundle of one of the pod's
// containers (oci/bundle_pod.h), beneath the host's root directory as the exporter sees it ("/"
// on the host; "/host" in a container that mounts the host's root there read-only). Local
// files only: no kubelet, no CRI socket, no credentials.
//
// Off the scrape path, cached and bounded: a scrape that meets a pod it has no name for asks a
// worker thread of its own to read the pod's bundle (at most kMaxBundleReads pods a scrape; a
// pod past them is asked for the next one) and goes on without the name, which a later scrape
// serves once the worker has read it. A pod is read once and kept while scrapes ask for it; a
// pod no scrape asked for is forgotten at the end of the scrape. A bundle that cannot be read
// or names no pod is logged once and tried again only for another container of the pod.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "exporter/fs/tree.h"
#include "exporter/oci/bundle_pod.h"
#include "exporter/procfs/cgroup_workload.h"

namespace rocewatch::collectors {

inline constexpr std::size_t kMaxBundleReads = 64;

class PodNames {
 public:
  explicit PodNames(std::string host_root);
  ~PodNames();
  PodNames(const PodNames&) = delete;
  PodNames& operator=(const PodNames&) = delete;

  // Before a scrape's lookups.
  void BeginScrape();
  // The pod of `w` (kind pod) by name, where the worker has read it; else nullopt, and the
  // worker is asked to read the bundle of w.container_id.
  std::optional<oci::PodName> Find(const procfs::Workload& w);
  // After them: forgets the pods this scrape did not ask for.
  void EndScrape();

  // Tests: waits until the worker has read every bundle asked for; how many it has read.
  void WaitIdle();
  std::size_t bundle_reads();

 private:
  struct Entry {
    std::optional<oci::PodName> name;
    std::string tried_container;  // the container whose bundle named no pod
    bool asked = false;           // this scrape
    bool pending = false;         // asked of the worker
  };
  struct Request {
    std::string pod_uid, runtime, container_id;
  };
  void Work();
  void Read(const Request& r);

  fs::Tree root_;
  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::map<std::string, Entry> pods_;  // by pod UID
  std::deque<Request> queue_;
  bool busy_ = false, stop_ = false;
  std::size_t asked_this_scrape_ = 0;
  std::size_t bundle_reads_ = 0;
  std::thread worker_;  // started by the first request
};

}  // namespace rocewatch::collectors
