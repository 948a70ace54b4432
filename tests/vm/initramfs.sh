#!/bin/sh
# initramfs.sh KERNEL_DIR OUT: writes OUT, a gzip'd cpio with busybox-static, the modules that
# mount the host's root over virtio-9p with a tmpfs overlay (virtio_pci, 9pnet_virtio, 9p,
# overlay and what they depend on, from KERNEL_DIR's modules.dep) and tests/vm/init as /init.
set -eu
kdir=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
kver=$(cat "$kdir/.kver")
mods="$kdir/lib/modules/$kver"
busybox=$(command -v busybox) || { echo "initramfs.sh: no busybox (install busybox-static)" >&2; exit 1; }
if ! LC_ALL=C ldd "$busybox" 2>&1 | grep -q "not a dynamic"; then
  echo "initramfs.sh: $busybox is not static (install busybox-static)" >&2
  exit 1
fi
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/modules" "$root/proc" "$root/sys" "$root/dev" "$root/lower" "$root/rw" "$root/newroot"
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$here/init" "$root/init"
chmod +x "$root/init"

# deps MODULE: the module's dependencies (depth first, each once) and then itself, as paths
# relative to lib/modules/<version>.
seen=""
deps() {
  line=$(grep "^[^:]*/$1\.ko[^:]*:" "$mods/modules.dep" | head -n 1)
  if [ -z "$line" ]; then
    # Built in (virtio_pci is from 6.12 on): nothing to load.
    grep -q "/$1\.ko\$" "$mods/modules.builtin" && return 0
    echo "initramfs.sh: $1 is neither in $mods/modules.dep nor built in" >&2
    exit 1
  fi
  path=${line%%:*}
  case " $seen " in *" $path "*) return ;; esac
  # modules.dep lists a module's dependencies already in load order, last loaded first.
  for d in $(echo "${line#*:}" | tr ' ' '\n' | tac); do
    case " $seen " in *" $d "*) continue ;; esac
    seen="$seen $d"
    echo "$d"
  done
  seen="$seen $path"
  echo "$path"
}
{
  for m in virtio_pci 9pnet_virtio 9p overlay; do deps "$m"; done
} >"$root/modules.order"
while read -r m; do
  case "$m" in
    *.ko) cp "$mods/$m" "$root/modules/" ;;
    *.ko.xz) xz -dc "$mods/$m" >"$root/modules/$(basename "$m" .xz)" ;;
    *.ko.zst) zstd -qdc "$mods/$m" >"$root/modules/$(basename "$m" .zst)" ;;
    *) echo "initramfs.sh: unknown module file $m" >&2; exit 1 ;;
  esac
  basename "$m" | sed 's/\.\(xz\|zst\)$//'
done <"$root/modules.order" >"$root/modules/load-order"
rm "$root/modules.order"
(cd "$root" && find . | LC_ALL=C sort | busybox cpio -o -H newc 2>/dev/null) | gzip -1 >"$out"
