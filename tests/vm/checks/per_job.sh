# Issue 40 on the real kernel: two jobs, one in a cgroup laid out as the kubelet (systemd driver,
# containerd) lays out a Burstable pod's container, one as slurmd (cgroup v2) lays out a job's
# step; each runs an ib_write_bw pair (server and client in the job's cgroup, rxe0 <-> rxe1)
# that moves traffic and then holds its QPs while the exporter is scraped. /metrics names each job (pod UID with its
# QoS class, Slurm job id) with as many QPs and processes as `rdma resource show qp` lists for
# its processes, and the pod by namespace and name from the config.json containerd would have
# written into its container's bundle (--collector.rdma.pod-names-root). Counter binding per process is asked for first (`rdma statistic qp set … auto
# pid on`); the exporter says what the kernel did: on kernel 6.1 rxe takes the mode and binds
# no counter, so roce_rdma_job_counters_bound is 0 and no job carries traffic counters there.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
uid=1b2c3d4e-5f60-4a1b-9c2d-3e4f5a6b7c8d
pod="kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$(echo $uid | tr - _).slice/cri-containerd-$(printf 'ab%.0s' $(seq 32)).scope"
slurm="system.slice/slurmstepd.scope/job_4242/step_0/user/task_0"
trap 'owner_stop pod; owner_stop slurm; for d in rxe0 rxe1; do rdma statistic qp set link $d/1 auto off 2>/dev/null || true; done' EXIT
# Per-process counter binding asked for before the jobs start, as an operator would: where the
# kernel binds, each job carries its traffic counters; rxe takes the mode but binds nothing.
for dev in rxe0 rxe1; do
  rdma statistic qp set link "$dev/1" auto pid on 2>&1 || note "$dev refuses auto pid binding"
done
# Each job: an ib_write_bw pair (tests/vm/lib/rxe.sh owner_start) writing 200 x 4 KiB, then
# holding its QPs: the pod's server on rxe0 and client on rxe1, the Slurm job's the other way.
owner_start pod "$pod" rxe0 18621
owner_start slurm "$slurm" rxe1 18622
owners_hold pod slurm
# The pod's name: the config.json containerd writes into its container's bundle (annotations as
# tests/fixtures/real/oci-bundles/containerd-1.6-pr7735.txt shows them), under a host root of
# the check's own.
root=/tmp/podroot
bundle="$root/run/containerd/io.containerd.runtime.v2.task/k8s.io/$(printf 'ab%.0s' $(seq 32))"
mkdir -p "$bundle"
printf '{"ociVersion": "1.1.0", "annotations": {"io.kubernetes.cri.container-name": "trainer", "io.kubernetes.cri.container-type": "container", "io.kubernetes.cri.sandbox-name": "llama-0", "io.kubernetes.cri.sandbox-namespace": "ml", "io.kubernetes.cri.sandbox-uid": "%s"}}\n' "$uid" >"$bundle/config.json"
exporter_start jobs 9581 --collector.rdma.per-job=true --collector.rdma.pod-names-root="$root"
# The pod's name comes from the exporter's worker thread: the first scrape asks for it, a later
# one serves it.
for _ in $(seq 20); do
  scrape 9581 >jobs.prom
  grep -q '^roce_rdma_job_pod_info{' jobs.prom && break
  sleep 1
done
rdma resource show qp >qps.txt
grep 'roce_rdma_job' jobs.prom || { cat /tmp/jobs.log; fail "the exporter serves no per-job series"; }
# qps DEVICE PID...: how many QPs rdma lists on DEVICE for those processes.
qps() {
  _d=$1
  shift
  _n=0
  for _p in "$@"; do _n=$((_n + $(grep -c "link $_d/1 .*pid $_p " qps.txt || true))); done
  echo "$_n"
}
for dev in rxe0 rxe1; do
  want_pod=$(qps "$dev" "$(cat /tmp/pod.pid)" "$(cat /tmp/pod.client.pid)")
  want_slurm=$(qps "$dev" "$(cat /tmp/slurm.pid)" "$(cat /tmp/slurm.client.pid)")
  [ "$want_pod" -gt 0 ] && [ "$want_slurm" -gt 0 ] || fail "$dev: rdma lists $want_pod pod and $want_slurm slurm QPs"
  got=$(sample jobs.prom roce_rdma_job_qps "device=\"$dev\"" 'kind="pod"' "workload=\"$uid\"" 'qos="burstable"')
  [ "$got" = "$want_pod" ] || fail "$dev: roce_rdma_job_qps of pod $uid is '$got', rdma lists $want_pod"
  got=$(sample jobs.prom roce_rdma_job_qps "device=\"$dev\"" 'kind="slurm"' 'workload="4242"')
  [ "$got" = "$want_slurm" ] || fail "$dev: roce_rdma_job_qps of Slurm job 4242 is '$got', rdma lists $want_slurm"
  [ "$(sample jobs.prom roce_rdma_job_processes "device=\"$dev\"" 'kind="pod"' "workload=\"$uid\"")" = 1 ] ||
    fail "$dev: the pod's processes are not 1"
  [ "$(sample jobs.prom roce_rdma_job_pod_info "device=\"$dev\"" "workload=\"$uid\"" 'pod_namespace="ml"' 'pod_name="llama-0"')" = 1 ] ||
    fail "$dev: the pod is not named ml/llama-0 from its bundle"
  [ "$(count jobs.prom roce_rdma_job_pod_info "device=\"$dev\"")" = 1 ] || fail "$dev: another pod_info than the pod's"
  # What the kernel bound, as `rdma statistic qp show` lists it, and what the exporter says.
  bound=$(rdma statistic qp show link "$dev/1" | grep -c "cntn" || true)
  note "$dev: $bound counters bound per process ($(rdma statistic qp mode link "$dev/1"))"
  if [ "$bound" -gt 0 ]; then
    [ "$(sample jobs.prom roce_rdma_job_counters_bound "device=\"$dev\"")" = 1 ] ||
      fail "$dev: the kernel bound $bound counters, roce_rdma_job_counters_bound is not 1"
    [ "$(count jobs.prom roce_rdma_job_stat_total "device=\"$dev\"" 'kind="pod"')" -gt 0 ] ||
      fail "$dev: counters are bound, the pod carries no roce_rdma_job_stat_total"
  else
    [ "$(sample jobs.prom roce_rdma_job_counters_bound "device=\"$dev\"")" = 0 ] ||
      fail "$dev: nothing bound, roce_rdma_job_counters_bound is not 0"
    [ "$(count jobs.prom roce_rdma_job_stat_total "device=\"$dev\"")" = 0 ] ||
      fail "$dev: job traffic counters served although nothing is bound"
  fi
done
note "pod $uid (ml/llama-0, from its bundle) and Slurm job 4242 named with their QPs on rxe0 and rxe1 after moving traffic"
