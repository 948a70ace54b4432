#!/bin/sh
# Builds the OCI images of rocewatch from its own Debian packages and Debian 12's, and writes
# them as OCI archives into OUT (default build/images):
#   OUT/roce-exporter_TAG.oci.tar  rocewatch/roce-exporter:TAG  entrypoint roce_exporter, user 0
#   OUT/roce-lint_TAG.oci.tar      rocewatch/roce-lint:TAG      entrypoint roce-lint, user 65534
# TAG is the package version (dpkg-parsechangelog; an epoch dropped, + and ~ become -). Labels:
# org.opencontainers.image.{source,revision (the git commit),version,created,title,description}
# (no licenses: the project has chosen none yet, packaging/debian/copyright).
#
# 1. The .deb files in DEBS (default build/deb) are used when they are current: the version is
#    the changelog's, their binaries print the revision `git describe` gives now, and no file
#    the build stages changed after them. Otherwise packaging/build-deb.sh builds them there.
#    BUILD_DEBS=never uses whatever DEBS holds, BUILD_DEBS=always rebuilds.
# 2. One `mmdebstrap --variant=extract bookworm` unpacks the packages' dependencies and
#    ibverbs-providers (the verbs drivers libibverbs loads), no maintainer script runs, and
#    dpkg-deb unpacks the two packages on top. The .deb files it fetches and apt's lists
#    are kept in CACHE (default build/images/apt-cache) for the next run (apt then fetches
#    only what changed).
# 3. packaging/image/rootfs.sh takes from that tree, for each image, the binary and the files
#    of its package an image uses, the libraries they load, and the copyright files of the
#    packages those come from: no shell, dpkg, apt, docs, man pages or locales.
# 4. umoci makes each image (one layer, tar'd with sorted names, owner 0 and the commit's
#    time), and the OCI layout is archived (podman load -i, skopeo copy oci-archive:...).
# Needs root (mmdebstrap's root mode, the images' file owners), mmdebstrap and umoci.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
OUT=${OUT:-$root/build/images}
DEBS=${DEBS:-$root/build/deb}
case $OUT in /*) ;; *) OUT=$root/$OUT ;; esac
case $DEBS in /*) ;; *) DEBS=$root/$DEBS ;; esac
CACHE=${CACHE:-$OUT/apt-cache}
SOURCE_URL=${SOURCE_URL:-https://github.com/rocewatch/rocewatch}
for tool in mmdebstrap umoci dpkg-parsechangelog dpkg-deb git; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "build-images: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "build-images: needs root (mmdebstrap, file owners in the images)" >&2; exit 1; }

started=$(date +%s)
version=$(dpkg-parsechangelog -l packaging/debian/changelog -SVersion)
tag=$(printf '%s' "$version" | sed 's/^[0-9]*://; s/[+~]/-/g')
printf '%s' "$tag" | grep -Eq '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$' || {
  echo "build-images: package version '$version' gives no valid image tag ('$tag')" >&2; exit 1; }
commit=$(git rev-parse HEAD)
describe=$(git describe --always --dirty --tags)
epoch=$(git log -1 --format=%ct HEAD)
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
case $describe in *-dirty) echo "build-images: the tree has uncommitted changes; revision label $commit" >&2 ;; esac

# 1. The packages.
deb_of() {
  for d in "$DEBS/$1_${version}_"*.deb; do [ -f "$d" ] && echo "$d" && return 0; done
  return 0
}
debs_current() {
  for p in roce-exporter roce-lint; do [ -n "$(deb_of "$p")" ] || return 1; done
  probe=$(mktemp -d)
  dpkg-deb -x "$(deb_of roce-exporter)" "$probe"
  printed=$("$probe/usr/bin/roce_exporter" --version 2>/dev/null || true)
  rm -rf "$probe"
  [ "$printed" = "roce_exporter $version (revision $describe)" ] || return 1
  newest=$(deb_of roce-exporter)
  # shellcheck disable=SC2016 # the inner sh expands $1 and $f
  changed=$(git ls-files -z --modified --others --exclude-standard -- . ':!tests' ':!bench' \
    | xargs -0 -r sh -c 'for f; do [ -f "$f" ] && [ "$f" -nt "$0" ] && echo "$f"; done' "$newest")
  [ -z "$changed" ]
}
BUILD_DEBS=${BUILD_DEBS:-auto}
case $BUILD_DEBS in auto | never | always) ;; *) echo "build-images: BUILD_DEBS=$BUILD_DEBS: expected auto, never or always" >&2; exit 2 ;; esac
if [ "$BUILD_DEBS" = never ]; then
  for p in roce-exporter roce-lint; do
    [ -n "$(deb_of "$p")" ] || { echo "build-images: BUILD_DEBS=never but $DEBS has no ${p}_${version}_*.deb" >&2; exit 1; }
  done
  echo "build-images: using the packages in $DEBS as given"
elif [ "$BUILD_DEBS" = auto ] && debs_current; then
  echo "build-images: using the current packages in $DEBS"
else
  echo "build-images: building the packages into $DEBS (packaging/build-deb.sh)"
  OUT=$DEBS packaging/build-deb.sh >/dev/null
fi
exporter_deb=$(deb_of roce-exporter)
lint_deb=$(deb_of roce-lint)
debs_done=$(date +%s)

# 2. Both packages and their dependencies, unpacked.
work=$(mktemp -d "${TMPDIR:-/tmp}/rocewatch-images.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT" "$CACHE/archives" "$CACHE/lists"
tree=$work/tree
# The packages' dependencies by name (versions and alternatives after the first dropped: apt
# picks bookworm's, which the shlibs versions allow); the two packages are unpacked on top.
deps=$(for d in "$exporter_deb" "$lint_deb"; do dpkg-deb -f "$d" Depends; done \
  | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep -v '^$' | sort -u | tr '\n' ',')
# shellcheck disable=SC2016 # mmdebstrap's hooks expand $1 (the tree)
mmdebstrap --quiet --variant=extract \
  --include="${deps}ibverbs-providers,ca-certificates,base-files" \
  --setup-hook='mkdir -p "$1/var/cache/apt/archives" "$1/var/lib/apt/lists"' \
  --setup-hook="sync-in $CACHE/archives /var/cache/apt/archives" \
  --setup-hook="sync-in $CACHE/lists /var/lib/apt/lists" \
  --extract-hook="sync-out /var/cache/apt/archives $CACHE/archives" \
  --extract-hook="sync-out /var/lib/apt/lists $CACHE/lists" \
  --extract-hook="for d in \"\$1\"/var/cache/apt/archives/*.deb; do echo \"\$d\"; done > $work/fetched" \
  bookworm "$tree" >"$work/mmdebstrap.log" 2>&1 || { cat "$work/mmdebstrap.log" >&2; exit 1; }
dpkg-deb -x "$exporter_deb" "$tree"
dpkg-deb -x "$lint_deb" "$tree"
# Which package each file comes from (the copyright files to keep); bookworm's packages still
# name /lib and /bin, as the tree has them.
for d in $(sed "s|.*/|$CACHE/archives/|" "$work/fetched") "$exporter_deb" "$lint_deb"; do
  pkg=$(dpkg-deb -f "$d" Package)
  dpkg-deb -c "$d" | awk -v p="$pkg" '{ n = $6; sub(/^\.\//, "", n); if (n != "" && n !~ /\/$/) print p, n }'
