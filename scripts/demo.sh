#!/bin/sh
# The README's main command: installs what is missing, builds, and runs the demo
# cluster (examples/): 14 replayed GPU nodes with 2 RoCE NICs each and seeded
# faults, their exporters, roce-lint serve, Prometheus with the bundled rules
# and Alertmanager, all on loopback. Prints the lint report, then keeps running
# until Ctrl-C.
set -eu
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
./scripts/build.sh
exec python3 examples/run_demo.py --build "${BUILD_DIR:-build}" "$@"
