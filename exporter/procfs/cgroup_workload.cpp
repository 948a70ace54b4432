#include "exporter/procfs/cgroup_workload.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace rocewatch::procfs {
namespace {

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlnum(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool All(std::string_view s, bool (*pred)(char)) {
  for (char c : s)
    if (!pred(c)) return false;
  return true;
}

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    const std::size_t slash = path.find('/');
    std::string_view seg = path.substr(0, slash);
    if (!seg.empty()) out.push_back(seg);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

// A pod UID as the kubelet writes it into a cgroup name: a UUID (8-4-4-4-12 hex digits, dashes
// or, under the systemd driver, underscores) or a static pod's 32 hex digits (its config
// hash). Returns it with dashes, or empty.
std::string PodUid(std::string_view s) {
  std::string uid(s);
  for (char& c : uid)
    if (c == '_') c = '-';
  if (uid.size() == 32 && All(uid, IsHex)) return uid;
  if (uid.size() != 36) return {};
  for (std::size_t i = 0; i < uid.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? uid[i] != '-' : !IsHex(uid[i])) return {};
  }
  return uid;
}

// A container id: 1 to 64 lowercase hex digits.
bool IsContainerId(std::string_view s) {
  return !s.empty() && s.size() <= kMaxContainerId && All(s, IsHex);
}

// A container's cgroup under the systemd driver, "<runtime>-<id>.scope" (CRI-O's monitor,
// crio-conmon-<id>.scope, is no container), or containerd's "<slice>:cri-containerd:<id>"
// tail. Fills runtime and id; false where `s` is neither.
bool ContainerScope(std::string_view s, Workload& w) {
  static constexpr std::pair<std::string_view, std::string_view> kRuntimes[] = {
      {"cri-containerd-", "containerd"}, {"crio-", "crio"}, {"docker-", "docker"}};
  constexpr std::string_view kScope = ".scope";
  if (s.size() <= kScope.size() || s.substr(s.size() - kScope.size()) != kScope) return false;
  s.remove_suffix(kScope.size());
  for (auto [prefix, runtime] : kRuntimes) {
    if (s.substr(0, prefix.size()) != prefix) continue;
    std::string_view id = s.substr(prefix.size());
    if (!IsContainerId(id)) return false;
    w.runtime = std::string(runtime);
    w.container_id = std::string(id);
    return true;
  }
  return false;
}

// "kubepods[-<qos>]-pod<uid>.slice" (with any prefix: kind's "kubelet-kubepods-…"), and
// containerd's "…slice:cri-containerd:<id>" form that names the container in the same word.
bool SystemdPodSlice(std::string_view seg, Workload& w) {
  std::string_view container;
  const std::size_t colon = seg.find(".slice:");
  if (colon != std::string_view::npos) {
    container = seg.substr(colon + 7);
    seg = seg.substr(0, colon + 6);
  }
  constexpr std::string_view kSlice = ".slice";
  if (seg.size() <= kSlice.size() || seg.substr(seg.size() - kSlice.size()) != kSlice) return false;
  seg.remove_suffix(kSlice.size());
  const std::size_t pod = seg.rfind("-pod");
  if (pod == std::string_view::npos) return false;
  std::string_view prefix = seg.substr(0, pod);
  std::string uid = PodUid(seg.substr(pod + 4));
  if (uid.empty()) return false;
  auto ends = [&](std::string_view tail) {
    return prefix.size() >= tail.size() && prefix.substr(prefix.size() - tail.size()) == tail;
  };
  if (ends("kubepods-burstable")) {
    w.qos = "burstable";
  } else if (ends("kubepods-besteffort")) {
    w.qos = "besteffort";
  } else if (ends("kubepods")) {
    w.qos = "guaranteed";
  } else {
    return false;
  }
  w.kind = WorkloadKind::kPod;
  w.pod_uid = std::move(uid);
  if (!container.empty()) {
    // "cri-containerd:<id>" (containerd's systemd-style cgroup name, seen in a v1 path)
    const std::size_t c = container.find(':');
    if (c != std::string_view::npos && IsContainerId(container.substr(c + 1))) {
      std::string_view runtime = container.substr(0, c);
      w.runtime = runtime == "cri-containerd" ? "containerd" : runtime == "crio" ? "crio" : "";
      w.container_id = std::string(container.substr(c + 1));
    }
  }
  return true;
}

// The pod a path runs in; false where it names none.
bool Pod(const std::vector<std::string_view>& segs, Workload& w) {
  for (std::size_t i = 0; i < segs.size(); ++i) {
    if (SystemdPodSlice(segs[i], w)) {
      if (w.container_id.empty() && i + 1 < segs.size()) ContainerScope(segs[i + 1], w);
      return true;
    }
    // cgroupfs driver: kubepods/[burstable|besteffort/]pod<uid>[/<id>]
    if (segs[i] != "kubepods") continue;
    std::size_t at = i + 1;
    std::string qos = "guaranteed";
    if (at < segs.size() && (segs[at] == "burstable" || segs[at] == "besteffort")) qos = std::string(segs[at++]);
    if (at >= segs.size() || segs[at].substr(0, 3) != "pod") continue;
    std::string uid = PodUid(segs[at].substr(3));
    if (uid.empty()) continue;
    w.kind = WorkloadKind::kPod;
    w.pod_uid = std::move(uid);
    w.qos = std::move(qos);
    if (++at < segs.size() && !ContainerScope(segs[at], w) && IsContainerId(segs[at]))
      w.container_id = std::string(segs[at]);
    return true;
  }
  return false;
}

// "step_<name>": the name, 1 to 32 of [A-Za-z0-9_]; empty otherwise.
std::string Step(std::string_view seg) {
  if (seg.substr(0, 5) != "step_") return {};
  std::string_view name = seg.substr(5);
  if (name.empty() || name.size() > 32) return {};
  for (char c : name)
    if (!IsAlnum(c) && c != '_') return {};
  return std::string(name);
}

// "job_<digits>" (at most 20: a 64-bit id); a SLUID (Slurm 26.05 names the v2 cgroup by it,
// letters and digits) where `sluid` allows it.
std::string SlurmJob(std::string_view seg, bool sluid) {
  if (seg.substr(0, 4) == "job_") {
    std::string_view id = seg.substr(4);
    if (!id.empty() && id.size() <= 20 && All(id, IsDigit)) return std::string(id);
    return {};
  }
  if (sluid && seg.size() >= 8 && seg.size() <= 32 && All(seg, IsAlnum) && seg != "system") return std::string(seg);
  return {};
}

bool Slurm(const std::vector<std::string_view>& segs, Workload& w) {
  for (std::size_t i = 0; i + 1 < segs.size(); ++i) {
    std::string job;
    std::size_t next = 0;
    const std::string_view seg = segs[i];
    constexpr std::string_view kStepd = "slurmstepd.scope";
    if (seg.size() >= kStepd.size() && seg.substr(seg.size() - kStepd.size()) == kStepd &&
        (seg.size() == kStepd.size() || seg[seg.size() - kStepd.size() - 1] == '_')) {
      job = SlurmJob(segs[i + 1], true);  // v2: [<node>_]slurmstepd.scope/job_<id>
      next = i + 2;
    } else if ((seg == "slurm" || seg.substr(0, 6) == "slurm_") && i + 2 < segs.size() &&
               segs[i + 1].substr(0, 4) == "uid_") {
      job = SlurmJob(segs[i + 2], false);  // v1: slurm[_<node>]/uid_<uid>/job_<id>
      next = i + 3;
    }
    if (job.empty()) continue;
    w.kind = WorkloadKind::kSlurmJob;
    w.slurm_job = std::move(job);
    if (next < segs.size()) w.slurm_step = Step(segs[next]);
    return true;
  }
  return false;
}

bool IsUnitChar(char c) {
  return IsAlnum(c) || c == ':' || c == '-' || c == '_' || c == '.' || c == '@' || c == '\\';
}

// The last ".service" or ".scope" segment, a valid systemd unit name.
bool Unit(const std::vector<std::string_view>& segs, Workload& w) {
  for (std::size_t i = segs.size(); i-- > 0;) {
    std::string_view s = segs[i];
    const bool unit = (s.size() > 8 && s.substr(s.size() - 8) == ".service") ||
                      (s.size() > 6 && s.substr(s.size() - 6) == ".scope");
    if (!unit || s.size() > kMaxUnitName || !All(s, IsUnitChar)) continue;
    w.kind = WorkloadKind::kUnit;
    w.unit = std::string(s);
    return true;
  }
  return false;
}

}  // namespace

