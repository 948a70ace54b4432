#!/bin/sh
# shellcheck disable=SC2016,SC2317  # step() evaluates READ and CHANGE, shell text in quotes
#
# RoCE settings of node gpu-31 (cluster fix-test).
# Rendered by `roce-lint fix` from trust-pcp-plan.json with the upstream tools (iproute2 dcb and ip, ethtool,
# sysfs and configfs writes).
# Do not edit: change the plan and render it again.
#
#   mlx5_0 / ens1f0np0: profile roce-pcp, 11 settings
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

NODE=gpu-31
SYSFS=${ROCEWATCH_SYSFS:-/sys}
CONFIGFS=${ROCEWATCH_CONFIGFS:-/sys/kernel/config}
MODE=apply
ROLLBACK=0 FORCE=0
SCRIPT_VERSION=0.1.0
PLAN_DIGEST=fnv1a64:e9619b724726ef41
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
  need_tool ip 'iproute2: MTU'
  need_tool ethtool 'global pause'
  check_rdma_cm_configfs
  check_nic mlx5_0 ens1f0np0
  check_ecn_sysfs ens1f0np0
}

# ---- the settings, in plan order ------------------------------------------------------------
configure() {
  # mlx5_0 / ens1f0np0, profile roce-pcp
  step ens1f0np0 trust pcp \
    'dcb_trust ens1f0np0' \
    'dcb app flush dev ens1f0np0 dscp-prio' \
    '_w=$(dcb_app_words ens1f0np0) && backup app ens1f0np0 - "$_w"'
  step ens1f0np0 pfc 3 \
    'dcb_pfc ens1f0np0' \
    'dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off' \
    'backup pfc ens1f0np0 - "$_have"'
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
  step ens1f0np0 'dcqcn np.cnp_dscp' 48 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"' \
    'echo 48 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"' \
    'backup dcqcn ens1f0np0 np.cnp_dscp "$_have"'
  step ens1f0np0 'dcqcn np.cnp_802p_prio' 6 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio"' \
    'echo 6 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio"' \
    'backup dcqcn ens1f0np0 np.cnp_802p_prio "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_ai_rate' 10 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate"' \
    'echo 10 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate"' \
    'backup dcqcn ens1f0np0 rp.rpg_ai_rate "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_hai_rate' 100 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_hai_rate"' \
    'echo 100 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_hai_rate"' \
    'backup dcqcn ens1f0np0 rp.rpg_hai_rate "$_have"'
  step ens1f0np0 'global pause' 'rx off, tx off' \
    'ethtool_pause ens1f0np0' \
    'ethtool -A ens1f0np0 autoneg off rx off tx off' \
    '_w=$(ethtool_pause_words ens1f0np0) && backup pause ens1f0np0 - "$_w"'
  step ens1f0np0 mtu 4200 \
    'ip_mtu ens1f0np0' \
    'ip link set dev ens1f0np0 mtu 4200' \
    'backup mtu ens1f0np0 - "$_have"'
  step 'mlx5_0 port 1' 'rdma_cm default_roce_mode' 'RoCE v2' \
    'cm_roce_mode mlx5_0 1' \
    'mkdir -p "$CONFIGFS/rdma_cm/mlx5_0" &&
      echo '\''RoCE v2'\'' > "$CONFIGFS/rdma_cm/mlx5_0/ports/1/default_roce_mode"' \
    'backup cm_mode mlx5_0 1 "$_have"'
  step 'mlx5_0 port 1' 'rdma_cm default_roce_tos dscp' 26 \
    'cm_tos_dscp mlx5_0 1' \
    'mkdir -p "$CONFIGFS/rdma_cm/mlx5_0" &&
      echo 106 > "$CONFIGFS/rdma_cm/mlx5_0/ports/1/default_roce_tos"' \
    '_w=$(cm_tos_value mlx5_0 1) && backup cm_tos mlx5_0 1 "$_w"'
}
# @template main.sh
