# Defect 1 of issue 42: the QP-counter mode request is the one `rdma statistic qp mode` sends
# (compared byte for byte on the real kernel: the attributes after the netlink header), and the
# mode and bound counters it answers are served. rxe has no counter_bind_qp: in auto mode the
# kernel binds no QP of it to a counter, so its bound counters stay 0 (rdma statistic qp show
# lists none).
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
# nldev STAT_GET is nlmsg_type (5 << 10) + 17 = 0x1411: the requests' attributes in hex.
requests() {
  python3 - "$1" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    m = re.search(r'send(?:to|msg)\(\d+, (?:\{msg_name[^"]*)?"((?:\\x[0-9a-f]{2})+)"', line)
    if not m:
        continue
    b = bytes.fromhex(m.group(1).replace('\\x', ''))
    if len(b) >= 16 and b[4:6] == b'\x11\x14' and b'\x08\x00\x4b\x00' in b[16:]:
        print(b[16:].hex())
PY
}
strace -f -xx -s 4096 -e trace=sendto,sendmsg -o rdma.strace rdma statistic qp mode link rxe0/1 >rdma-mode.txt
cat rdma-mode.txt
strace -f -xx -s 4096 -e trace=sendto,sendmsg -o exporter.strace \
  "$EXPORTER" --web.listen-address=127.0.0.1:9511 >exporter.log 2>&1 &
pid=$!
wait_for 30 "the exporter under strace" curl -sf -o /dev/null http://127.0.0.1:9511/metrics
curl -sf http://127.0.0.1:9511/metrics >before.prom
kill "$pid"; wait "$pid" 2>/dev/null || true
theirs=$(requests rdma.strace | head -n 1)
ours=$(requests exporter.strace | sort -u)
echo "rdma statistic qp mode: $theirs"
echo "roce_exporter:          $ours"
[ -n "$theirs" ] || fail "no STAT_GET with STAT_RES in rdma's strace"
echo "$ours" | grep -qx "$theirs" || fail "the exporter's QP-counter mode request differs from rdma's"
mode=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "qp") { print $(i + 1); exit } }' rdma-mode.txt)
[ "$(sample before.prom roce_rdma_qp_counter_mode 'device="rxe0"' 'port="1"' "mode=\"$mode\"")" = 1 ] ||
  fail "roce_rdma_qp_counter_mode{device=rxe0,mode=$mode} not served: $(grep qp_counter_mode before.prom)"

# auto mode by QP type: the mode changes, the bound counters are what rdma shows (none on rxe).
rdma statistic qp set link rxe0/1 auto type on
trap 'rdma statistic qp set link rxe0/1 auto off' EXIT
rdma statistic qp mode link rxe0/1 | tee rdma-mode-auto.txt
exporter_start qpmode 9512
vm_traffic 90 -D 4 --run_infinitely >/dev/null 2>&1 &
traffic=$!
sleep 6
rdma statistic qp show link rxe0/1 >bound.txt || true
scrape 9512 >auto.prom
kill "$traffic" 2>/dev/null || true
wait "$traffic" 2>/dev/null || true
bound=$(grep -c "cntn" bound.txt || true)
echo "rdma statistic qp show: $bound bound counters"; cat bound.txt
[ "$(sample auto.prom roce_rdma_qp_counter_mode 'device="rxe0"' 'mode="auto"')" = 1 ] ||
  fail "auto mode not served: $(grep qp_counter_mode auto.prom)"
[ "$(sample auto.prom roce_rdma_bound_counters 'device="rxe0"' 'port="1"')" = "$bound" ] ||
  fail "roce_rdma_bound_counters is not $bound: $(grep bound_counters auto.prom)"
grep 'roce_rdma_qp_counter_mode\|roce_rdma_bound' auto.prom
cp rdma.strace exporter.strace before.prom auto.prom "$VM_ARTIFACTS/"
