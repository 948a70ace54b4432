#!/bin/sh
# The README's test command: installs what is missing, builds, and runs every test (unit,
# kernel netns tests when root, end-to-end with real promtool, Prometheus, Alertmanager,
# VictoriaMetrics, lldpd, sshd, Chromium), the Debian packages, then the whole suite again under
# ASan/UBSan/LSan and the fuzzers. Exit status 0 only when everything passed. Prints how long
# each stage took at the end (docs/testing.md "How long CI takes").
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
BUILD_DIR=${BUILD_DIR:-build}
STAGES=$(mktemp)
trap 'rm -f "$STAGES"' EXIT

# stage NAME COMMAND...: runs COMMAND, records its wall time; a failure ends the run (after the
# times so far are printed).
stage() {
  name=$1
  shift
  echo "== $name"
  t0=$(date +%s)
  rc=0
  "$@" || rc=$?
  printf '%-34s %5ss%s\n' "$name" $(($(date +%s) - t0)) "$([ "$rc" -eq 0 ] || echo "  FAILED ($rc)")" >>"$STAGES"
  if [ "$rc" -ne 0 ]; then
    summary
    exit "$rc"
  fi
}
summary() {
  echo "== stage times (wall)"
  cat "$STAGES"
  printf '%-34s %5ss\n' "total" $(($(date +%s) - start))
}
start=$(date +%s)

stage "install dependencies" ./scripts/install-deps.sh
stage "build ($BUILD_DIR)" ./scripts/build.sh
stage "generator self-test" python3 tools/gen/test_node_tree.py
stage "ctest (unit, kernel, e2e)" sh -c "cd '$BUILD_DIR' && ctest --output-on-failure -j $(nproc) --timeout 300 -LE '^packaging\$'"

# The Debian packages (issue 19): built, installed into a fresh Debian 12 root and purged. Much of
# it waits on the network and disk (mmdebstrap, apt in the root), so it runs beside the sanitizer
# build, its output kept until it ends; skipped by its own test when not root.
pkg_log=$(mktemp)
pkg_t0=$(date +%s)
(cd "$BUILD_DIR" && ctest --output-on-failure -L '^packaging$' >"$pkg_log" 2>&1; echo $? >"$pkg_log.rc") &
pkg_pid=$!
finish_packages() {
  wait "$pkg_pid" || true
  echo "== Debian packages (ran beside the sanitizer pass)"
  cat "$pkg_log"
  rc=$(cat "$pkg_log.rc" 2>/dev/null || echo 1)
  printf '%-34s %5ss%s\n' "Debian packages (in parallel)" $(($(date +%s) - pkg_t0)) \
    "$([ "$rc" -eq 0 ] || echo "  FAILED ($rc)")" >>"$STAGES"
  rm -f "$pkg_log" "$pkg_log.rc"
  return "$rc"
}

# Again under ASan, UBSan and LeakSanitizer, then each fuzz target for a short while
# (docs/testing.md); ROCEWATCH_SKIP_SANITIZE=1 leaves this out of a local run.
san_rc=0
if [ "${ROCEWATCH_SKIP_SANITIZE:-0}" != 1 ]; then
  t0=$(date +%s)
  ./scripts/test-sanitize.sh || san_rc=$?
  printf '%-34s %5ss%s\n' "sanitizers and fuzzers" $(($(date +%s) - t0)) \
    "$([ "$san_rc" -eq 0 ] || echo "  FAILED ($san_rc)")" >>"$STAGES"
fi
pkg_rc=0
finish_packages || pkg_rc=$?
cd "$root"
summary
[ "$san_rc" -eq 0 ] && [ "$pkg_rc" -eq 0 ]
