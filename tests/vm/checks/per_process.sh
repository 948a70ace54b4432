# The per-process view with real processes in real cgroups: two ib_write_bw servers, each in its
# own cgroup v2 group and on its own rxe device, hold QPs; roce_rdma_process_qps names each one's
# pid, comm and cgroup with as many QPs as `rdma resource show qp` lists for it, and
# roce_rdma_resources counts the device's QPs as `rdma resource show` does.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
trap 'owner_stop joba; owner_stop jobb' EXIT
owner_start joba vmjob-a rxe0 18601
owner_start jobb vmjob-b rxe1 18602
owners_hold joba jobb
exporter_start pp 9541 --collector.rdma.per-process=true
rdma resource show qp | grep pid
scrape 9541 >pp.prom
grep 'roce_rdma_process\|roce_rdma_resources{.*qp' pp.prom
for job in joba:vmjob-a:rxe0 jobb:vmjob-b:rxe1; do
  name=${job%%:*}
  rest=${job#*:}
  group=${rest%%:*}
  dev=${rest#*:}
  pid=$(cat "/tmp/$name.pid")
  want=$(rdma resource show qp link "$dev/1" | grep -c "pid $pid " || true)
  got=$(sample pp.prom roce_rdma_process_qps "device=\"$dev\"" "pid=\"$pid\"" 'comm="ib_write_bw"' "cgroup=\"/$group\"")
  [ "$got" = "$want" ] ||
    fail "$dev pid $pid in /$group: rdma lists $want QPs, roce_rdma_process_qps is '$got'"
  qps=$(rdma resource show "$dev" | tr ' ' '\n' | awk 'prev == "qp" { print; exit } { prev = $0 }')
  [ "$(sample pp.prom roce_rdma_resources "device=\"$dev\"" 'type="qp"')" = "$qps" ] ||
    fail "roce_rdma_resources{device=$dev,type=qp} is not rdma's $qps"
done
