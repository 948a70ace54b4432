#!/bin/sh
# roce-lint verify: perftest client (docs/verify.md)
set -u
dev=mlx5_1
want=0000:0000:0000:0000:0000:ffff:0a0a:0001
pidfile=/tmp/rocewatch-verify-00112233445566778899aabbccddeeff.pid
port="${ROCEWATCH_SYSFS:-/sys}/class/infiniband/$dev/ports/2"
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
tool=ib_write_bw
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "rocewatch-verify: error: $tool is not installed (Debian/Ubuntu: apt-get install perftest)"
  exit 4
fi
# Its own process group (setsid), so that the clean-up stops everything it started, and a
# deadline of its own (timeout) should roce-lint itself go away.
run=
if command -v setsid >/dev/null 2>&1; then run="setsid"; fi
if command -v timeout >/dev/null 2>&1; then run="$run timeout -k 5 95"; fi
$run "$tool" -x "$idx" -d mlx5_1 -i 2 -p 18600 -F --report_gbits -s 65536 -q 4 -D 30 -b --tclass=106 -m 4096 10.10.0.2 &
pid=$!
echo "$pid" > "$pidfile"
wait "$pid"
rc=$?
rm -f "$pidfile"
exit "$rc"
