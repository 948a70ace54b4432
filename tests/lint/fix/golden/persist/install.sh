#!/bin/sh
# Installs the RoCE settings of node gpu-01 (cluster gpu-cluster-a), from `roce-lint fix --persist`:
#   rocewatch-roce-config.sh -> /usr/local/sbin/rocewatch-roce-config
#   rocewatch-roce-config.service -> /etc/systemd/system/ (enabled: runs at boot)
#   99-rocewatch-roce-config.rules -> /etc/udev/rules.d/ (re-applies after a driver reload)
# Run it as root on gpu-01 from the directory roce-lint wrote:
#   sh install.sh         install and enable
#   sh install.sh --now   and apply the settings now
# DESTDIR=/staging sh install.sh installs under a staging root and leaves systemd and udev alone.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
DESTDIR=${DESTDIR:-}
NOW=0
case ${1-} in
  '') ;;
  --now) NOW=1 ;;
  *)
    echo 'usage: install.sh [--now]' >&2
    exit 2
    ;;
esac

# Each file it replaces is kept under $STATE_DIR/replaced, and $STATE_DIR/persist.state
# lists what it installed: rocewatch-roce-config.sh --rollback disables the unit and
# removes them (or puts back what they replaced). An earlier install's line is kept.
STATE_DIR=${ROCEWATCH_STATE:-$DESTDIR/var/lib/rocewatch}
keep() {
  if grep -q "^installed	$1	" "$STATE_DIR/persist.state" 2>/dev/null; then
    return 0
  fi
  saved=-
  if [ -e "$DESTDIR$1" ]; then
    mkdir -p "$STATE_DIR/replaced"
    saved=$STATE_DIR/replaced/${1##*/}
    cp -p "$DESTDIR$1" "$saved"
  fi
  mkdir -p "$STATE_DIR"
  printf 'installed\t%s\t%s\n' "$1" "$saved" >>"$STATE_DIR/persist.state"
}
keep /usr/local/sbin/rocewatch-roce-config
keep /etc/systemd/system/rocewatch-roce-config.service
keep /etc/udev/rules.d/99-rocewatch-roce-config.rules

install -D -m 0755 "$here/rocewatch-roce-config.sh" "$DESTDIR/usr/local/sbin/rocewatch-roce-config"
install -D -m 0644 "$here/rocewatch-roce-config.service" "$DESTDIR/etc/systemd/system/rocewatch-roce-config.service"
install -D -m 0644 "$here/99-rocewatch-roce-config.rules" "$DESTDIR/etc/udev/rules.d/99-rocewatch-roce-config.rules"
echo "installed $DESTDIR/usr/local/sbin/rocewatch-roce-config, $DESTDIR/etc/systemd/system/rocewatch-roce-config.service, $DESTDIR/etc/udev/rules.d/99-rocewatch-roce-config.rules"
if [ -n "$DESTDIR" ]; then
  echo 'DESTDIR is set: systemd and udev left alone'
  exit 0
fi

if ! /usr/local/sbin/rocewatch-roce-config --precheck; then
  echo 'warning: the precheck fails on this host: the unit will fail at boot until it passes' >&2
fi
systemctl daemon-reload
systemctl enable rocewatch-roce-config.service
udevadm control --reload
if [ "$NOW" = 1 ]; then
  if ! systemctl restart rocewatch-roce-config.service; then
    systemctl --no-pager status rocewatch-roce-config.service >&2 || true
    exit 1
  fi
  journalctl --no-pager -o cat -n 200 -u rocewatch-roce-config.service | tail -n 20
fi
