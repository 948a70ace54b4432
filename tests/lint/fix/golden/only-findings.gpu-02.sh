#!/bin/sh
# shellcheck disable=SC2016,SC2317  # step() evaluates READ and CHANGE, shell text in quotes
#
# RoCE settings of node gpu-02 (cluster test-cluster).
# Rendered by `roce-lint fix` from plan.json with the upstream tools (iproute2 dcb and ip, ethtool,
# sysfs and configfs writes), limited to the settings the checks found wrong.
# Do not edit: change the plan and render it again.
#
#   mlx5_0 / ens1f0np0: profile roce-400g, 1 setting
#   mlx5_1 / ens2f0np0: profile roce-400g, 1 setting
#
# Usage: rocewatch-roce-config.sh [--dry-run | --precheck | --force | --rollback [--dry-run]]
#   (none)      precheck, then change every setting that differs from the plan
#   --dry-run   precheck, then only report what would change
#   --precheck  only the precheck
#   --force     apply even over the unrestored backup of another plan (it keeps the first values)
#   --rollback  restore every setting the backup holds, as it was before the first change
# Every setting is read first and changed only when it differs; one line of output each,
# then a summary line: rocewatch: node=NAME mode=apply changed=N unchanged=N failed=N
# Before each change the value read is appended to the backup, ROCEWATCH_STATE/roce-config-NODE.state.
# Exit codes: 0 every setting as planned, 1 a setting could not be read or changed,
#   2 bad arguments, 3 precheck failed (nothing was changed), 4 the unrestored backup of
#   another plan is there (nothing was changed; --rollback or --force).
# Environment: ROCEWATCH_SYSFS (default /sys), ROCEWATCH_CONFIGFS (default /sys/kernel/config),
#   ROCEWATCH_STATE (default /var/lib/rocewatch), ROCEWATCH_DESTDIR (the root install.sh used;
#   when set, --rollback leaves systemd and udev alone).
set -eu

NODE=gpu-02
SYSFS=${ROCEWATCH_SYSFS:-/sys}
CONFIGFS=${ROCEWATCH_CONFIGFS:-/sys/kernel/config}
MODE=apply
ROLLBACK=0 FORCE=0
SCRIPT_VERSION=0.1.0
PLAN_DIGEST=fnv1a64:18b34c0ec2204dbe
STATE_DIR=${ROCEWATCH_STATE:-/var/lib/rocewatch}
STATE_FILE=$STATE_DIR/roce-config-$NODE.state
DESTDIR=${ROCEWATCH_DESTDIR:-}
usage() { echo 'usage: rocewatch-roce-config.sh [--dry-run | --precheck | --force | --rollback [--dry-run]]'; }
for _arg in "$@"; do
  case $_arg in
    --dry-run) MODE=dry-run ;;
    --precheck) MODE=precheck ;;
    --rollback) ROLLBACK=1 ;;
    --force) FORCE=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      exit 2
      ;;
  esac
done
case "$#:$ROLLBACK:$FORCE:$MODE" in
  0:* | 1:* | 2:1:0:dry-run) ;;
  *)
    usage >&2
    exit 2
    ;;
esac
# @template library.sh
# @template upstream.sh
# @template rollback.sh

# ---- precheck: nothing is written before all of this passes --------------------------------
precheck() {
  check_root
  need_tool dcb 'iproute2: trust, PFC and DSCP settings'
  check_nic mlx5_0 ens1f0np0
  check_driver mlx5_0 mlx5_core
  check_firmware mlx5_0 28.39.1002 28.39.2048
  check_driver_version mlx5_0 ens1f0np0 6.8.0-60-generic
  check_ecn_sysfs ens1f0np0
  check_nic mlx5_1 ens2f0np0
  check_driver mlx5_1 mlx5_core
  check_firmware mlx5_1 28.39.1002 28.39.2048
  check_driver_version mlx5_1 ens2f0np0 6.8.0-60-generic
}

# ---- the settings, in plan order ------------------------------------------------------------
configure() {
  # mlx5_0 / ens1f0np0, profile roce-400g
  step ens1f0np0 'ecn np priorities' 3 \
    'ecn_priorities ens1f0np0 np' \
    'echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/0" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/1" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/2" &&
      echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/3" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/4" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/5" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/6" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/7"' \
    'backup ecn ens1f0np0 np "$_have"'

  # mlx5_1 / ens2f0np0, profile roce-400g
  step ens2f0np0 pfc 3 \
    'dcb_pfc ens2f0np0' \
    'dcb pfc set dev ens2f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off' \
    'backup pfc ens2f0np0 - "$_have"'
}
# @template main.sh
