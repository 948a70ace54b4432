# The guest is the real kernel with the host's tools: Debian's kernel runs, the host's root is
# read-only under a writable overlay, configfs and the RDMA modules load.
set -eu
echo "kernel $(uname -r)"
test "$(uname -r)" = "$ROCEWATCH_VM_KVER"
if touch /usr/.vm-write-test 2>/dev/null; then rm /usr/.vm-write-test; else echo "overlay not writable" >&2; exit 1; fi
test -d /sys/kernel/config || { echo "no configfs" >&2; exit 1; }
modprobe rdma_rxe
modprobe rdma_cm
test -d /sys/kernel/config/rdma_cm || { echo "rdma_cm has no configfs group" >&2; exit 1; }
rdma link show
echo ok
