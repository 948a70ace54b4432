# Defect 3 of issue 42: an rdma_cm configfs group created while the exporter runs (what the
# `mkdir … && echo 106 > …/default_roce_tos` of `roce-lint fix` does) is served without a restart,
# and one removed leaves.
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
cm=/sys/kernel/config/rdma_cm
[ -d "$cm" ] || fail "no $cm"
rmdir "$cm/rxe0" 2>/dev/null || true
exporter_start cm 9531
scrape 9531 >before.prom
[ "$(count before.prom roce_cm_default_tos 'device="rxe0"')" -eq 0 ] || fail "rxe0 served before its group existed"
mkdir "$cm/rxe0"
echo 106 >"$cm/rxe0/ports/1/default_roce_tos"
trap 'rmdir "$cm/rxe0" 2>/dev/null || true' EXIT
scrape 9531 >after.prom
got=$(sample after.prom roce_cm_default_tos 'device="rxe0"' 'port="1"')
[ "$got" = 106 ] || fail "roce_cm_default_tos{device=rxe0} is '$got' after the group was created with 106: $(grep roce_cm after.prom)"
echo 32 >"$cm/rxe0/ports/1/default_roce_tos"
scrape 9531 >changed.prom
[ "$(sample changed.prom roce_cm_default_tos 'device="rxe0"' 'port="1"')" = 32 ] || fail "the changed ToS is not served"
rmdir "$cm/rxe0"
scrape 9531 >removed.prom
[ "$(count removed.prom roce_cm_default_tos 'device="rxe0"')" -eq 0 ] || fail "rxe0 still served after rmdir"
grep roce_cm after.prom
