#!/bin/sh
# The README's main command: installs what is missing, builds, and serves the
# bundled example node (tests/fixtures/mlx5-roce, a replayed 4-NIC ConnectX-7
# RoCE node) on http://127.0.0.1:9879/metrics until Ctrl-C.
set -eu
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
./scripts/build.sh
PORT=${PORT:-9879}
echo "== roce_exporter replaying tests/fixtures/mlx5-roce on http://127.0.0.1:$PORT/metrics"
./build/exporter/roce_exporter --replay tests/fixtures/mlx5-roce \
  --web.listen-address="127.0.0.1:$PORT" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT INT TERM
for _ in 1 2 3 4 5 6 7 8 9 10; do
  curl -sf "http://127.0.0.1:$PORT/metrics" -o /tmp/rocewatch-demo.prom && break
  sleep 0.5
done
echo "== a few series from the scrape:"
grep -E '^roce_(port_state|pcie_link_width|ecn_enabled\{netdev="ens1f0np0",point="np",priority="3"|hw_stat_total\{device="mlx5_0",port="1",counter="np_cnp_sent")' /tmp/rocewatch-demo.prom
echo "== $(grep -vc '^#' /tmp/rocewatch-demo.prom) series served; Ctrl-C to stop"
wait $pid
