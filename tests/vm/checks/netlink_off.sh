# Defect 8 of issue 42: --collector.rdma.netlink=false asks RDMA netlink nothing, as its help
# says: the hw counters come from the files, and what only RDMA netlink answers
# (roce_rdma_resources, the QP-counter mode and bound counters) is not served; with the default
# all of it is.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
"$EXPORTER" --help 2>&1 | grep -A4 'collector.rdma.netlink' | tee help.txt
grep -q 'roce_rdma_resources' help.txt || fail "--help does not say that netlink=false drops roce_rdma_resources"
exporter_start on 9561
exporter_start off 9562 --collector.rdma.netlink=false
scrape 9561 >on.prom
scrape 9562 >off.prom
exporter_stop on
exporter_stop off
for family in roce_rdma_resources roce_rdma_qp_counter_mode roce_rdma_bound_counters; do
  [ "$(count on.prom "$family" 'device="rxe0"')" -gt 0 ] || fail "$family not served with RDMA netlink"
  [ "$(count off.prom "$family")" -eq 0 ] || fail "$family served with --collector.rdma.netlink=false"
done
[ "$(count off.prom roce_hw_stat_total 'device="rxe0"')" -gt 0 ] || fail "no hw counters from the files"
[ "$(sample off.prom roce_exporter_collector_success 'collector="rdma"')" = 1 ] || fail "the rdma collector failed with netlink off"
