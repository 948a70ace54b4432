# Defect 1 of issue 42: the port's QP-counter mode is served as `rdma statistic qp mode` says
# it (kernel 6.1 answered the old request, without RDMA_NLDEV_ATTR_STAT_MODE, with EINVAL, and
# no mode was ever served), with 0 bound counters in mode none. The byte-for-byte comparison
# of the requests under strace is in rdma_qp_mode_auto.sh.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
rdma statistic qp mode link rxe0/1 | tee rdma-mode.txt
grep -q "auto off" rdma-mode.txt || fail "rdma says $(cat rdma-mode.txt), not auto off (mode none)"
exporter_start none 9511
scrape 9511 >none.prom
exporter_stop none
grep 'roce_rdma_qp_counter_mode\|roce_rdma_bound_counters' none.prom || true
[ "$(sample none.prom roce_rdma_qp_counter_mode 'device="rxe0"' 'port="1"' 'mode="none"')" = 1 ] ||
  fail "roce_rdma_qp_counter_mode{device=rxe0,mode=none} not served"
[ "$(sample none.prom roce_rdma_bound_counters 'device="rxe0"' 'port="1"')" = 0 ] ||
  fail "roce_rdma_bound_counters{device=rxe0} is not 0 in mode none"
