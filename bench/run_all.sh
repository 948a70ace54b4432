#!/bin/sh
# Every figure in docs/performance.md, in one run on this machine:
#   bench/run_all.sh [BUILD_DIR]          (ROCEWATCH_BENCH_DATA=/tmp/rocewatch-bench)
# Generates the bench nodes (N = 1, 8, 16, 32 devices) and fleets (M = 100, 1,000,
# 10,000 nodes: about 4 GB of text at 10,000), then prints: the syscall floors and
# the exporter's collection on the fixture tree and on this machine's /sys, the
# in-process benchmarks, roce_exporter against node_exporter's infiniband collector,
# roce-lint over the fleets, and (with LOAD=1) the 60-second load test and the
# 10,000-scrape memory test.
# Run it on an otherwise idle machine: the figures are wall-clock times.
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
DATA=${ROCEWATCH_BENCH_DATA:-/tmp/rocewatch-bench}
export ROCEWATCH_BENCH_DATA="$DATA"
mkdir -p "$DATA"

section() { printf '\n== %s\n' "$*"; }

section "machine"
uname -srm
grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'
echo "$(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"

section "build"
cmake --build "$BUILD" --target bench optics_capture_writer >/dev/null
grep -q 'CMAKE_BUILD_TYPE:STRING=Rel' "$BUILD/CMakeCache.txt" ||
  echo "warning: $BUILD is not a release build; the figures will be slower than docs/performance.md"

section "inputs"
for n in 1 8 16 32; do
  [ -f "$DATA/n$n/capture.json" ] ||
    python3 tools/gen/bench_node.py "$DATA/n$n" --devices "$n" \
      --optics-writer "$BUILD/tests/exporter/optics/optics_capture_writer" >/dev/null
  echo "n$n: $(find "$DATA/n$n" -type f | wc -l) files"
done
if [ ! -s "$DATA/node8.prom" ]; then  # one 8-device node's /metrics, the fleets' template
  log=$(mktemp)
  "$BUILD/exporter/roce_exporter" --replay "$DATA/n8" --web.listen-address=127.0.0.1:0 2>"$log" &
  pid=$!
  port=""
  for _ in $(seq 100); do
    port=$(sed -n 's/.*msg=listening address=[0-9.]*:\([0-9]*\).*/\1/p' "$log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  curl -fsS "http://127.0.0.1:$port/metrics" >"$DATA/node8.prom"
  kill "$pid"
  rm -f "$log"
fi
echo "node8.prom: $(wc -c <"$DATA/node8.prom") bytes, $(grep -vc '^#' "$DATA/node8.prom") series"
"$BUILD/bench/exporter_bench" --list-reads="$DATA/reads16.txt" --tree="$DATA/n16"
"$BUILD/bench/exporter_bench" --list-reads="$DATA/reads-sys.txt" --tree=/sys
echo "one scrape reads $(wc -l <"$DATA/reads16.txt") sysfs files on n16, $(wc -l <"$DATA/reads-sys.txt") on /sys"

section "syscall floors, fixture tree n16 (naive: open+read+close each file; held: pread only)"
"$BUILD/bench/floor_naive" "$DATA/reads16.txt"
"$BUILD/bench/floor_held" "$DATA/reads16.txt"
section "syscall floors, this machine's /sys (its netdevs: no RDMA devices here)"
"$BUILD/bench/floor_naive" "$DATA/reads-sys.txt"
"$BUILD/bench/floor_held" "$DATA/reads-sys.txt"

section "exporter, in process"
"$BUILD/bench/exporter_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

section "roce_exporter vs node_exporter --collector.infiniband, whole process over HTTP"
for n in 16 32; do
  echo "-- n$n"
  python3 bench/compare_node_exporter.py --build "$BUILD" --node "$DATA/n$n" --scrapes 300
done

section "roce_exporter alone over HTTP: CPU, median and context switches a scrape"
for n in 16 32; do
  echo "-- n$n"
  python3 bench/scrape_cost.py --exporter "$BUILD/exporter/roce_exporter" --node "$DATA/n$n" --scrapes 500
done

section "roce-lint, in process"
"$BUILD/bench/lint_bench"

section "roce-lint check over whole fleets (a process per fleet)"
python3 bench/lint_fleet.py --build "$BUILD" --template "$DATA/node8.prom" --out "$DATA"

if [ "${LOAD:-0}" = 1 ]; then
  section "load: 64 clients for 60 s on n16"
  bench/load_test.sh "$BUILD" 64 60 "$DATA/n16"
  section "memory over 10,000+ scrapes: one client, every request a collection, 70 s on n16"
  EXPORTER_FLAGS=--web.coalesce-window=0 bench/load_test.sh "$BUILD" 1 70 "$DATA/n16"
fi
