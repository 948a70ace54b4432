#!/bin/sh
# The guest's first process after the initramfs (tests/vm/init): sets up the guest (proc, sys,
# cgroup2, configfs, the unpacked kernel's modules at /lib/modules, busybox's modprobe), runs each
# guest script named in /run/vm-out/scripts in its own session with a time limit, keeps each
# one's log, exit status and time in a tmpfs, copies them out as one tar
# (/run/vm-out/results.tar: 9p costs ~50 ms a file) and powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
out=/run/vm-out
# shellcheck disable=SC1091
. "$out/guest.env"
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs shm /dev/shm
mount -t cgroup2 cgroup2 /sys/fs/cgroup
echo "vm: guest main started at uptime $(cut -d' ' -f1 /proc/uptime)s" >/dev/console
cut -d' ' -f1 /proc/uptime >"$out/booted"

# The host has no kmod: busybox's applets stand in (in the tmpfs overlay, not on the host).
mkdir -p /usr/local/sbin
for a in modprobe insmod rmmod lsmod poweroff; do
  command -v "$a" >/dev/null 2>&1 || ln -s /bin/busybox "/usr/local/sbin/$a"
done
# The kernel loads modules on demand (rdma_rxe's crc32 through "crypto-crc32") by running
# kernel.modprobe, /sbin/modprobe by default: the host has none.
command -v modprobe >/proc/sys/kernel/modprobe
mkdir -p "/lib/modules/$ROCEWATCH_VM_KVER"
mount --bind "$ROCEWATCH_VM_KDIR/lib/modules/$ROCEWATCH_VM_KVER" "/lib/modules/$ROCEWATCH_VM_KVER"
# configfs is a module in Debian's kernel: without it rdma_cm has no configfs group.
modprobe configfs && mount -t configfs configfs /sys/kernel/config
hostname rocewatch-vm
ip link set lo up

results=/run/vm-results
mkdir -p "$results"
while read -r script; do
  [ -n "$script" ] || continue
  name=$(basename "$script" .sh)
  mkdir -p "$results/$name.d"
  t0=$(cut -d' ' -f1 /proc/uptime)
  echo "vm: running $name" >/dev/console
  (
    cd "$results/$name.d" || exit 1
    VM_ARTIFACTS="$results/$name.d" VM_LIB="$ROCEWATCH_SRC/tests/vm/lib" \
      timeout -k 5 "${ROCEWATCH_VM_CHECK_TIMEOUT:-180}" \
      setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$results/$name.pgid" bash "$script"
  ) >"$results/$name.log" 2>&1 </dev/null
  rc=$?
  [ "$rc" -ne 124 ] || echo "vm: $name ran past ${ROCEWATCH_VM_CHECK_TIMEOUT:-180}s and was killed" >>"$results/$name.log"
  # What the script left running (an exporter, a perftest) ends with it.
  # SIGKILL is delivered asynchronously: wait (up to 10 s) until the group is gone, or the next
  # script may find its port still held (per_job met netlink_off's exporter on 127.0.0.1:9561).
  pg=$(cat "$results/$name.pgid" 2>/dev/null)
  if [ -n "$pg" ] && kill -9 -- "-$pg" 2>/dev/null; then
    i=0
    while kill -0 -- "-$pg" 2>/dev/null && [ "$i" -lt 50 ]; do
      sleep 0.2
      i=$((i + 1))
    done
  fi
  echo "$rc" >"$results/$name.rc"
  t1=$(cut -d' ' -f1 /proc/uptime)
  echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' >"$results/$name.seconds"
  echo "vm: $name exit $rc ($(cat "$results/$name.seconds")s)" >/dev/console
  # Out after each script: a run the host cuts short still brings back what finished.
  tar -C "$results" -cf "$out/results.tar.tmp" . && mv "$out/results.tar.tmp" "$out/results.tar"
done <"$out/scripts"
cut -d' ' -f1 /proc/uptime >"$results/uptime-at-end"
tar -C "$results" -cf "$out/results.tar.tmp" . && mv "$out/results.tar.tmp" "$out/results.tar"
sync
umount "$out"
poweroff -f
