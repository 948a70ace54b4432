// The workload a process's cgroup names (exporter/procfs/cgroup_workload.h), on the
// /proc/PID/cgroup texts and cgroup paths real kubelets and slurmds wrote
// (tests/fixtures/real/cgroups, PROVENANCE.md there), on the layouts their documentation gives
// where no public dump shows them, and on hostile text.

#include "exporter/procfs/cgroup_workload.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "common/fixture_paths.h"
#include "rocewatch/read_file.h"

namespace rocewatch::procfs {

inline void PrintTo(const Workload& w, std::ostream* os) {
  *os << WorkloadKindName(w.kind) << "{uid=" << w.pod_uid << " qos=" << w.qos << " runtime=" << w.runtime
      << " container=" << w.container_id << " job=" << w.slurm_job << " step=" << w.slurm_step
      << " unit=" << w.unit << "}";
}

namespace {

std::string Real(const std::string& name) {
  auto text = ReadFileCapped(testing::FixtureDir("real/cgroups") + "/" + name, 1 << 16);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : std::string();
}

Workload Pod(std::string uid, std::string qos, std::string runtime, std::string container) {
  Workload w;
  w.kind = WorkloadKind::kPod;
  w.pod_uid = std::move(uid);
  w.qos = std::move(qos);
  w.runtime = std::move(runtime);
  w.container_id = std::move(container);
  return w;
}

Workload Job(std::string job, std::string step) {
  Workload w;
  w.kind = WorkloadKind::kSlurmJob;
  w.slurm_job = std::move(job);
  w.slurm_step = std::move(step);
  return w;
}

Workload Unit(std::string unit) {
  Workload w;
  w.kind = WorkloadKind::kUnit;
  w.unit = std::move(unit);
  return w;
}


TEST(CgroupWorkload, RealKubeletSystemdDriverV1) {
  EXPECT_EQ(DecodeWorkload(Real("k8s-systemd-crio-v1-runc4620.txt")),
            Pod("a5c1f8d5-1919-434d-add7-4afaafdaef89", "burstable", "crio",
                "5eed917563583925ffdbd40a64efb2aaffe58638e57add8becaf460fe74f5b1c"));
  EXPECT_EQ(DecodeWorkload(Real("k8s-systemd-docker-v1-lxc3890.txt")),
            Pod("7d4424e6-bb13-42f4-a47a-45a4828bf54d", "burstable", "docker",
                "d0b3604b67ac7930dd34ba3a796627e3e4717d12309e90a4afe3f38b6816ac98"));
}

TEST(CgroupWorkload, RealKubeletCgroupfsDriverV1) {
  EXPECT_EQ(DecodeWorkload(Real("k8s-cgroupfs-docker-v1-duckdb16608.txt")),
            Pod("c101fead-5fa2-4525-97af-5894973b336e", "burstable", "",
                "2b7a2f7fb72575bb50a46d68cceaf43a12a597184714cb33af2f6420f5314293"));
}

// containerd's systemd-style name "<slice>:cri-containerd:<id>" written into a v1 path.
TEST(CgroupWorkload, RealContainerdSliceColonName) {
  EXPECT_EQ(DecodeWorkload(Real("k8s-containerd-slice-colon-v1-otel4507.txt")),
            Pod("0125ec2f-b64a-4868-8f5b-94b56cbab864", "besteffort", "containerd",
                "ee4b20e90ac7f42a10bd004d05646b13d8ab5e2c5e7cbc01abf8006bac016459"));
}

TEST(CgroupWorkload, RealCgroupV2Paths) {
  auto path = [](const std::string& name) {
    std::string p = Real(name);
    if (!p.empty() && p.back() == '\n') p.pop_back();
    return p;
  };
  const std::string kind = path("k8s-kind-containerd-v2-nri227.path");
  const Workload kind_pod = Pod("1e597579-417e-482f-bf65-5fe170c3aebd", "besteffort", "containerd",
                                "a09bc17f5aa29b0dbdec9ede5f46cf1396d2405917ab02e6f1eb1019f388396e");
  EXPECT_EQ(DecodeWorkloadPath(kind), kind_pod);
  EXPECT_EQ(DecodeWorkload("0::" + kind + "\n"), kind_pod);
  EXPECT_EQ(DecodeWorkloadPath(path("k8s-openshift-crio-v2-nri227.path")),
            Pod("35550f44-f691-427e-b57d-ab6127d2cb65", "burstable", "crio",
                "805b902ed98fdc1409c76e9aa94964787a904c80f46fc3ee74283509108f5e73"));
  // The pod's sandbox: the pod, no container.
  EXPECT_EQ(DecodeWorkloadPath(path("k8s-openshift-crio-sandbox-v2-nri227.path")),
            Pod("35550f44-f691-427e-b57d-ab6127d2cb65", "burstable", "", ""));
}

TEST(CgroupWorkload, RealSlurm) {
  EXPECT_EQ(DecodeWorkload(Real("slurm-v2-fox-sonar.txt")), Job("1392969", "0"));
  EXPECT_EQ(DecodeWorkload(Real("slurm-v1-sonar.txt")), Job("280678", "interactive"));
  EXPECT_EQ(DecodeWorkload(Real("slurm-v1-sonar.txt")).Job(), "280678");
}

TEST(CgroupWorkload, RealProcessInASliceIsNoWorkload) {
  const Workload w = DecodeWorkload(Real("host-v1-system-slice-kontena440.txt"));
  EXPECT_EQ(w.kind, WorkloadKind::kNone);
  EXPECT_EQ(w.Job(), "");
}

// What the documentation gives and no public dump here shows.
TEST(CgroupWorkload, DocumentedLayouts) {
  const std::string id(64, 'a');
  // Guaranteed pods sit directly under kubepods (both drivers).
  EXPECT_EQ(DecodeWorkloadPath("/kubepods.slice/kubepods-pod3f7a1b2c_4d5e_6f70_8192_a3b4c5d6e7f8.slice/"
                               "cri-containerd-" + id + ".scope"),
            Pod("3f7a1b2c-4d5e-6f70-8192-a3b4c5d6e7f8", "guaranteed", "containerd", id));
  EXPECT_EQ(DecodeWorkloadPath("/kubepods/pod3f7a1b2c-4d5e-6f70-8192-a3b4c5d6e7f8/" + id),
            Pod("3f7a1b2c-4d5e-6f70-8192-a3b4c5d6e7f8", "guaranteed", "", id));
  EXPECT_EQ(DecodeWorkloadPath("/kubepods/besteffort/pod3f7a1b2c-4d5e-6f70-8192-a3b4c5d6e7f8"),
            Pod("3f7a1b2c-4d5e-6f70-8192-a3b4c5d6e7f8", "besteffort", "", ""));
  // A static pod's UID is its config hash, 32 hex digits.
  EXPECT_EQ(DecodeWorkloadPath("/kubepods.slice/kubepods-burstable.slice/"
                               "kubepods-burstable-pod8daa50c3a64c9ff60bb9eab7b44b56fd.slice")
                .pod_uid,
            "8daa50c3a64c9ff60bb9eab7b44b56fd");
  // Seen from another cgroup namespace.
  EXPECT_EQ(DecodeWorkload("0::/../../kubepods-besteffort-pod3f7a1b2c_4d5e_6f70_8192_a3b4c5d6e7f8.slice/crio-" + id +
                           ".scope\n")
                .pod_uid,
            "3f7a1b2c-4d5e-6f70-8192-a3b4c5d6e7f8");
  // Slurm: multiple-slurmd, the job's own cgroup, the batch and extern steps, a SLUID (26.05).
  EXPECT_EQ(DecodeWorkload("0::/system.slice/node7_slurmstepd.scope/job_42/step_batch/user/task_special\n"),
            Job("42", "batch"));
  EXPECT_EQ(DecodeWorkload("0::/system.slice/slurmstepd.scope/job_42/step_extern/user\n"), Job("42", "extern"));
  EXPECT_EQ(DecodeWorkload("0::/system.slice/slurmstepd.scope/job_42\n"), Job("42", ""));
  EXPECT_EQ(DecodeWorkload("0::/system.slice/slurmstepd.scope/s5K1KKYAYG5D00/step_0/user/task_0\n"),
            Job("s5K1KKYAYG5D00", "0"));
  EXPECT_EQ(DecodeWorkload("4:freezer:/slurm_node7/uid_1000/job_77/step_3/task_0\n"
                           "1:name=systemd:/system.slice/slurmd.service\n"),
            Job("77", "3"));
  // slurmstepd's own processes are no job; the unit is.
  EXPECT_EQ(DecodeWorkload("0::/system.slice/slurmstepd.scope/system\n"), Unit("slurmstepd.scope"));
}

TEST(CgroupWorkload, UnitsOtherwise) {
  EXPECT_EQ(DecodeWorkload("0::/user.slice/user-1000.slice/session-3.scope\n"), Unit("session-3.scope"));
  EXPECT_EQ(DecodeWorkload("0::/system.slice/ib_write_bw@mlx5_0.service\n"), Unit("ib_write_bw@mlx5_0.service"));
  // Hybrid: the v2 line's unit before name=systemd's; on pure v1, name=systemd's.
  EXPECT_EQ(DecodeWorkload("1:name=systemd:/system.slice/a.service\n0::/system.slice/b.service\n"), Unit("b.service"));
  EXPECT_EQ(DecodeWorkload("4:cpu,cpuacct:/x.service\n1:name=systemd:/system.slice/slurmd.service\n"),
            Unit("slurmd.service"));
  EXPECT_EQ(DecodeWorkload("0::/init.scope\n"), Unit("init.scope"));
  EXPECT_EQ(DecodeWorkload("0::/\n").kind, WorkloadKind::kNone);
}

// Nothing that does not fit a layout is forced into one.
TEST(CgroupWorkload, HostileText) {
  EXPECT_EQ(DecodeWorkload("").kind, WorkloadKind::kNone);
  EXPECT_EQ(DecodeWorkload("garbage\n0:/nocolon\n0::relative\n").kind, WorkloadKind::kNone);
  // A pod UID that is no UUID, a container id that is no hex, a job id that is no number.
  EXPECT_EQ(DecodeWorkloadPath("/kubepods/burstable/pod$(reboot)/abc").kind, WorkloadKind::kNone);
  EXPECT_EQ(DecodeWorkloadPath("/kubepods.slice/kubepods-burstable-pod3f7a1b2c_4d5e_6f70_8192_a3b4c5d6e7f8.slice/"
                               "docker-\x1b[2J.scope")
                .container_id,
            "");
  EXPECT_EQ(DecodeWorkloadPath("/system.slice/slurmstepd.scope/job_1e9/step_0").kind, WorkloadKind::kUnit);
  EXPECT_EQ(DecodeWorkloadPath("/system.slice/slurmstepd.scope/job_123456789012345678901/step_0").slurm_job, "");
  EXPECT_EQ(DecodeWorkloadPath("/slurm/uid_1/job_5/step_" + std::string(40, 'x')), Job("5", ""));
  // A unit name with bytes systemd never allows, or longer than it allows.
  EXPECT_EQ(DecodeWorkloadPath("/system.slice/a\x1b]0;pwned\x07.service").kind, WorkloadKind::kNone);
  EXPECT_EQ(DecodeWorkloadPath("/system.slice/" + std::string(300, 'a') + ".service").kind, WorkloadKind::kNone);
  EXPECT_EQ(DecodeWorkloadPath("/system.slice/" + std::string(240, 'a') + ".service").unit.size(), 248u);
  // "slurmstepd.scope" must be the whole word or its _-suffix.
  EXPECT_EQ(DecodeWorkloadPath("/notslurmstepd.scope/job_1").kind, WorkloadKind::kUnit);
  // A megabyte of slashes and colons: linear, nothing.
  EXPECT_EQ(DecodeWorkload("0::/" + std::string(1 << 20, '/') + "\n").kind, WorkloadKind::kNone);
  EXPECT_EQ(DecodeWorkload(std::string(1 << 20, ':')).kind, WorkloadKind::kNone);
}

}  // namespace
}  // namespace rocewatch::procfs
