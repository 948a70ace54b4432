# Defect 1 of issue 42: the QP-counter mode request is the one `rdma statistic qp mode` sends
# (compared byte for byte on the real kernel: the attributes after the netlink header), and the
# mode the kernel answers is served (kernel 6.1 answered the old request, without STAT_MODE,
# with EINVAL, and no mode was ever served).
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
# nldev STAT_GET (nlmsg_type 0x1411) requests with STAT_RES (0x4b): their attributes in hex.
requests() {
  python3 - "$1" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    if "nlmsg_type=0x1411" not in line:
        continue
    body = re.search(r'send(?:to|msg)\(.*?"((?:\\x[0-9a-f]{2})+)"', line)
    if body:
        b = bytes.fromhex(body.group(1).replace('\\x', ''))
        if b'\x08\x00\x4b\x00' in b:
            print(b.hex())
PY
}
strace -f -xx -s 4096 -e trace=sendto,sendmsg -o rdma.strace rdma statistic qp mode link rxe0/1 | tee rdma-mode.txt
strace -f -xx -s 4096 -e trace=sendto,sendmsg -o exporter.strace \
  "$EXPORTER" --web.listen-address=127.0.0.1:9511 >exporter.log 2>&1 &
echo $! >/tmp/qpmode.pid
wait_for 60 "the exporter under strace" curl -sf -o /dev/null http://127.0.0.1:9511/metrics
scrape 9511 >mode.prom
exporter_stop qpmode
theirs=$(requests rdma.strace | head -n 1)
echo "rdma statistic qp mode: $theirs"
echo "roce_exporter:"; requests exporter.strace | sort -u | tee ours.txt
[ -n "$theirs" ] || fail "no STAT_GET with STAT_RES in rdma's strace"
grep -qx "$theirs" ours.txt || fail "the exporter's QP-counter mode request differs from rdma's"
grep -q "auto off" rdma-mode.txt || fail "rdma says $(cat rdma-mode.txt), not auto off (mode none)"
[ "$(sample mode.prom roce_rdma_qp_counter_mode 'device="rxe0"' 'port="1"' 'mode="none"')" = 1 ] ||
  fail "roce_rdma_qp_counter_mode{device=rxe0,mode=none} not served: $(grep qp_counter_mode mode.prom)"
[ "$(sample mode.prom roce_rdma_bound_counters 'device="rxe0"' 'port="1"')" = 0 ] ||
  fail "roce_rdma_bound_counters{device=rxe0} is not 0 in mode none"
