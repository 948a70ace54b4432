#!/bin/sh
# kernel.sh [PACKAGE]: prints the folder holding Debian's kernel image unpacked (boot/vmlinuz-*,
# lib/modules/<version>/ with modules.dep), fetching it with the package tools on first use.
# PACKAGE: a linux-image package or meta-package (default linux-image-amd64, the 6.1 kernel the
# mirror has now; linux-image-6.12-amd64 is the second generation). A meta-package is resolved
# to the image it depends on. The unpacked tree is cached outside the checkout, keyed by package
# and version: ${ROCEWATCH_VM_CACHE:-/var/cache/rocewatch-vm}/<package>_<version>/. Nothing is
# installed on the host.
set -eu
pkg=${1:-${ROCEWATCH_VM_KERNEL:-linux-image-amd64}}
cache=${ROCEWATCH_VM_CACHE:-/var/cache/rocewatch-vm}
mkdir -p "$cache"

# A meta-package (no vmlinuz of its own) depends on exactly one linux-image-<abi>-amd64.
case "$pkg" in
  linux-image-amd64 | linux-image-*-amd64)
    dep=$(apt-cache depends "$pkg" 2>/dev/null | sed -n 's/^  Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
    [ -z "$dep" ] || pkg=$dep
    ;;
esac
version=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^  Candidate: //p')
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  # Offline with a cache: take the newest unpacked tree of that package.
  dir=$(ls -d "$cache/${pkg}_"*/ 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$dir" ] && [ -f "$dir/.complete" ]; then echo "${dir%/}"; exit 0; fi
  echo "kernel.sh: the package index has no $pkg (apt-get update?) and $cache has no copy" >&2
  exit 1
fi
dir="$cache/${pkg}_$version"
if [ -f "$dir/.complete" ]; then echo "$dir"; exit 0; fi

# One fetch at a time per cache (two test runs at once share it).
exec 9>"$cache/.lock"
flock 9
if [ ! -f "$dir/.complete" ]; then
  rm -rf "$dir" "$dir.tmp"
  mkdir -p "$dir.tmp"
  echo "kernel.sh: fetching $pkg $version" >&2
  (cd "$dir.tmp" && apt-get download -q "$pkg=$version" >&2)
  deb=$(ls "$dir.tmp"/*.deb)
  dpkg-deb -x "$deb" "$dir.tmp"
  rm -f "$deb"
  kver=$(ls "$dir.tmp/lib/modules")
  # The guest has only busybox's modprobe: it needs modules.dep (the image ships none).
  busybox depmod -b "$dir.tmp" "$kver"
  echo "$kver" >"$dir.tmp/.kver"
  touch "$dir.tmp/.complete"
  mv "$dir.tmp" "$dir"
fi
echo "$dir"
