#!/bin/sh
# The README's test command: installs what is missing, builds, and runs every
# test (unit, kernel netns tests when root, end-to-end with real promtool,
# Prometheus and Alertmanager). Exit status 0 only when everything passed.
set -eu
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
./scripts/build.sh
echo "== generator self-test"
python3 tools/gen/test_node_tree.py
echo "== ctest"
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)" --timeout 300
