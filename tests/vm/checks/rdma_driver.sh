# Issue 42 (and 41: a driver is chosen by what the kernel says it is): an rxe device has no
# parent in sysfs, so no device/driver link names its driver. RDMA netlink's GET_CHARDEV
# "uverbs" answers its driver id (RDMA_DRIVER_RXE), as libibverbs binds its provider: the
# exporter's request is the one libibverbs sends (attributes compared byte for byte), the
# device is served with driver="rdma_rxe", and after real traffic its hw counters are served
# again by meaning, roce_transport_events_total, with the same values. The kernel's answer
# is kept (rdma_driver.d/uverbs_chardev.reply.hex) for the decoder's unit test.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
# nldev GET_CHARDEV is nlmsg_type (5 << 10) + 15 = 0x140f. strace -xx decodes the netlink
# header and prints the attributes after it as a string: "request" prints the attributes of
# every such request FILE shows, "reply" every answer as "flags seq attributes".
chardev() {
  python3 - "$1" "$2" <<'PY'
import re, sys
want = sys.argv[2]
head = re.compile(r'nlmsg_type=0x140f[^}]*nlmsg_flags=([^,]*), nlmsg_seq=(\d+), nlmsg_pid=-?\d+\}, "((?:\\x[0-9a-f]{2})*)"')
for line in open(sys.argv[1]):
    call = re.match(r'\d+\s+(\w+)\(', line)
    if not call:
        continue
    sending = call.group(1) in ("sendto", "sendmsg")
    if (want == "request") != sending:
        continue
    for flags, seq, body in head.findall(line):
        attrs = bytes.fromhex(body.replace('\\x', '')).hex()
        print(attrs if sending else f"{flags} {seq} {attrs}")
PY
}
# libibverbs lists the devices (and asks each one's uverbs chardev) before perftest looks for
# the device it was given: one that does not exist ends it right there.
strace -f -xx -s 4096 -e trace=sendto,sendmsg,recvfrom,recvmsg -o verbs.strace \
  ib_write_bw -d rocewatch-none >perftest.txt 2>&1 || true
cat perftest.txt
strace -f --seccomp-bpf -xx -s 4096 -e trace=sendto,sendmsg -o exporter.strace \
  "$EXPORTER" --web.listen-address=127.0.0.1:9521 --collector.timeout=120s >exporter.log 2>&1 &
tracer=$!
wait_for 60 "the exporter under strace" curl -sf -o /dev/null http://127.0.0.1:9521/metrics
# The exporter, not strace: a killed strace leaves its tracee running and can hang the wait.
pkill -x roce_exporter || true
wait "$tracer" || true
chardev verbs.strace request | sort -u >theirs.txt
chardev exporter.strace request | sort -u >ours.txt
echo "libibverbs sends:"; cat theirs.txt
echo "roce_exporter sends:"; cat ours.txt
[ -s theirs.txt ] || fail "no GET_CHARDEV request in libibverbs' strace"
while read -r line; do
  grep -qx "$line" ours.txt || fail "the exporter sends no GET_CHARDEV like libibverbs': $line"
done <theirs.txt
mkdir -p "$VM_ARTIFACTS"
chardev verbs.strace reply | head -n 1 >"$VM_ARTIFACTS/uverbs_chardev.reply.hex"
echo "kernel $(uname -r) answers: $(cat "$VM_ARTIFACTS/uverbs_chardev.reply.hex")"
[ -s "$VM_ARTIFACTS/uverbs_chardev.reply.hex" ] || fail "no GET_CHARDEV reply in libibverbs' strace"

vm_traffic 90
# The raw counters beside their events with --collector.rdma.all-hw-counters; by default an
# event's counter is served by meaning only.
exporter_start drv 9522 --collector.rdma.all-hw-counters=true
exporter_start def 9523
scrape 9522 >drv.prom
scrape 9523 >def.prom
exporter_stop drv
exporter_stop def
grep 'roce_device_info\|roce_transport_events_total' drv.prom || true
for dev in rxe0 rxe1; do
  [ "$(count drv.prom roce_device_info "device=\"$dev\"" 'driver="rdma_rxe"')" = 1 ] ||
    fail "$dev is not served with driver=\"rdma_rxe\""
  for pair in duplicate_request:duplicate_request out_of_seq_request:out_of_sequence \
    completer_retry_err:retransmits rcvd_seq_err:sequence_error_nak; do
    counter=${pair%%:*}
    event=${pair#*:}
    raw=$(sample drv.prom roce_hw_stat_total "device=\"$dev\"" 'port="1"' "counter=\"$counter\"")
    got=$(sample drv.prom roce_transport_events_total "device=\"$dev\"" 'port="1"' "event=\"$event\"")
    [ -n "$raw" ] || fail "$dev serves no hw counter $counter"
    [ "$got" = "$raw" ] || fail "$dev event $event is '$got', its hw counter $counter $raw"
    [ -n "$(sample def.prom roce_transport_events_total "device=\"$dev\"" 'port="1"' "event=\"$event\"")" ] ||
      fail "$dev serves no event $event by default"
    [ "$(count def.prom roce_hw_stat_total "device=\"$dev\"" "counter=\"$counter\"")" = 0 ] ||
      fail "$dev serves $counter raw by default, beside its event $event"
  done
done
note "rxe0 and rxe1 known as rdma_rxe by their uverbs driver id; 4 events each equal their hw counters, served raw only with all-hw-counters"
