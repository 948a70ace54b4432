#!/bin/sh
# rootfs.sh TREE OWNERS DEST PATH...: the root file system of one image, taken from TREE (the
# project's package and its Debian dependencies, unpacked by mmdebstrap --variant=extract).
# DEST gets, each from TREE and nothing else:
#   - every PATH (relative to TREE; a directory with all it holds, a link as a link plus
#     what it points to);
#   - every shared library the ELF files among them load, resolved by TREE's own dynamic
#     loader (--inhibit-cache, TREE's library directory only): a library that resolves outside
#     TREE, or not at all, is an error naming the file that needs it;
#   - the copyright file of every Debian package a kept file comes from (OWNERS: lines
#     "PACKAGE PATH", from the .deb files' listings);
#   - the usrmerge links where the tree has them (bin, lib, lib64, sbin), base-files'
#     os-release, the passwd, group (root and nobody) and nsswitch.conf (files, then DNS)
#     beside this script, and empty /tmp, /proc, /sys, /dev, /run.
# No shell, no dpkg or apt, no docs, man pages or locales.
set -eu
[ $# -ge 4 ] || { echo "usage: rootfs.sh TREE OWNERS DEST PATH..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
TREE=$(cd "$1" && pwd)
OWNERS=$2
mkdir -p "$3"
DEST=$(cd "$3" && pwd)
shift 3
# An extracted tree is not usr-merged (usrmerge's script does not run): /lib and /usr/lib.
libdirs="$TREE/lib/x86_64-linux-gnu:$TREE/usr/lib/x86_64-linux-gnu"
loader=""
for l in lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2; do
  if [ -f "$TREE/$l" ] && [ ! -L "$TREE/$l" ]; then loader=$l; fi
done
[ -n "$loader" ] || { echo "rootfs.sh: $TREE has no ld-linux-x86-64.so.2 (not an amd64 Debian tree?)" >&2; exit 1; }
kept=$(mktemp)
trap 'rm -f "$kept" "$kept.given"' EXIT

# keep REL: REL's physical path (its directory resolved inside TREE) copied as is; a link's
# target kept too. A target that leaves TREE is an error.
keep() {
  dir=$(realpath -e --relative-to="$TREE" "$TREE/$(dirname "$1")") || {
    echo "rootfs.sh: $1: no such directory in the unpacked packages" >&2; exit 1; }
  case $dir in ../* | ..) echo "rootfs.sh: $1 resolves outside the tree ($dir)" >&2; exit 1 ;; esac
  rel=$dir/$(basename "$1")
  rel=${rel#./}
  [ -e "$TREE/$rel" ] || [ -L "$TREE/$rel" ] || { echo "rootfs.sh: $rel is not in the unpacked packages" >&2; exit 1; }
  grep -qxF "$rel" "$kept" && return 0
  printf '%s\n' "$rel" >>"$kept"
  (cd "$TREE" && cp -a --parents "$rel" "$DEST")
  if [ -L "$TREE/$rel" ]; then
    # One hop at a time, an absolute target read as beneath TREE (libc6's lib64 link is one).
    target=$(readlink "$TREE/$rel")
    case $target in
      /*) keep "${target#/}" ;;
      *) keep "$(dirname "$rel")/$target" ;;
    esac
  fi
}

# libraries FILE: the libraries FILE loads, as paths relative to TREE.
libraries() {
  out=$("$TREE/$loader" --inhibit-cache --library-path "$libdirs" --list "$TREE/$1" 2>&1) || {
    echo "rootfs.sh: the loader cannot list the libraries of $1:" >&2; echo "$out" >&2; exit 1; }
  if printf '%s\n' "$out" | grep -q 'not found'; then
    echo "rootfs.sh: $1 needs libraries the packages do not provide:" >&2
    printf '%s\n' "$out" | grep 'not found' >&2
    exit 1
  fi
  for lib in $(printf '%s\n' "$out" | sed -n 's/^[[:space:]]*[^ ]* => \([^ ]*\) (0x[0-9a-f]*)$/\1/p'); do
    case $lib in
      "$TREE"/*) printf '%s\n' "${lib#"$TREE"/}" ;;
      *) echo "rootfs.sh: $1 loads $lib, which is outside the unpacked packages" >&2; exit 1 ;;
    esac
  done
}

for top in bin lib lib64 sbin; do
  if [ -L "$TREE/$top" ]; then cp -a "$TREE/$top" "$DEST/$top"; fi
done
keep lib64/ld-linux-x86-64.so.2
for p in "$@"; do
  [ -e "$TREE/$p" ] || { echo "rootfs.sh: $p is not in the unpacked packages" >&2; exit 1; }
  if [ -d "$TREE/$p" ] && [ ! -L "$TREE/$p" ]; then
    (cd "$TREE" && find "$p" ! -type d) | while read -r f; do keep "$f"; done
  else
    keep "$p"
  fi
done
# The ELF files kept so far and the libraries they load (libraries load no further ones
# beyond what the loader lists: --list gives the whole closure).
cp "$kept" "$kept.given"
while read -r f; do
  if [ -L "$TREE/$f" ] || [ ! -f "$TREE/$f" ]; then continue; fi
  head -c 4 "$TREE/$f" | grep -q 'ELF' || continue
  case $f in */ld-linux-x86-64.so.2) continue ;; esac
  libs=$(libraries "$f")
  for lib in $libs; do keep "$lib"; done
done <"$kept.given"

keep usr/lib/os-release
keep etc/os-release
# The licences of what the image holds: each kept file's package's copyright file.
awk 'NR == FNR { kept[$0] = 1; next } ($2 in kept) { print $1 }' "$kept" "$OWNERS" | sort -u | while read -r pkg; do
  keep "usr/share/doc/$pkg/copyright"
done

install -d -m 0755 "$DEST/etc" "$DEST/proc" "$DEST/sys" "$DEST/dev" "$DEST/run"
install -d -m 1777 "$DEST/tmp"
install -m 0644 "$here/passwd" "$DEST/etc/passwd"
install -m 0644 "$here/group" "$DEST/etc/group"
install -m 0644 "$here/nsswitch.conf" "$DEST/etc/nsswitch.conf"
