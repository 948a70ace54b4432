#!/bin/sh
# Configures and builds rocewatch into BUILD_DIR (default: build), Release with
# debug info, warnings as errors.
set -eu
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
# ccache, where installed, makes rebuilds of unchanged files (a second clone, CI on a
# developer's machine) nearly free; it changes nothing in what is built.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROCEWATCH_WERROR=ON "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
