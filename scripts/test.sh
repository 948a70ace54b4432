#!/bin/sh
# The README's test command: installs what is missing, builds, and runs every test (unit,
# kernel netns tests when root, end-to-end with real promtool, Prometheus, Alertmanager,
# VictoriaMetrics, lldpd, sshd, Chromium), the Debian packages and images, then the whole suite
# again under ASan/UBSan/LSan and the fuzzers. Exit status 0 only when everything passed. Prints
# how long each stage took at the end (docs/testing.md "How long it takes").
#
# The order keeps both cores busy: the sanitizer build (niced) and the package test start as
# soon as build/ exists and run beside the first ctest, which spends most of its time waiting on
# the processes it starts; the sanitizer ctest and the fuzzers run after the first ctest (two
# ctest runs at once would race for the loopback sshd's port: tests/CMakeLists.txt).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
BUILD_DIR=${BUILD_DIR:-build}
STAGES=$(mktemp)
LOGS=$(mktemp -d)
BG=""
trap 'stop_background; rm -rf "$STAGES" "$LOGS"' EXIT

# stage NAME COMMAND...: runs COMMAND, records its wall time; a failure ends the run (after the
# times so far are printed).
stage() {
  name=$1
  shift
  echo "== $name"
  t0=$(date +%s)
  rc=0
  "$@" || rc=$?
  record "$name" "$t0" "$rc"
  if [ "$rc" -ne 0 ]; then
    summary
    exit "$rc"
  fi
}
record() {
  printf '%-44s %5ss%s\n' "$1" $(($(date +%s) - $2)) "$([ "$3" -eq 0 ] || echo "  FAILED ($3)")" >>"$STAGES"
}
summary() {
  echo "== stage times (wall)"
  cat "$STAGES"
  printf '%-44s %5ss\n' "total" $(($(date +%s) - start))
}

# background ID NAME COMMAND...: starts COMMAND beside what follows, its output kept in a log;
# finish ID prints the log (all of it, or its end for a long one that passed) and records the
# time from start to end, and returns COMMAND's status.
background() {
  id=$1
  name=$2
  shift 2
  echo "== $name: started in the background"
  date +%s >"$LOGS/$id.t0"
  echo "$name" >"$LOGS/$id.name"
  # (set -e would end the subshell at a failing COMMAND before it wrote its status and end time.)
  (rc=0; "$@" >"$LOGS/$id.log" 2>&1 || rc=$?; echo "$rc" >"$LOGS/$id.rc"; date +%s >"$LOGS/$id.t1") &
  echo $! >"$LOGS/$id.pid"
  BG="$BG $id"
}
finish() {
  id=$1
  wait "$(cat "$LOGS/$id.pid")" || true
  rc=$(cat "$LOGS/$id.rc" 2>/dev/null || echo 1)
  echo "== $(cat "$LOGS/$id.name") (ran in the background)"
  if [ "$rc" -eq 0 ] && [ "$(wc -l <"$LOGS/$id.log")" -gt 200 ]; then
    echo "… (the first $(($(wc -l <"$LOGS/$id.log") - 40)) lines left out)"
    tail -n 40 "$LOGS/$id.log"
  else
    cat "$LOGS/$id.log"
  fi
  printf '%-44s %5ss%s\n' "$(cat "$LOGS/$id.name")" $(($(cat "$LOGS/$id.t1") - $(cat "$LOGS/$id.t0"))) \
    "$([ "$rc" -eq 0 ] || echo "  FAILED ($rc)")" >>"$STAGES"
  BG=$(echo "$BG" | sed "s/ $id\b//")
  return "$rc"
}
# A run that ends early (a failed stage) takes its background work with it.
kill_tree() {
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
stop_background() {
  for id in $BG; do
    [ -f "$LOGS/$id.rc" ] || kill_tree "$(cat "$LOGS/$id.pid")"
  done
}
start=$(date +%s)

stage "install dependencies" ./scripts/install-deps.sh
stage "build ($BUILD_DIR)" ./scripts/build.sh
stage "generator self-test" python3 tools/gen/test_node_tree.py

# Under ASan, UBSan and LeakSanitizer, then each fuzz target for a short while (docs/testing.md);
# ROCEWATCH_SKIP_SANITIZE=1 leaves this out of a local run.
sanitize=1
[ "${ROCEWATCH_SKIP_SANITIZE:-0}" != 1 ] || sanitize=0
[ "$sanitize" -eq 0 ] ||
  background asan "sanitizer build (build-asan, beside ctest)" nice -n 10 ./scripts/test-sanitize.sh build
# The Debian packages (made from build/'s binaries, the ones the tests run) installed into a
# fresh Debian 12 root and purged, and the OCI images; much of it waits on the mirror and the
# disk. Skipped by its own tests when not root.
background packages "Debian packages and images (label packaging)" \
  env PREBUILT="$root/$BUILD_DIR" sh -c "cd '$BUILD_DIR' && ctest --output-on-failure -L '^packaging\$'"

stage "ctest (unit, kernel, e2e)" sh -c "cd '$BUILD_DIR' && ctest --output-on-failure -j $(nproc) --timeout 300 -LE '^packaging\$'"

san_rc=0
if [ "$sanitize" -eq 1 ]; then
  finish asan || san_rc=$?
  if [ "$san_rc" -eq 0 ]; then
    t0=$(date +%s)
    ./scripts/test-sanitize.sh test || san_rc=$?
    record "ctest under sanitizers, fuzzers" "$t0" "$san_rc"
  fi
fi
pkg_rc=0
finish packages || pkg_rc=$?
cd "$root"
summary
[ "$san_rc" -eq 0 ] && [ "$pkg_rc" -eq 0 ]
