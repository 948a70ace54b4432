#!/bin/sh
# check-result.sh OUTDIR NAME: one guest script's result from the run that run-guest.sh left in
# OUTDIR (ctest's vm_<NAME>): prints its log, and passes when it exited 0 in the guest. When
# checks/NAME.host.sh exists, it then runs on the host with the script's artifacts folder
# (OUTDIR/results/NAME.d) as its argument, for what is judged outside the guest.
set -eu
out=$1
name=$2
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$out/skipped" ]; then
  echo "vm: the guest run was skipped: $(cat "$out/skipped")"
  exit 77
fi
rcfile="$out/results/$name.rc"
if [ ! -f "$rcfile" ]; then
  echo "vm: no result for $name in $out/results: the guest did not run it (see vm_guest_run's output and $out/console.log)" >&2
  exit 1
fi
cat "$out/results/$name.log"
rc=$(cat "$rcfile")
echo "vm: $name exited $rc in the guest after $(cat "$out/results/$name.seconds")s"
[ "$rc" = 0 ] || exit 1
if [ -f "$here/checks/$name.host.sh" ]; then
  echo "vm: judging $name's artifacts on the host"
  bash "$here/checks/$name.host.sh" "$out/results/$name.d"
fi
