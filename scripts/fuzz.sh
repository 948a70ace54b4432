#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan + libFuzzer, see
# docs/testing.md) and runs each for SECONDS (default 10) on its checked-in seed corpus.
# Runs FUZZ_JOBS (default: the cores) targets at a time. Stops at the first crash, leak, timeout
# (5 s per input) or out-of-memory (1 GiB), once its batch has run, which
# libFuzzer saves under BUILD_DIR/fuzz-artifacts/; exit status 1 then.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      e.g. scripts/fuzz.sh 60 optics_raw dcbnl
#
# FUZZ_BUILD_DIR (default build-fuzz) is the build directory; scripts/test-sanitize.sh points it
# at its own ASan build, which has the fuzzers too. New inputs the fuzzers find go to
# BUILD_DIR/fuzz-work/<target>/, never into the checked-in corpus.
set -eu
cd "$(dirname "$0")/.."
. ./scripts/ccache-env.sh
SECONDS_EACH=${1:-10}
if [ $# -gt 0 ]; then shift; fi
BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-$(nproc)}

./scripts/configure-sanitize.sh "$BUILD_DIR"
cmake --build "$BUILD_DIR" -j "$JOBS" --target fuzzers

if [ $# -gt 0 ]; then
  TARGETS="$*"
else
  TARGETS=$(for f in tests/fuzz/*_fuzz.cpp; do basename "$f" _fuzz.cpp; done)
fi

# Leaks are failures (libFuzzer checks after each input that allocated); UB stops at once.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
ARTIFACTS="$BUILD_DIR/fuzz-artifacts"
mkdir -p "$ARTIFACTS"

# Runs one target; prints one line, and the end of its log when it failed.
run_one() {
  target=$1
  binary="$BUILD_DIR/tests/fuzz/${target}_fuzz"
  work="$BUILD_DIR/fuzz-work/$target"
  log="$BUILD_DIR/fuzz-work/$target.log"
  mkdir -p "$work"
  if "$binary" -max_total_time="$SECONDS_EACH" -timeout=5 -rss_limit_mb=1024 \
      -artifact_prefix="$ARTIFACTS/$target-" -print_final_stats=1 \
      "$work" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    new=$(sed -n 's/^stat::new_units_added: *//p' "$log")
    printf '== fuzz %-18s %ss: ok, %s runs, %s new inputs\n' "$target" "$SECONDS_EACH" \
      "${runs:-?}" "${new:-?}"
  else
    printf '== fuzz %-18s %ss: FAILED\n' "$target" "$SECONDS_EACH"
    tail -n 60 "$log"
    echo "fuzz: $target failed; the input is in $ARTIFACTS/ (log: $log)." >&2
    echo "Reproduce: $binary $ARTIFACTS/$target-<crash file>" >&2
    return 1
  fi
}

# FUZZ_JOBS targets at a time (one core each), a batch at a time; stops after the batch in which
# a target failed.
FUZZ_JOBS=${FUZZ_JOBS:-$JOBS}
# shellcheck disable=SC2086 # one word per target name
set -- $TARGETS
while [ $# -gt 0 ]; do
  pids=""
  n=0
  while [ $# -gt 0 ] && [ "$n" -lt "$FUZZ_JOBS" ]; do
    run_one "$1" &
    pids="$pids $!"
    n=$((n + 1))
    shift
  done
  failed=0
  for pid in $pids; do
    wait "$pid" || failed=1
  done
  [ "$failed" -eq 0 ] || exit 1
done