done >"$work/owners"
fetched=$(wc -l <"$work/fetched")
# ca-certificates' bundle, which its maintainer script would make (roce-lint's HTTPS clients).
mkdir -p "$tree/etc/ssl/certs"
cat "$tree"/usr/share/ca-certificates/mozilla/*.crt >"$tree/etc/ssl/certs/ca-certificates.crt"
tree_done=$(date +%s)

# 3. and 4. One image: image NAME ENTRYPOINT USER PORT DESCRIPTION PATH...
image() {
  name=$1 entrypoint=$2 user=$3 port=$4 description=$5
  shift 5
  rootfs=$work/$name
  packaging/image/rootfs.sh "$tree" "$work/owners" "$rootfs" "$@"
  tar -C "$rootfs" --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -cf "$work/$name.layer.tar" .
  layout=$work/$name.oci
  umoci init --layout "$layout"
  umoci new --image "$layout:$tag"
  umoci raw add-layer --image "$layout:$tag" --history.created "$created" \
    --history.created_by "packaging/build-images.sh ($name from $(basename "$(deb_of "$name")"))" \
    "$work/$name.layer.tar"
  umoci config --image "$layout:$tag" --created "$created" --author "rocewatch" \
    --architecture amd64 --os linux --config.user "$user" \
    --config.entrypoint "$entrypoint" --config.exposedports "$port/tcp" --config.workingdir / \
    --config.env PATH=/usr/bin:/bin \
    --config.label org.opencontainers.image.title="$name" \
    --config.label org.opencontainers.image.description="$description" \
    --config.label org.opencontainers.image.source="$SOURCE_URL" \
    --config.label org.opencontainers.image.revision="$commit" \
    --config.label org.opencontainers.image.version="$version" \
    --config.label org.opencontainers.image.created="$created" \
    --manifest.annotation org.opencontainers.image.ref.name="rocewatch/$name:$tag" \
    --history.created "$created" --history.created_by "packaging/build-images.sh (config)"
  umoci gc --layout "$layout"
  # podman and skopeo name an image after the index's ref.name: the whole reference.
  python3 - "$layout/index.json" "rocewatch/$name:$tag" <<'EOF'
import json, sys
path, ref = sys.argv[1], sys.argv[2]
index = json.load(open(path))
for m in index["manifests"]:
    m.setdefault("annotations", {})["org.opencontainers.image.ref.name"] = ref
json.dump(index, open(path, "w"), separators=(",", ":"))
EOF
  archive=$OUT/${name}_$tag.oci.tar
  tar -C "$layout" --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner -cf "$archive.partial" .
  mv "$archive.partial" "$archive"
  echo "build-images: $archive rocewatch/$name:$tag layer $(du -sk "$work/$name.layer.tar" | cut -f1) KiB," \
    "$(find "$rootfs" ! -type d | wc -l) files"
}

image roce-exporter /usr/bin/roce_exporter 0:0 9879 \
  "Prometheus exporter for RoCE/RDMA NICs; run with --cap-drop=ALL --cap-add=NET_ADMIN, read-only root" \
  usr/bin/roce_exporter etc/libibverbs.d usr/lib/x86_64-linux-gnu/libibverbs
image roce-lint /usr/bin/roce-lint 65534:65534 9880 \
  "Checks RoCE nodes against the cluster plan (roce-lint check, roce-lint serve)" \
  usr/bin/roce-lint usr/share/rocewatch usr/share/doc/roce-lint/examples \
  etc/ssl/certs/ca-certificates.crt usr/share/doc/ca-certificates/copyright
done=$(date +%s)
echo "build-images: packages $((debs_done - started)) s, unpacked tree ($fetched .deb fetched or cached)" \
  "$((tree_done - debs_done)) s, images $((done - tree_done)) s; total $((done - started)) s"
