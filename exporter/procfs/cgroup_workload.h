#pragma once

// Who a process works for, from its /proc/PID/cgroup text: a Kubernetes pod (its UID, QoS
// class and container), a Slurm job (its id and step), or a systemd unit. A pure decoder: text
// in, struct out, no I/O (the rdma collector reads the file, docs/metrics.md "The per-job view").
//
// The layouts it knows, as the kubelet and slurmd write them (tests/fixtures/real/cgroups has
// real /proc/PID/cgroup texts of each, with their provenance):
//   kubelet, systemd driver   /kubepods.slice/kubepods-burstable.slice/
//                             kubepods-burstable-pod<uid with _ for ->.slice/
//                             cri-containerd-<id>.scope | crio-<id>.scope | docker-<id>.scope
//                             (Guaranteed pods: kubepods-pod<uid>.slice directly; kind nodes put
//                             the same names under kubelet.slice/kubelet-kubepods…)
//   kubelet, cgroupfs driver  /kubepods/burstable/pod<uid>/<id>  (Guaranteed: /kubepods/pod<uid>)
//   slurmd, cgroup v2         /system.slice/[<node>_]slurmstepd.scope/job_<id>/step_<step>/user/task_<n>
//   slurmd, cgroup v1         /slurm[_<node>]/uid_<uid>/job_<id>/step_<step>/task_<n>
//   anything else             the last systemd unit on the path (a .service or .scope)
// The cgroup v2 line ("0::PATH") is read first; on cgroup v1 every controller's line is
// tried (Slurm's sit in freezer, cpuset, memory, devices …) and the name=systemd line gives
// the unit. Paths seen from another cgroup namespace ("/../../kubepods…") decode the same.
//
// Every field is bounded and of a fixed alphabet (hex, digits, the unit-name characters): a
// path that does not fit a layout is not forced into one, it is a unit or nothing.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch::procfs {

enum class WorkloadKind { kNone, kPod, kSlurmJob, kUnit };

// "pod", "slurm", "unit", "" (kNone): the `kind` label of the per-job series.
std::string_view WorkloadKindName(WorkloadKind kind);

struct Workload {
  WorkloadKind kind = WorkloadKind::kNone;
  // kPod: the pod's UID as the API server writes it (dashes, also where the systemd driver
  // wrote underscores), its QoS class ("guaranteed", "burstable", "besteffort"), its container
  // (the runtime's id, hex; empty for a process in the pod's own cgroup) and the runtime
  // ("containerd", "crio", "docker"; empty under the cgroupfs driver, whose path names none).
  std::string pod_uid, qos, container_id, runtime;
  // kSlurmJob: the job id (digits; a SLUID where Slurm 26.05+ names the cgroup by it) and the
  // step ("0", "batch", "extern", "interactive" …; empty for the job's own cgroup).
  std::string slurm_job, slurm_step;
  // kUnit: the unit ("slurmd.service", "session-3.scope").
  std::string unit;

  // The job a series names: the pod UID, the Slurm job id or the unit; empty for kNone.
  const std::string& Job() const;
  bool operator==(const Workload&) const = default;
};

// Longest field value kept: a unit name is at most 255 bytes (systemd's UNIT_NAME_MAX 256 with
// its NUL); a container id 64 hex digits; a pod UID 36 characters.
inline constexpr std::size_t kMaxUnitName = 255;
inline constexpr std::size_t kMaxContainerId = 64;

// One line of a /proc/PID/cgroup text, "hierarchy-ID:controller-list:cgroup-path" (man 7
// cgroups): the path is all after the second colon (a path may hold colons itself).
struct CgroupLine {
  std::string_view controllers, path;
  bool v2 = false;  // "0::PATH", the unified hierarchy
};

// The lines of `proc_pid_cgroup` with an absolute path, the cgroup v2 line first.
std::vector<CgroupLine> CgroupLines(std::string_view proc_pid_cgroup);

// The process's cgroup path: the v2 line's, else the v1 name=systemd line's; empty where there
// is none or it is longer than PATH_MAX (no cgroup path is).
std::string CgroupPath(std::string_view proc_pid_cgroup);

// The workload of the /proc/PID/cgroup text (every line of it).
Workload DecodeWorkload(std::string_view proc_pid_cgroup);

// The workload of one cgroup path ("/kubepods.slice/…").
Workload DecodeWorkloadPath(std::string_view cgroup_path);

}  // namespace rocewatch::procfs
