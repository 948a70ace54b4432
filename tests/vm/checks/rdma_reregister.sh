# Defect 2 of issue 42: a device that re-registers (rdma link delete, rdma link add) gets a new
# nldev index; the old one answers EINVAL (not ENODEV). A running exporter serves the device's
# RDMA netlink families again after it comes back, and nothing of it while it is gone.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
exporter_start rereg 9521
scrape 9521 >before.prom
[ "$(count before.prom roce_rdma_resources 'device="rxe1"')" -gt 0 ] ||
  fail "roce_rdma_resources{device=rxe1} not served before: $(grep roce_rdma_resources before.prom)"
old=$(rdma dev show rxe1 | cut -d: -f1)
rdma link delete rxe1 || fail "rdma link delete rxe1"
scrape 9521 >gone.prom
[ "$(count gone.prom roce_rdma_resources 'device="rxe1"')" -eq 0 ] || fail "rxe1 still served after its removal"
rdma link add rxe1 type rxe netdev "$VM_B" || fail "rdma link add rxe1"
new=$(rdma dev show rxe1 | cut -d: -f1)
note "rxe1: nldev index $old before, $new after"
[ "$old" != "$new" ] || fail "rxe1 kept its index $old: the test does not test a stale index"
wait_for 10 "rxe1 port ACTIVE" grep -q ACTIVE /sys/class/infiniband/rxe1/ports/1/state
scrape 9521 >back.prom
sleep 1
scrape 9521 >back2.prom
for f in back.prom back2.prom; do
  [ "$(count "$f" roce_rdma_resources 'device="rxe1"')" -gt 0 ] ||
    fail "roce_rdma_resources{device=rxe1} not served after re-registration ($f): $(grep 'roce_rdma_resources\|collector_success' "$f")"
  [ "$(count "$f" roce_rdma_qp_counter_mode 'device="rxe1"')" -eq 1 ] ||
    fail "roce_rdma_qp_counter_mode{device=rxe1} not served after re-registration ($f)"
done
grep 'roce_rdma_resources{device="rxe1"' back2.prom
