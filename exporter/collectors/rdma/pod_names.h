#pragma once

// --collector.rdma.pod-names-root: the namespace and name of the pods whose processes hold QPs,
// read from the config.json that containerd or CRI-O wrote into the bundle of one of the pod's
// containers (oci/bundle_pod.h), beneath the host's root directory as the exporter sees it ("/"
// on the host; "/host" in a container that mounts the host's root there read-only). Local
// files only: no kubelet, no CRI socket, no credentials.
//
// Cheap and bounded: a pod is read once, the first scrape that serves it (at most
// kMaxBundleReads bundles a scrape; a pod past them is read the next one), and kept while it
// holds QPs; a pod no scrape served is forgotten at the end of the scrape. A pod whose bundle
// cannot be read or names no pod is logged once and tried again only with another container.

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "exporter/fs/tree.h"
#include "exporter/oci/bundle_pod.h"
#include "exporter/procfs/cgroup_workload.h"

namespace rocewatch::collectors {

inline constexpr std::size_t kMaxBundleReads = 64;

class PodNames {
 public:
  explicit PodNames(std::string host_root);

  // Before a scrape's lookups.
  void BeginScrape();
  // The pod of `w` (kind pod) by name; nullptr while it is not known. Reads the bundle of
  // w.container_id the first time a scrape asks for that pod.
  const oci::PodName* Find(const procfs::Workload& w);
  // After them: forgets the pods this scrape did not ask for.
  void EndScrape();

  std::size_t bundle_reads() const { return bundle_reads_; }  // all scrapes, for tests

 private:
  struct Entry {
    std::optional<oci::PodName> name;
    std::string tried_container;  // the container whose bundle named no pod
    bool asked = false;           // this scrape
  };
  fs::Tree root_;
  std::map<std::string, Entry> pods_;  // by pod UID
  std::size_t reads_this_scrape_ = 0;
  std::size_t bundle_reads_ = 0;
};

}  // namespace rocewatch::collectors
