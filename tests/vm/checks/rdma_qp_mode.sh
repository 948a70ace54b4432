# Defect 1 of issue 42: the QP-counter mode is served as `rdma statistic qp mode` says it (kernel
# 6.1 answered our old request, without RDMA_NLDEV_ATTR_STAT_MODE, with EINVAL, and no mode was
# ever served), with 0 bound counters in mode none; the QP-counter mode request and the
# bound-counter dump request are the
# ones `rdma statistic qp mode` and `rdma statistic qp show` send (compared byte for byte on the
# real kernel: each request's attributes after the netlink header), and the mode and bound
# counters the kernel answers are served. rxe has no counter_bind_qp: in auto mode the kernel
# binds none of its QPs to a counter, so its bound counters stay 0 (rdma statistic qp show lists
# none) while the mode is auto.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
# nldev STAT_GET is nlmsg_type (5 << 10) + 17 = 0x1411: "get|dump <attributes in hex>" of each
# such request with RDMA_NLDEV_ATTR_STAT_RES (type 0x4b) that FILE's strace -xx shows.
requests() {
  python3 - "$1" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    head = re.search(r'nlmsg_type=0x1411[^}]*nlmsg_flags=([A-Z_|0-9x]+)', line)
    body = re.search(r'send(?:to|msg)\(.*?"((?:\\x[0-9a-f]{2})+)"', line)
    if not head or not body:
        continue
    b = bytes.fromhex(body.group(1).replace('\\x', ''))
    if b'\x08\x00\x4b\x00' not in b:
        continue
    kind = "dump" if ("NLM_F_DUMP" in head.group(1) or "0x300" in head.group(1)) else "get"
    print(kind, b.hex())
PY
}
strace -f -xx -s 4096 -e trace=sendto,sendmsg -o rdma-none.strace rdma statistic qp mode link rxe0/1 >rdma-mode.txt
cat rdma-mode.txt
grep -q "auto off" rdma-mode.txt || fail "rdma says $(cat rdma-mode.txt), not auto off (mode none)"
exporter_start none 9511
scrape 9511 >none.prom
exporter_stop none
grep 'roce_rdma_qp_counter_mode\|roce_rdma_bound_counters' none.prom || true
[ "$(sample none.prom roce_rdma_qp_counter_mode 'device="rxe0"' 'port="1"' 'mode="none"')" = 1 ] ||
  fail "roce_rdma_qp_counter_mode{device=rxe0,mode=none} not served (rdma: $(cat rdma-mode.txt))"
[ "$(sample none.prom roce_rdma_bound_counters 'device="rxe0"' 'port="1"')" = 0 ] ||
  fail "roce_rdma_bound_counters{device=rxe0} is not 0 in mode none"

# auto mode by QP type.
rdma statistic qp set link rxe0/1 auto type on
trap 'rdma statistic qp set link rxe0/1 auto off' EXIT
rdma statistic qp mode link rxe0/1 | tee rdma-mode-auto.txt
grep -q "auto type on" rdma-mode-auto.txt || fail "rdma statistic qp set link rxe0/1 auto type on did not take"
strace -f -xx -s 4096 -e trace=sendto,sendmsg -o rdma-auto.strace sh -c \
  'rdma statistic qp mode link rxe0/1 && rdma statistic qp show link rxe0/1' >/dev/null
# Under strace on a loaded host a scrape takes far longer than the default 10 s collector
# timeout (CI once got a scrape without the rdma section): the check waits for every collector.
strace -f --seccomp-bpf -xx -s 4096 -e trace=sendto,sendmsg -o exporter.strace \
  "$EXPORTER" --web.listen-address=127.0.0.1:9512 --collector.timeout=120s >exporter.log 2>&1 &
tracer=$!
wait_for 30 "the exporter under strace" curl -sf -o /dev/null http://127.0.0.1:9512/metrics
# While perftest's QPs live (8 s), the port's bound counters as rdma and the exporter see them.
vm_traffic 150 -D 20 >traffic.log 2>&1 &
traffic=$!
wait_for 90 "perftest's QPs on rxe0" sh -c 'rdma resource show qp link rxe0/1 | grep -q ib_write_bw'
rdma statistic qp show link rxe0/1 >bound.txt || true
scrape 9512 >auto.prom
wait "$traffic" || { cat traffic.log; fail "perftest failed"; }
# The exporter, not strace: a killed strace leaves its tracee running and can hang the wait.
pkill -x roce_exporter || true
wait "$tracer" || true
requests rdma-none.strace >theirs.txt
requests rdma-auto.strace >>theirs.txt
requests exporter.strace | sort -u >ours.txt
echo "rdma sends:"; cat theirs.txt
echo "roce_exporter sends:"; cat ours.txt
grep -q '^get ' theirs.txt || fail "no QP-mode request in rdma's strace"
grep -q '^dump ' theirs.txt || fail "no bound-counter dump in rdma's strace"
# The device index is 0 for rxe0 in both (the same kernel), so whole attribute lists compare.
sort -u theirs.txt | while read -r line; do
  grep -qx "$line" ours.txt || fail "the exporter sends no request like rdma's: $line"
done
bound=$(grep -c "cntn" bound.txt || true)
echo "rdma statistic qp show during traffic: $bound bound counters"; cat bound.txt
grep 'roce_rdma_qp_counter_mode\|roce_rdma_bound\|roce_exporter_collector_success' auto.prom || true
[ "$(sample auto.prom roce_rdma_qp_counter_mode 'device="rxe0"' 'port="1"' 'mode="auto"')" = 1 ] ||
  fail "mode auto not served"
[ "$(sample auto.prom roce_rdma_bound_counters 'device="rxe0"' 'port="1"')" = "$bound" ] ||
  fail "roce_rdma_bound_counters{device=rxe0} is not rdma's $bound"
