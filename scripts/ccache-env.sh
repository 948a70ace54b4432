# shellcheck shell=sh
# Sourced by the build scripts (build.sh, configure-sanitize.sh, test-sanitize.sh, fuzz.sh):
# ccache, where installed, makes rebuilds of unchanged files (a second clone, CI on a developer's
# machine) nearly free; it changes nothing in what is built. Paths under the checkout are hashed
# relative to it and the build directory is not hashed, so a clone in another folder (CI's)
# finds what this one compiled.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER="${CMAKE_C_COMPILER_LAUNCHER:-ccache}"
  export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}"
  CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(pwd)}"
  CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
  export CCACHE_BASEDIR CCACHE_NOHASHDIR
  # The tests' precompiled header (tests/CMakeLists.txt) is cached only with these: nothing of
  # ours reads __DATE__ or __TIME__, and the header is included by -include, first.
  CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
  export CCACHE_SLOPPINESS
fi
