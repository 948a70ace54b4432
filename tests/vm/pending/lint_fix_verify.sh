# roce-lint on the live guest node: `check` with a plan for it finds the settings that differ
# (netdev MTU, rdma_cm ToS and mode) from the real exporter's metrics; the `fix` script sets them
# with the real `ip` and configfs, after which `check` no longer finds them, and `--rollback`
# puts the node back as it was. Then `verify`'s success path: perftest from rxe0 to rxe1
# through roce-lint's local transport, judged with both devices' counters.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
cm=/sys/kernel/config/rdma_cm
for d in rxe0 rxe1; do rmdir "$cm/$d" 2>/dev/null || true; done
ip link set dev "$VM_A" mtu 1500
ip link set dev "$VM_B" mtu 1500
cat >plan.json <<JSON
{
  "cluster": "vm",
  "profiles": {
    "soft-roce": {
      "link_speed_gbps": 10,
      "netdev_mtu": 4200,
      "roce_mode": "v2",
      "roce_dscp": 26,
      "verify": {
        "min_bandwidth_fraction": 0.001,
        "max_retransmissions_per_second": 100,
        "queue_pairs": 1,
        "message_bytes": 4096
      }
    }
  },
  "nodes": [
    {
      "name": "rocewatch-vm",
      "management_ip": "127.0.0.1",
      "exporter": "127.0.0.1:9571",
      "nics": [
        {"ib_dev": "rxe0", "netdev": "$VM_A", "profile": "soft-roce", "roce_ip": "$VM_IP_A/24", "rail": 0},
        {"ib_dev": "rxe1", "netdev": "$VM_B", "profile": "soft-roce", "roce_ip": "$VM_IP_B/24", "rail": 0}
      ]
    }
  ]
}
JSON
"$LINT" plan plan.json || fail "roce-lint plan refused the guest's plan"
exporter_start lint 9571 --collector.rdma_cm.create-groups=false
findings() {
  rc=0
  "$LINT" check plan.json --format json --output "$1" >/dev/null 2>"$1.err" || rc=$?
  [ "$rc" -le 1 ] || { cat "$1.err"; fail "roce-lint check exited $rc"; }
  python3 - "$1" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["check"], f["device"] or "-", f["netdev"] or "-", "expected=" + str(f["expected"]), "found=" + str(f["found"]))
PY
}
findings before.json | tee before.txt
for want in "mtu.* $VM_A " "mtu.* $VM_B "; do
  grep -q "$want" before.txt || fail "check found no MTU finding matching '$want' (netdev 1500, plan 4200)"
done
"$LINT" fix plan.json --node rocewatch-vm >fix.sh 2>fix.err || { cat fix.err; fail "roce-lint fix"; }
sh fix.sh --precheck || fail "the fix script's precheck failed"
sh fix.sh | tee apply.txt || fail "the fix script failed"
[ "$(cat /sys/class/net/$VM_A/mtu)" = 4200 ] || fail "the fix did not set $VM_A's MTU"
[ "$(cat $cm/rxe0/ports/1/default_roce_tos)" = 106 ] || fail "the fix did not set rxe0's rdma_cm ToS to 106"
grep -q "RoCE v2" "$cm/rxe0/ports/1/default_roce_mode" || fail "the fix did not set rxe0's rdma_cm mode"
sh fix.sh | tee again.txt
grep -qi "changed" again.txt && ! grep -qi " 0 changed\|nothing" again.txt && note "second run output above"
findings after.json | tee after.txt
grep -q "^mtu" after.txt && fail "check still finds an MTU difference after the fix"
grep -q "cm-tos\|cm-roce-mode" after.txt && fail "check still finds an rdma_cm difference after the fix"
sh fix.sh --rollback | tee rollback.txt || fail "the rollback failed"
[ "$(cat /sys/class/net/$VM_A/mtu)" = 1500 ] || fail "the rollback did not restore $VM_A's MTU"
[ "$(cat /sys/class/net/$VM_B/mtu)" = 1500 ] || fail "the rollback did not restore $VM_B's MTU"
findings rolledback.json >rolledback.txt
grep -q "^mtu" rolledback.txt || fail "check finds no MTU difference after the rollback"

# verify: rxe0 and rxe1 are rail 0's pair; the local transport runs both ends' scripts here.
rc=0
"$LINT" verify plan.json --transport local --duration 5s --format json --output verify.json \
  >verify.txt 2>&1 || rc=$?
cat verify.txt
python3 - verify.json <<'PY' || fail "verify did not pass (exit $rc)"
import json, sys
r = json.load(open(sys.argv[1]))
for f in r["findings"]:
    print(f["check"], f["severity"], f["device"], f["message"])
sys.exit(0 if not r["findings"] else 1)
PY
[ "$rc" -eq 0 ] || fail "roce-lint verify exited $rc"