std::string_view WorkloadKindName(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kPod: return "pod";
    case WorkloadKind::kSlurmJob: return "slurm";
    case WorkloadKind::kUnit: return "unit";
    case WorkloadKind::kNone: break;
  }
  return "";
}

const std::string& Workload::Job() const {
  static const std::string kNone;
  switch (kind) {
    case WorkloadKind::kPod: return pod_uid;
    case WorkloadKind::kSlurmJob: return slurm_job;
    case WorkloadKind::kUnit: return unit;
    case WorkloadKind::kNone: break;
  }
  return kNone;
}

std::vector<CgroupLine> CgroupLines(std::string_view text) {
  std::vector<CgroupLine> out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    CgroupLine l;
    l.controllers = line.substr(first + 1, second - first - 1);
    l.path = line.substr(second + 1);
    l.v2 = line.substr(0, second) == "0:";
    if (l.path.empty() || l.path.front() != '/') continue;
    out.push_back(l);
  }
  std::stable_partition(out.begin(), out.end(), [](const CgroupLine& l) { return l.v2; });
  return out;
}

std::string CgroupPath(std::string_view text) {
  constexpr std::size_t kMaxPath = 4096;  // PATH_MAX
  std::string_view v1;
  for (const auto& l : CgroupLines(text)) {
    if (l.path.size() > kMaxPath) continue;
    if (l.v2) return std::string(l.path);
    if (v1.empty() && l.controllers == "name=systemd") v1 = l.path;
  }
  return std::string(v1);
}

Workload DecodeWorkloadPath(std::string_view cgroup_path) {
  const auto segs = Segments(cgroup_path);
  Workload w;
  if (Pod(segs, w) || Slurm(segs, w) || Unit(segs, w)) return w;
  return {};
}

Workload DecodeWorkload(std::string_view text) {
  const auto lines = CgroupLines(text);
  // A pod or a job on any line (Slurm's v1 cgroups are in freezer, cpuset …, while the
  // name=systemd line still says slurmd.service).
  for (const auto& l : lines) {
    const auto segs = Segments(l.path);
    Workload w;
    if (Pod(segs, w) || Slurm(segs, w)) return w;
  }
  // Else the unit: of the v2 line, else of name=systemd, else of any line.
  for (int pass = 0; pass < 3; ++pass) {
    for (const auto& l : lines) {
      if ((pass == 0 && !l.v2) || (pass == 1 && l.controllers != "name=systemd")) continue;
      Workload w;
      if (Unit(Segments(l.path), w)) return w;
    }
  }
  return {};
}

}  // namespace rocewatch::procfs
