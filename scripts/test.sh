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
ctest --output-on-failure -j "$(nproc)" --timeout 300 -LE '^packaging$'
# The Debian packages (issue 19): built, installed into a fresh Debian 12 root and purged. It
# builds the binaries once more (dpkg-buildflags), so it runs alone; skipped when not root.
echo "== Debian packages"
ctest --output-on-failure -L '^packaging$'
# Again under ASan, UBSan and LeakSanitizer, then each fuzz target for a short while
# (docs/testing.md); ROCEWATCH_SKIP_SANITIZE=1 leaves this out of a local run.
cd "$OLDPWD"
[ "${ROCEWATCH_SKIP_SANITIZE:-0}" = 1 ] || ./scripts/test-sanitize.sh
