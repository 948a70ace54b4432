#!/bin/sh
# shellcheck disable=SC2016,SC2317  # step() evaluates READ and CHANGE, shell text in quotes
#
# RoCE settings of node gpu-21 (cluster fix-test).
# Rendered by `roce-lint fix` from pfc34-plan.json with the MLNX_OFED tools (mlnx_qos, cma_roce_mode, cma_roce_tos,
# ip, ethtool, sysfs writes).
# Do not edit: change the plan and render it again.
#
#   mlx5_0 / ens1f0np0: profile roce-pfc34, 13 settings
#   mlx5_1 / ens2f0np0: profile roce-pfc34, 13 settings
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

NODE=gpu-21
SYSFS=${ROCEWATCH_SYSFS:-/sys}
CONFIGFS=${ROCEWATCH_CONFIGFS:-/sys/kernel/config}
MODE=apply
ROLLBACK=0 FORCE=0
SCRIPT_VERSION=0.1.0
PLAN_DIGEST=fnv1a64:0cfa372d1c556cdc
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
# @template mlnx.sh
# @template rollback.sh

# ---- precheck: nothing is written before all of this passes --------------------------------
precheck() {
  check_root
  need_tool mlnx_qos 'MLNX_OFED: trust, PFC and DSCP settings'
  need_tool cma_roce_mode 'MLNX_OFED: rdma_cm default RoCE mode'
  need_tool cma_roce_tos 'MLNX_OFED: rdma_cm default ToS'
  need_tool ip 'iproute2: MTU'
  need_tool ethtool 'global pause'
  need_tool rdma 'iproute2: optional RDMA counters'
  check_nic mlx5_0 ens1f0np0
  check_driver mlx5_0 mlx5_core
  check_firmware mlx5_0 28.39.2048
  check_ecn_sysfs ens1f0np0
  check_nic mlx5_1 ens2f0np0
  check_driver mlx5_1 mlx5_core
  check_firmware mlx5_1 28.39.2048
  check_ecn_sysfs ens2f0np0
}

