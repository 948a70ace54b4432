#!/bin/sh
# Configures BUILD_DIR (first argument) for the sanitizer and fuzz builds: clang, ASan + UBSan
# (+ LSan) and libFuzzer's coverage hooks on every target of ours (ROCEWATCH_FUZZ implies
# ROCEWATCH_SANITIZE), -O1 with line tables only: quick to build, and stack traces still name
# files and lines. Shared by scripts/test-sanitize.sh and scripts/fuzz.sh, so either can build
# in the other's tree. CC_FOR_FUZZ / CXX_FOR_FUZZ choose the compilers (default clang).
set -eu
cd "$(dirname "$0")/.."
BUILD_DIR=$1
. ./scripts/ccache-env.sh
cmake -S . -B "$BUILD_DIR" -G Ninja \
  -DCMAKE_C_COMPILER="${CC_FOR_FUZZ:-clang}" -DCMAKE_CXX_COMPILER="${CXX_FOR_FUZZ:-clang++}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DROCEWATCH_WERROR=ON -DROCEWATCH_SANITIZE=ON -DROCEWATCH_FUZZ=ON \
  -DROCEWATCH_BUILD_BENCHMARKS=OFF >/dev/null
