#!/bin/sh
# Installs every build and test dependency of rocewatch from Debian packages.
# Idempotent: packages already installed are left alone, and apt is not asked
# at all when nothing is missing. Needs root (or sudo).
set -eu

PACKAGES="
  build-essential cmake ninja-build ccache pkg-config git ca-certificates python3 python3-jsonschema curl
  prometheus-cpp-dev libibverbs-dev
  libnl-3-dev libnl-route-3-dev libnl-genl-3-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcurl4-openssl-dev
  clang libclang-rt-14-dev
  prometheus prometheus-alertmanager prometheus-node-exporter victoria-metrics
  iproute2 ethtool shellcheck wrk openssh-client openssh-server
  libssl-dev libcrypt-dev libyaml-cpp-dev zlib1g-dev openssl
  lldpd liblldpctl-dev
  perftest
  qemu-system-x86 busybox-static ibverbs-providers pciutils
  debhelper help2man lintian mmdebstrap chromium fonts-wqy-zenhei ansible python3-kubernetes
  podman runc umoci skopeo
"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  echo "install-deps: all $(echo "$PACKAGES" | wc -w) packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: need root (or sudo) to install:$missing" >&2
    exit 1
  fi
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# Packaged daemons (prometheus, alertmanager, node exporter, sshd) must not be
# started by their install scripts: the tests start their own on loopback.
policy_added=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  policy_added=1
fi
trap '[ -n "$policy_added" ] && $SUDO rm -f /usr/sbin/policy-rc.d' EXIT
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
echo "install-deps: done"
