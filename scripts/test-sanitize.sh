#!/bin/sh
# The whole project and its test suite built with clang under AddressSanitizer,
# UndefinedBehaviorSanitizer and LeakSanitizer in build-asan/, the unit, kernel and end-to-end
# tests run there, then every fuzz target for FUZZ_SECONDS (default 10) each (scripts/fuzz.sh,
# on the same build). Exit status 0 only when all of it is clean. docs/testing.md explains the
# options, what is left out and why, and how long it takes.
#
#   scripts/test-sanitize.sh [all|build|test]   build: only the build; test: only the tests and
#                                               fuzzers, on a build made before (scripts/test.sh
#                                               builds beside its first ctest); all (default): both
set -eu
cd "$(dirname "$0")/.."
. ./scripts/ccache-env.sh
BUILD_DIR=${SANITIZE_BUILD_DIR:-build-asan}
JOBS=${JOBS:-$(nproc)}
FUZZ_SECONDS=${FUZZ_SECONDS:-10}
PHASE=${1:-all}
case $PHASE in
  all | build | test) ;;
  *) echo "usage: scripts/test-sanitize.sh [all|build|test]" >&2; exit 2 ;;
esac

if [ "$PHASE" != test ]; then
  echo "== sanitizer build ($BUILD_DIR: clang, ASan + UBSan + LSan, fuzzers)"
  ./scripts/configure-sanitize.sh "$BUILD_DIR"
  cmake --build "$BUILD_DIR" -j "$JOBS"
fi
[ "$PHASE" != build ] || exit 0

# Every binary the tests start inherits these: leaks and initialization-order bugs are errors,
# UB stops the process. Reports go to files under $LOGS, so that one from a process whose exit
# status a test does not look at (an exporter under an end-to-end script) still fails the run.
SUPPRESSIONS="$(pwd)/tests/fuzz/sanitizer"
LOGS="$(cd "$BUILD_DIR" && pwd)/sanitizer-logs"
rm -rf "$LOGS"
mkdir -p "$LOGS"
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:log_path=$LOGS/asan"
export LSAN_OPTIONS="suppressions=$SUPPRESSIONS/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$SUPPRESSIONS/ubsan.supp:log_path=$LOGS/ubsan"

echo "== ctest under sanitizers (unit, kernel, e2e)"
status=0
( cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS" --timeout 600 -L '^(unit|kernel|e2e)$' ) ||
  status=$?
reports=$(find "$LOGS" -type f | sort)
if [ -n "$reports" ]; then
  echo "== sanitizer reports"
  for f in $reports; do
    echo "--- $f"
    cat "$f"
  done
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "test-sanitize: failed (ctest or sanitizer reports above)" >&2
  exit "$status"
fi
unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS

echo "== fuzzers, ${FUZZ_SECONDS}s each"
FUZZ_BUILD_DIR="$BUILD_DIR" ./scripts/fuzz.sh "$FUZZ_SECONDS"
