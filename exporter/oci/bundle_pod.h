#pragma once

// The Kubernetes pod an OCI runtime bundle's config.json names: containerd's CRI plugin and
// CRI-O write the pod's namespace, name and UID into the annotations of every container they
// create (containerd 1.5+: io.kubernetes.cri.sandbox-namespace, -name, and 1.6.11+ -uid; CRI-O:
// io.kubernetes.pod.namespace, .name, .uid). A pure decoder: text in, names out, no I/O
// (collectors/rdma/pod_names.h reads the file, docs/metrics.md "The per-job view").
//
// The text comes from outside the exporter (any process that can write the runtime's state
// directory): a name is kept only when the file is one JSON object without a repeated key,
// its UID annotation (where the runtime writes one: containerd before 1.6.11 does not) is the
// UID the process's cgroup names, and each name is what the API server accepts (namespace: an RFC 1123 label of at most 63 bytes; pod: an RFC 1123
// subdomain of at most 253 bytes). Anything else is an error naming what was wrong.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::oci {

struct PodName {
  std::string namespace_name, pod;
  bool operator==(const PodName&) const = default;
};

// The largest config.json read: a runtime writes a few to some tens of KiB (the mounts, the
// environment, the seccomp profile).
inline constexpr std::size_t kMaxBundleConfigBytes = 1 << 20;

// The pod named by `config_json` (a bundle's config.json) for the pod of `pod_uid` (its UID
// as the API server writes it, with dashes).
Result<PodName> DecodeBundlePod(std::string_view config_json, std::string_view pod_uid);

// Where a runtime keeps the config.json of container `container_id` (64 hex digits, from the
// cgroup path), relative to the host's root: for "containerd" its runtime v2 task bundle in
// the CRI plugin's namespace k8s.io; for "crio" the container's run and storage directories;
// for "" (a cgroupfs-driver path names no runtime) all of them. Empty for another runtime or
// an id that is not 64 hex digits.
std::vector<std::string> BundleConfigPaths(std::string_view runtime, std::string_view container_id);

}  // namespace rocewatch::oci
