#!/bin/sh
# run-guest.sh [-o OUTDIR] [-k] SCRIPT... [-- QEMU_ARGS...]
# Boots Debian's kernel (tests/vm/kernel.sh) in QEMU with the host's root shared read-only over
# virtio-9p under a tmpfs overlay, runs each SCRIPT (bash, a host path) in the guest in order,
# one boot for all, and brings back each one's log, exit status and time to OUTDIR/results/:
#   NAME.rc  NAME.log  NAME.seconds  NAME.d/ (what the script wrote to $VM_ARTIFACTS)
# where NAME is the script's file name without .sh. QEMU_ARGS are appended to QEMU's command line
# (extra devices: -device pcie-root-port,…; the machine is q35). Prints each script's result,
# the boot time and the whole run's time. Exit status: 0 every script passed, 1 one failed (0
# with -k: the caller reads the results), 2 the guest did not bring results back, 77 skipped:
# no QEMU or busybox here (the reason is in OUTDIR/skipped).
# Environment: ROCEWATCH_BUILD (build folder, default <checkout>/build), ROCEWATCH_VM_KERNEL
# (kernel package, kernel.sh), ROCEWATCH_VM_ACCEL (tcg; kvm where nested KVM works),
# ROCEWATCH_VM_MEM (MiB, 1536), ROCEWATCH_VM_SMP (2), ROCEWATCH_VM_TIMEOUT (whole run, 540 s),
# ROCEWATCH_VM_CHECK_TIMEOUT (one script, 180 s).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=""
keep_going=0
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift 2 ;;
    -k) keep_going=1; shift ;;
    *) break ;;
  esac
done
scripts=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  [ -f "$1" ] || { echo "run-guest.sh: no such script: $1" >&2; exit 2; }
  scripts="$scripts$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
"
  shift
done
[ $# -eq 0 ] || shift
[ -n "$scripts" ] || { echo "usage: run-guest.sh [-o OUTDIR] [-k] SCRIPT... [-- QEMU_ARGS...]" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d /tmp/rocewatch-vm.XXXXXX)
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=${ROCEWATCH_BUILD:-$src/build}
[ ! -d "$build" ] || build=$(cd "$build" && pwd)
rm -f "$out/skipped"
for tool in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static apt-get:apt; do
  if ! command -v "${tool%%:*}" >/dev/null 2>&1; then
    echo "no ${tool%%:*} (scripts/install-deps.sh installs ${tool#*:})" | tee "$out/skipped" >&2
    exit 77
  fi
done

t_start=$(date +%s.%N)
kdir=$("$here/kernel.sh")
kver=$(cat "$kdir/.kver")
rm -rf "$out/share" "$out/results"
mkdir -p "$out/share" "$out/results"
"$here/initramfs.sh" "$kdir" "$out/initramfs.cpio.gz"
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
{
  echo "ROCEWATCH_VM_MAIN=$(q "$here/guest-main.sh")"
  echo "ROCEWATCH_SRC=$(q "$src")"
  echo "ROCEWATCH_BUILD=$(q "$build")"
  echo "ROCEWATCH_VM_KDIR=$(q "$kdir")"
  echo "ROCEWATCH_VM_KVER=$(q "$kver")"
  echo "ROCEWATCH_VM_CHECK_TIMEOUT=$(q "${ROCEWATCH_VM_CHECK_TIMEOUT:-180}")"
  echo "export ROCEWATCH_SRC ROCEWATCH_BUILD ROCEWATCH_VM_KVER"
} >"$out/share/guest.env"
# The scripts travel in the output folder: the guest sees the host's files as they are, but a
# script may live where the guest has its own (/run, /dev).
mkdir -p "$out/share/scripts.d"
printf '%s' "$scripts" | while IFS= read -r s; do
  cp "$s" "$out/share/scripts.d/"
  echo "/run/vm-out/scripts.d/$(basename "$s")"
done >"$out/share/scripts"

accel=${ROCEWATCH_VM_ACCEL:-tcg}
cpu=max
[ "$accel" != kvm ] || cpu=host
echo "run-guest.sh: booting $kver ($accel) for $(printf '%s' "$scripts" | wc -l) script(s); output in $out"
t_qemu=$(date +%s.%N)
qemu_pid=""
cleanup() {
  if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
    kill -9 "$qemu_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'cleanup; exit 2' INT TERM HUP
timeout -k 5 "${ROCEWATCH_VM_TIMEOUT:-540}" qemu-system-x86_64 \
  -machine "${ROCEWATCH_VM_MACHINE:-q35}" -accel "$accel" -cpu "$cpu" \
  -m "${ROCEWATCH_VM_MEM:-1536}" -smp "${ROCEWATCH_VM_SMP:-2}" \
  -nodefaults -no-user-config -display none -no-reboot -nic none \
  -kernel "$kdir/boot/vmlinuz-$kver" -initrd "$out/initramfs.cpio.gz" \
  -append "console=ttyS0 panic=-1 quiet loglevel=4" \
  -serial "file:$out/console.log" \
  -virtfs local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap \
  -virtfs "local,path=$out/share,mount_tag=out,security_model=none" \
  "$@" </dev/null >"$out/qemu.log" 2>&1 &
qemu_pid=$!
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
qemu_pid=""
t_end=$(date +%s.%N)

if [ "$qemu_rc" -ne 0 ]; then
  echo "run-guest.sh: QEMU exit $qemu_rc (124: the run went past ${ROCEWATCH_VM_TIMEOUT:-540}s); the console ends:" >&2
  tail -n 15 "$out/console.log" >&2
fi
if [ ! -f "$out/share/results.tar" ]; then
  echo "run-guest.sh: the guest brought no results back (QEMU exit $qemu_rc; 124: it ran past ${ROCEWATCH_VM_TIMEOUT:-540}s)" >&2
  echo "--- qemu.log" >&2; tail -n 20 "$out/qemu.log" >&2
  echo "--- console.log (end)" >&2; tail -n 40 "$out/console.log" >&2
  exit 2
fi
tar -C "$out/results" -xf "$out/share/results.tar"
failed=0
for name in $(printf '%s' "$scripts" | sed 's|.*/||; s|\.sh$||'); do
  rc=$(cat "$out/results/$name.rc" 2>/dev/null || echo missing)
  if [ "$rc" = 0 ]; then
    echo "vm: PASS $name ($(cat "$out/results/$name.seconds")s)"
  else
    failed=1
    echo "vm: FAIL $name (exit $rc); its log ends:"
    tail -n 30 "$out/results/$name.log" 2>/dev/null | sed 's/^/    /'
  fi
done
awk -v b="$(cat "$out/share/booted" 2>/dev/null || echo '?')" -v a="$t_start" -v q="$t_qemu" -v e="$t_end" \
  'BEGIN { printf "vm: boot to the guest main %ss (guest uptime); QEMU ran %.1fs; whole run %.1fs (kernel and initramfs %.1fs)\n", b, e - q, e - a, q - a }' |
  tee "$out/results/timing.txt"
[ "$failed" -eq 0 ] || [ "$keep_going" -eq 1 ] || exit 1
exit 0
