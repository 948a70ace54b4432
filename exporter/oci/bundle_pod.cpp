#include "exporter/oci/bundle_pod.h"

#include <array>

#include <nlohmann/json.hpp>

#include "rocewatch/strings.h"
#include "rocewatch/json_depth.h"
#include "rocewatch/json_duplicate_key.h"

namespace rocewatch::oci {
namespace {

using Json = nlohmann::json;

// The annotation keys of one runtime (containerd: pkg/cri/annotations/annotations.go; CRI-O:
// vendored k8s.io/kubelet types as pkg/annotations).
struct Keys {
  std::string_view namespace_name, pod, uid;
};
constexpr std::array<Keys, 2> kRuntimeKeys = {{
    {"io.kubernetes.cri.sandbox-namespace", "io.kubernetes.cri.sandbox-name", "io.kubernetes.cri.sandbox-uid"},
    {"io.kubernetes.pod.namespace", "io.kubernetes.pod.name", "io.kubernetes.pod.uid"},
}};

constexpr std::size_t kMaxNamespace = 63;  // RFC 1123 label (apimachinery IsDNS1123Label)
constexpr std::size_t kMaxPod = 253;       // RFC 1123 subdomain (IsDNS1123Subdomain)

bool AlphaNum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// An RFC 1123 label: lower-case alphanumerics and '-', starting and ending alphanumeric.
bool Label(std::string_view s) {
  if (s.empty() || s.size() > kMaxNamespace || !AlphaNum(s.front()) || !AlphaNum(s.back())) return false;
  for (char c : s)
    if (!AlphaNum(c) && c != '-') return false;
  return true;
}

// An RFC 1123 subdomain: labels joined by '.', at most 253 bytes.
bool Subdomain(std::string_view s) {
  if (s.empty() || s.size() > kMaxPod) return false;
  for (std::size_t from = 0;;) {
    const std::size_t dot = s.find('.', from);
    if (!Label(s.substr(from, dot == std::string_view::npos ? dot : dot - from))) return false;
    if (dot == std::string_view::npos) return true;
    from = dot + 1;
  }
}

bool Hex64(std::string_view id) {
  if (id.size() != 64) return false;
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

Result<PodName> DecodeBundlePod(std::string_view config_json, std::string_view pod_uid) {
  if (config_json.size() > kMaxBundleConfigBytes)
    return Error{"larger than " + std::to_string(kMaxBundleConfigBytes) + " bytes"};
  if (JsonNestsDeeperThan(config_json, 64)) return Error{"nests deeper than 64 levels"};
  Json doc = Json::parse(config_json.begin(), config_json.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Error{"not a JSON object"};
  if (auto dup = FindDuplicateJsonKey(config_json)) return Error{DuplicateKeyMessage(*dup)};
  auto annotations = doc.find("annotations");
  if (annotations == doc.end() || !annotations->is_object()) return Error{"no \"annotations\" object"};
  for (const Keys& keys : kRuntimeKeys) {
    auto ns = annotations->find(keys.namespace_name);
    auto pod = annotations->find(keys.pod);
    if (ns == annotations->end() && pod == annotations->end()) continue;
    auto string_of = [&](Json::const_iterator it, std::string_view key) -> Result<std::string> {
      if (it == annotations->end() || !it->is_string())
        return Error{"annotation " + Quote(key) + " is missing or not a string"};
      return it->get<std::string>();
    };
    // containerd before 1.6.11 writes no UID: the bundle is the pod's by the cgroup it was
    // found through. One that names another pod is refused.
    if (auto uid_it = annotations->find(keys.uid); uid_it != annotations->end()) {
      auto uid = string_of(uid_it, keys.uid);
      if (!uid) return uid.error();
      if (*uid != pod_uid)
        return Error{"annotation " + Quote(keys.uid) + " is " + Quote(*uid) + ", the cgroup names pod " +
                     Quote(pod_uid)};
    }
    auto ns_name = string_of(ns, keys.namespace_name);
    if (!ns_name) return ns_name.error();
    auto pod_name = string_of(pod, keys.pod);
    if (!pod_name) return pod_name.error();
    if (!Label(*ns_name))
      return Error{"annotation " + Quote(keys.namespace_name) + " is not a Kubernetes namespace: " +
                   Quote(*ns_name)};
    if (!Subdomain(*pod_name))
      return Error{"annotation " + Quote(keys.pod) + " is not a Kubernetes pod name: " + Quote(*pod_name)};
    return PodName{std::move(*ns_name), std::move(*pod_name)};
  }
  return Error{"no pod annotations (neither containerd's io.kubernetes.cri.sandbox-* nor CRI-O's "
               "io.kubernetes.pod.*)"};
}

std::vector<std::string> BundleConfigPaths(std::string_view runtime, std::string_view container_id) {
  std::vector<std::string> out;
  if (!Hex64(container_id)) return out;
  const std::string id(container_id);
  if (runtime == "containerd" || runtime.empty())
    out.push_back("run/containerd/io.containerd.runtime.v2.task/k8s.io/" + id + "/config.json");
  if (runtime == "crio" || runtime.empty()) {
    out.push_back("run/containers/storage/overlay-containers/" + id + "/userdata/config.json");
    out.push_back("var/lib/containers/storage/overlay-containers/" + id + "/userdata/config.json");
  }
  return out;
}

}  // namespace rocewatch::oci
