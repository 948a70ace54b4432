#!/bin/sh
# Builds the roce-exporter and roce-lint Debian packages from the working tree into OUT
# (default build/deb): the tracked and untracked-but-not-ignored files are staged into
# OUT/src/rocewatch-VERSION with packaging/debian as debian/, then dpkg-buildpackage -b
# (debhelper, Release, dpkg-buildflags). Prints the paths of the two .deb files.
#
# PREBUILT=DIR packages the binaries a build of this same working tree made in DIR
# (scripts/build.sh's build/: CI, whose tests ran against them) instead of compiling them again;
# DIR's binaries must report this tree's revision.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
OUT=${OUT:-$root/build/deb}
case $OUT in /*) ;; *) OUT=$root/$OUT ;; esac
version=$(dpkg-parsechangelog -l packaging/debian/changelog -SVersion)
revision=$(git describe --always --dirty --tags 2>/dev/null || echo unknown)
prebuilt=""
if [ -n "${PREBUILT:-}" ]; then
  prebuilt=$(cd "$PREBUILT" && pwd)
  for b in exporter/roce_exporter lint/roce-lint; do
    [ -x "$prebuilt/$b" ] || { echo "build-deb: PREBUILT=$PREBUILT has no $b" >&2; exit 1; }
    built=$("$prebuilt/$b" --version 2>&1 | head -n 1)
    case $built in
      *" $version "*"$revision"*) ;;
      *) echo "build-deb: $prebuilt/$b is '$built', not $version of this tree ($revision)" >&2; exit 1 ;;
    esac
  done
fi
src=$OUT/src/rocewatch-$version
rm -rf "$src" "$OUT"/*.deb "$OUT"/src/*.deb "$OUT"/src/*.buildinfo "$OUT"/src/*.changes
mkdir -p "$src"
# Only what the binaries need: the tests, benchmarks and fixtures stay out of the build.
# shellcheck disable=SC2016 # the inner sh expands $f
git ls-files -z --cached --others --exclude-standard -- . ':!tests' ':!bench' \
  | xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh \
  | xargs -0 cp --parents -t "$src"
cp -r packaging/debian "$src/debian"
# debhelper gives the build a HOME of its own: keep ccache's directory (rebuilds nearly free).
if command -v ccache >/dev/null 2>&1; then
  CCACHE_DIR=${CCACHE_DIR:-$(ccache -k cache_dir)}
  export CCACHE_DIR
fi
# No -dbgsym packages.
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} noddebs"
(cd "$src" && env ROCEWATCH_REVISION="$revision" ${prebuilt:+ROCEWATCH_PREBUILT="$prebuilt"} dpkg-buildpackage -b -us -uc -j"${JOBS:-$(nproc)}" \
  >"$OUT/build.log" 2>&1) || { tail -n 60 "$OUT/build.log" >&2; exit 1; }
mv "$OUT"/src/*.deb "$OUT"/
ls "$OUT"/*.deb