# ---- the settings, in plan order ------------------------------------------------------------
configure() {
  # mlx5_0 / ens1f0np0, profile roce-pfc34
  step ens1f0np0 trust dscp \
    'mlnx_trust ens1f0np0' \
    'mlnx_qos -i ens1f0np0 --trust dscp &&
      mlnx_qos -i ens1f0np0 --dscp2prio set,26,3 &&
      mlnx_qos -i ens1f0np0 --dscp2prio set,48,6' \
    'backup trust ens1f0np0 - "$_have" && _w=$(mlnx_dscp ens1f0np0 26) && backup dscp ens1f0np0 26 "$_w" && _w=$(mlnx_dscp ens1f0np0 48) && backup dscp ens1f0np0 48 "$_w"'
  step ens1f0np0 pfc 3,4 \
    'mlnx_pfc ens1f0np0' \
    'mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,1,0,0,0' \
    'backup pfc ens1f0np0 - "$_have"'
  step ens1f0np0 'dscp 26 priority' 3 \
    'mlnx_dscp ens1f0np0 26' \
    'mlnx_qos -i ens1f0np0 --dscp2prio set,26,3' \
    'backup dscp ens1f0np0 26 "$_have"'
  step ens1f0np0 'dscp 48 priority' 6 \
    'mlnx_dscp ens1f0np0 48' \
    'mlnx_qos -i ens1f0np0 --dscp2prio set,48,6' \
    'backup dscp ens1f0np0 48 "$_have"'
  step ens1f0np0 'ecn np priorities' 3,4 \
    'ecn_priorities ens1f0np0 np' \
    'echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/0" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/1" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/2" &&
      echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/3" &&
      echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/4" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/5" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/6" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/7"' \
    'backup ecn ens1f0np0 np "$_have"'
  step ens1f0np0 'ecn rp priorities' 3,4 \
    'ecn_priorities ens1f0np0 rp' \
    'echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/0" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/1" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/2" &&
      echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/3" &&
      echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/4" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/5" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/6" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/7"' \
    'backup ecn ens1f0np0 rp "$_have"'
  step ens1f0np0 'dcqcn np.cnp_dscp' 48 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"' \
    'echo 48 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"' \
    'backup dcqcn ens1f0np0 np.cnp_dscp "$_have"'
  step ens1f0np0 'dcqcn np.cnp_802p_prio' 6 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio"' \
    'echo 6 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio"' \
    'backup dcqcn ens1f0np0 np.cnp_802p_prio "$_have"'
  step ens1f0np0 'global pause' 'rx off, tx off' \
    'ethtool_pause ens1f0np0' \
    'ethtool -A ens1f0np0 autoneg off rx off tx off' \
    '_w=$(ethtool_pause_words ens1f0np0) && backup pause ens1f0np0 - "$_w"'
  step ens1f0np0 mtu 9000 \
    'ip_mtu ens1f0np0' \
    'ip link set dev ens1f0np0 mtu 9000' \
    'backup mtu ens1f0np0 - "$_have"'
  step 'mlx5_0 port 1' 'rdma_cm default_roce_mode' 'RoCE v2' \
    'cm_roce_mode mlx5_0 1' \
    'cma_roce_mode -d mlx5_0 -p 1 -m 2' \
    'backup cm_mode mlx5_0 1 "$_have"'
  step 'mlx5_0 port 1' 'rdma_cm default_roce_tos dscp' 26 \
    'cm_tos_dscp mlx5_0 1' \
    'cma_roce_tos -d mlx5_0 -p 1 -t 106' \
    '_w=$(cm_tos_value mlx5_0 1) && backup cm_tos mlx5_0 1 "$_w"'
  step 'mlx5_0 port 1' 'optional counters' cc_rx_ce_pkts,cc_rx_cnp_pkts \
    'optional_counters mlx5_0 1 cc_rx_ce_pkts,cc_rx_cnp_pkts' \
    'rdma statistic set link mlx5_0/1 optional-counters cc_rx_ce_pkts,cc_rx_cnp_pkts' \
    'backup optional_counters mlx5_0 1 "$_have"'

  # mlx5_1 / ens2f0np0, profile roce-pfc34
  step ens2f0np0 trust dscp \
    'mlnx_trust ens2f0np0' \
    'mlnx_qos -i ens2f0np0 --trust dscp &&
      mlnx_qos -i ens2f0np0 --dscp2prio set,26,3 &&
      mlnx_qos -i ens2f0np0 --dscp2prio set,48,6' \
    'backup trust ens2f0np0 - "$_have" && _w=$(mlnx_dscp ens2f0np0 26) && backup dscp ens2f0np0 26 "$_w" && _w=$(mlnx_dscp ens2f0np0 48) && backup dscp ens2f0np0 48 "$_w"'
  step ens2f0np0 pfc 3,4 \
    'mlnx_pfc ens2f0np0' \
    'mlnx_qos -i ens2f0np0 --pfc 0,0,0,1,1,0,0,0' \
    'backup pfc ens2f0np0 - "$_have"'
  step ens2f0np0 'dscp 26 priority' 3 \
    'mlnx_dscp ens2f0np0 26' \
    'mlnx_qos -i ens2f0np0 --dscp2prio set,26,3' \
    'backup dscp ens2f0np0 26 "$_have"'
  step ens2f0np0 'dscp 48 priority' 6 \
    'mlnx_dscp ens2f0np0 48' \
    'mlnx_qos -i ens2f0np0 --dscp2prio set,48,6' \
    'backup dscp ens2f0np0 48 "$_have"'
  step ens2f0np0 'ecn np priorities' 3,4 \
    'ecn_priorities ens2f0np0 np' \
    'echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/0" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/1" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/2" &&
      echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/3" &&
      echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/4" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/5" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/6" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/7"' \
    'backup ecn ens2f0np0 np "$_have"'
  step ens2f0np0 'ecn rp priorities' 3,4 \
    'ecn_priorities ens2f0np0 rp' \
    'echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/0" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/1" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/2" &&
      echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/3" &&
      echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/4" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/5" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/6" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/7"' \
    'backup ecn ens2f0np0 rp "$_have"'
  step ens2f0np0 'dcqcn np.cnp_dscp' 48 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_np/cnp_dscp"' \
    'echo 48 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/cnp_dscp"' \
    'backup dcqcn ens2f0np0 np.cnp_dscp "$_have"'
  step ens2f0np0 'dcqcn np.cnp_802p_prio' 6 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_np/cnp_802p_prio"' \
    'echo 6 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/cnp_802p_prio"' \
    'backup dcqcn ens2f0np0 np.cnp_802p_prio "$_have"'
  step ens2f0np0 'global pause' 'rx off, tx off' \
    'ethtool_pause ens2f0np0' \
    'ethtool -A ens2f0np0 autoneg off rx off tx off' \
    '_w=$(ethtool_pause_words ens2f0np0) && backup pause ens2f0np0 - "$_w"'
  step ens2f0np0 mtu 9000 \
    'ip_mtu ens2f0np0' \
    'ip link set dev ens2f0np0 mtu 9000' \
    'backup mtu ens2f0np0 - "$_have"'
  step 'mlx5_1 port 1' 'rdma_cm default_roce_mode' 'RoCE v2' \
    'cm_roce_mode mlx5_1 1' \
    'cma_roce_mode -d mlx5_1 -p 1 -m 2' \
    'backup cm_mode mlx5_1 1 "$_have"'
  step 'mlx5_1 port 1' 'rdma_cm default_roce_tos dscp' 26 \
    'cm_tos_dscp mlx5_1 1' \
    'cma_roce_tos -d mlx5_1 -p 1 -t 106' \
    '_w=$(cm_tos_value mlx5_1 1) && backup cm_tos mlx5_1 1 "$_w"'
  step 'mlx5_1 port 1' 'optional counters' cc_rx_ce_pkts,cc_rx_cnp_pkts \
    'optional_counters mlx5_1 1 cc_rx_ce_pkts,cc_rx_cnp_pkts' \
    'rdma statistic set link mlx5_1/1 optional-counters cc_rx_ce_pkts,cc_rx_cnp_pkts' \
    'backup optional_counters mlx5_1 1 "$_have"'
}
# @template main.sh
