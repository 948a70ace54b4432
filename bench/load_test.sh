#!/bin/sh
# Load test of roce_exporter (issue: reliability): N concurrent clients on
# loopback for D seconds with wrk, against a replayed node. Prints requests,
# failures, collections per request (coalescing) and RSS over time.
#   bench/load_test.sh [BUILD_DIR] [CLIENTS] [SECONDS] [REPLAY_DIR]
# EXPORTER_FLAGS adds flags to the exporter: EXPORTER_FLAGS=--web.coalesce-window=0 with one
# client makes every request a collection (the 10,000-scrape memory test of docs/performance.md).
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
CLIENTS=${2:-64}
SECONDS_=${3:-60}
REPLAY=${4:-tests/fixtures/mlx5-roce}
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)"; exit 2; }

log=$(mktemp)
# shellcheck disable=SC2086 # EXPORTER_FLAGS is a list of flags
"$BUILD/exporter/roce_exporter" --replay "$REPLAY" --web.listen-address=127.0.0.1:0 \
  --web.max-threads=16 ${EXPORTER_FLAGS:-} 2>"$log" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
port=""
for _ in $(seq 50); do
  port=$(sed -n 's/.*msg=listening address=[0-9.]*:\([0-9]*\).*/\1/p' "$log")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$log"; exit 1; }
url="http://127.0.0.1:$port/metrics"
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
metric() { curl -s "$url" | awk -v m="$1" '$1 == m {print $2}'; }

curl -s "$url" >/dev/null   # warm-up: discovery and held descriptors
rss_start=$(rss)
coll_start=$(metric roce_exporter_collections_total)
(
  i=0
  while [ $i -lt "$SECONDS_" ]; do sleep 10; i=$((i + 10)); echo "rss_kib_at_${i}s $(rss)"; done
) &
sampler=$!
wrk -t"$(( CLIENTS < 4 ? CLIENTS : 4 ))" -c"$CLIENTS" -d"${SECONDS_}s" --latency "$url" | tee /tmp/rocewatch-wrk.txt
wait $sampler 2>/dev/null || true
coll_end=$(metric roce_exporter_collections_total)
coalesced=$(metric roce_exporter_coalesced_scrapes_total)
requests=$(awk '/requests in/ {print $1}' /tmp/rocewatch-wrk.txt)
errors=$(awk '/Socket errors|Non-2xx/ {print}' /tmp/rocewatch-wrk.txt)
echo "clients $CLIENTS, duration ${SECONDS_}s"
echo "requests $requests"
echo "failed: ${errors:-none}"
echo "collections $((${coll_end%.*} - ${coll_start%.*})) for $requests requests (coalesced scrapes: $coalesced)"
echo "rss_kib start $rss_start end $(rss) peak $(awk '/VmHWM/ {print $2}' "/proc/$pid/status")"
