#!/bin/sh
# roce-lint verify: perftest client (docs/verify.md)
set -u
dev='x'\''; touch pwned; echo '\''$(touch pwned2)`touch pwned3`
mlx5_0'
want='$(touch pwned4)'
pidfile='/tmp/p'\''id $(touch pwned6)'
port="${ROCEWATCH_SYSFS:-/sys}/class/infiniband/$dev/ports/1"
if [ ! -d "$port/gids" ]; then
  echo "rocewatch-verify: error: no RDMA device $dev here ($port/gids does not exist)"
  exit 3
fi
idx=
for f in "$port"/gids/*; do
  i=${f##*/}
  [ "$(cat "$f" 2>/dev/null)" = "$want" ] || continue
  case "$(cat "$port/gid_attrs/types/$i" 2>/dev/null)" in
    *[Vv]2*) idx=$i; break ;;
  esac
done
if [ -z "$idx" ]; then
  echo "rocewatch-verify: error: $dev has no RoCE v2 GID for $want (the planned roce_ip is not on its netdev?)"
  exit 3
fi
echo "rocewatch-verify: gid_index=$idx"
tool='ib_write_bw"; reboot'
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "rocewatch-verify: error: $tool is not installed (Debian/Ubuntu: apt-get install perftest)"
  exit 4
fi
# Its own process group (setsid), so that the clean-up stops everything it started, and a
# deadline of its own (timeout) should roce-lint itself go away.
run=
if command -v setsid >/dev/null 2>&1; then run="setsid"; fi
if command -v timeout >/dev/null 2>&1; then run="$run timeout -k 5 95"; fi
$run "$tool" -x "$idx" -d 'x'\''; touch pwned; echo '\''$(touch pwned2)`touch pwned3`
mlx5_0' -i 1 -p 18515 -F --report_gbits -s 65536 -q 1 -D 30 --tclass=106 -m 4096 '10.0.0.1; touch pwned5' &
pid=$!
echo "$pid" > "$pidfile"
wait "$pid"
rc=$?
rm -f "$pidfile"
exit "$rc"
