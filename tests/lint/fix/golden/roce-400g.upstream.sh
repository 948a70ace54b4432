#!/bin/sh
# shellcheck disable=SC2016,SC2317  # step() evaluates READ and CHANGE, shell text in quotes
#
# RoCE settings of node gpu-01 (cluster gpu-cluster-a).
# Rendered by `roce-lint fix` from example-plan.json with the upstream tools (iproute2 dcb and ip, ethtool,
# sysfs and configfs writes).
# Do not edit: change the plan and render it again.
#
#   mlx5_0 / ens1f0np0: profile roce-400g, 29 settings
#   mlx5_1 / ens2f0np0: profile roce-400g, 29 settings
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

NODE=gpu-01
SYSFS=${ROCEWATCH_SYSFS:-/sys}
CONFIGFS=${ROCEWATCH_CONFIGFS:-/sys/kernel/config}
MODE=apply
ROLLBACK=0 FORCE=0
SCRIPT_VERSION=0.1.0
PLAN_DIGEST=fnv1a64:c92c04fd8c6195ad
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

# ---- library: the same in every script rendered by roce-lint fix ----------------------------
PROBLEMS=0 CHANGED=0 UNCHANGED=0 FAILED=0

say() { printf '%s\n' "$*"; }

# $1 on one line.
oneline() { printf '%s' "$1" | tr '\n\t' '  ' | sed 's/  */ /g; s/^ //; s/ $//'; }

# The first line of a sysfs or configfs file.
read_value() {
  if [ ! -e "$1" ]; then
    printf 'no %s' "$1"
    return 1
  fi
  if ! _v=$(head -n 1 -- "$1" 2>&1); then
    printf '%s' "$_v"
    return 1
  fi
  printf '%s' "$_v"
}

# The names in directory $1, separated by spaces ("" when none).
list_dir() {
  _names=''
  for _f in "$1"/*; do
    if [ -e "$_f" ] || [ -L "$_f" ]; then
      _names="$_names${_names:+ }${_f##*/}"
    fi
  done
  printf '%s' "$_names"
}

# The priorities p (0-7) whose file $1/p reads 1: "3", "3,4" or "none".
enabled_list() {
  _on=''
  for _p in 0 1 2 3 4 5 6 7; do
    if ! _v=$(read_value "$1/$_p"); then
      printf '%s' "$_v"
      return 1
    fi
    if [ "$_v" = 1 ]; then
      _on="$_on${_on:+,}$_p"
    fi
  done
  printf '%s' "${_on:-none}"
}

# ECN of netdev $1 at point $2 (np, rp).
ecn_priorities() { enabled_list "$SYSFS/class/net/$1/ecn/roce_$2/enable"; }

# The MTU of netdev $1, from the kernel (ip), not from $SYSFS.
ip_mtu() {
  if ! _out=$(ip -j link show dev "$1" 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  _mtu=$(printf '%s' "$_out" | sed -n 's/.*"mtu":\([0-9]*\).*/\1/p')
  if [ -z "$_mtu" ]; then
    printf 'no "mtu" in the answer of ip -j link show dev %s' "$1"
    return 1
  fi
  printf '%s' "$_mtu"
}

# 802.3x pause of netdev $1: "rx off, tx off".
ethtool_pause() {
  if ! _out=$(ethtool -a "$1" 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  _rx=$(printf '%s\n' "$_out" | sed -n 's/^RX:[[:space:]]*//p')
  _tx=$(printf '%s\n' "$_out" | sed -n 's/^TX:[[:space:]]*//p')
  if [ -z "$_rx" ] || [ -z "$_tx" ]; then
    printf 'unexpected answer of ethtool -a %s: %s' "$1" "$(oneline "$_out")"
    return 1
  fi
  printf 'rx %s, tx %s' "$_rx" "$_tx"
}

# rdma_cm default RoCE mode of device $1 port $2 (configfs; "unset" before the group exists).
cm_roce_mode() {
  if [ ! -d "$CONFIGFS/rdma_cm/$1" ]; then
    printf 'unset (no %s)' "$CONFIGFS/rdma_cm/$1"
    return 0
  fi
  read_value "$CONFIGFS/rdma_cm/$1/ports/$2/default_roce_mode"
}

# The DSCP that rdma_cm's default ToS of device $1 port $2 carries (ToS / 4).
cm_tos_dscp() {
  if [ ! -d "$CONFIGFS/rdma_cm/$1" ]; then
    printf 'unset (no %s)' "$CONFIGFS/rdma_cm/$1"
    return 0
  fi
  if ! _tos=$(read_value "$CONFIGFS/rdma_cm/$1/ports/$2/default_roce_tos"); then
    printf '%s' "$_tos"
    return 1
  fi
  case $_tos in
    '' | *[!0-9]*)
      printf 'unexpected default_roce_tos %s' "$_tos"
      return 1
      ;;
  esac
  printf '%s' "$((_tos / 4))"
}

# The optional RDMA counters of device $1 port $2 that `rdma statistic mode link DEV/PORT` lists
# ($3 = enabled) or `rdma statistic mode supported link DEV/PORT` (the driver's, $3 = supported),
# sorted: "a,b", or "none" (rdma prints nothing then). iproute2 6.1 prints
# "link mlx5_0/1 optional-counters a,b" on one line, 6.8 and later one counter a line, indented.
rdma_counter_list() {
  if [ "$3" = supported ]; then
    _out=$(rdma statistic mode supported link "$1/$2" 2>&1) || {
      printf '%s' "$(oneline "$_out")"
      return 1
    }
  else
    _out=$(rdma statistic mode link "$1/$2" 2>&1) || {
      printf '%s' "$(oneline "$_out")"
      return 1
    }
  fi
  _flat=$(oneline "$_out")
  case $_flat in
    '') ;;
    "link $1/$2 optional-counters "* | "link $1/$2 supported optional-counters "*)
      _flat=${_flat#*optional-counters }
      ;;
    *)
      printf 'unexpected answer of rdma statistic mode link %s/%s: %s' "$1" "$2" "$_flat"
      return 1
      ;;
  esac
  printf '%s\n' "$_flat" | tr -d ' ' | tr ',' '\n' | LC_ALL=C sort |
    awk 'NF { o = o (o == "" ? "" : ",") $0 } END { print (o == "" ? "none" : o) }'
}

# optional_counters DEVICE PORT WANT: the optional counters enabled on the port ("a,b", "none").
# Where they differ from WANT and the driver lacks one of WANT, it says which and returns 2:
# enabling it cannot succeed.
optional_counters() {
  if ! _en=$(rdma_counter_list "$1" "$2" enabled); then
    case $_en in
      *'Operation not supported'*)
        printf 'rdma statistic mode link %s/%s: %s: the kernel does not list optional counters (no RDMA_NLDEV_CMD_STAT_GET_STATUS)' \
          "$1" "$2" "$(printf '%s' "$_en" | sed 's/Operation not supported/EOPNOTSUPP/')"
        return 2
        ;;
    esac
    printf '%s' "$_en"
    return 1
  fi
  if [ "$_en" != "$3" ]; then
    if ! _sup=$(rdma_counter_list "$1" "$2" supported); then
      printf '%s' "$_sup"
      return 1
    fi
    _lack=''
    for _c in $(printf '%s' "$3" | tr ',' ' '); do
      case ",$_sup," in
        *",$_c,"*) ;;
        *) _lack="$_lack${_lack:+, }$_c" ;;
      esac
    done
    if [ -n "$_lack" ]; then
      printf 'the driver has no optional counter %s (it has: %s; enabled: %s)' "$_lack" \
        "$(printf '%s' "$_sup" | sed 's/,/, /g')" "$_en"
      return 2
    fi
  fi
  printf '%s' "$_en"
}

fail() {
  say "$1"
  FAILED=$((FAILED + 1))
}

# Why a read or a change failed, on one line, with what an unsupported operation means.
explain() {
  _msg=$(oneline "$2")
  case $_msg in
    *'Operation not supported'*) _msg="$_msg ($1 does not support this setting: no DCB or driver support)" ;;
  esac
  printf '%s' "${_msg:-no message}"
}

# step SUBJECT SETTING WANT READ CHANGE SAVE
# Runs READ (shell text that prints the current value; exit 2: it prints why WANT cannot be set);
# when that differs from WANT, runs SAVE (shell text that appends what CHANGE will change to the
# backup; $_have is the value read), then CHANGE (shell text), and reads the value back. One line
# of output either way.
step() {
  if _have=$(eval "$4"); then _rc=0; else _rc=$?; fi
  if [ "$_rc" = 2 ]; then
    fail "$1: $2 $3 -> FAILED: $(oneline "$_have")"
    return 0
  elif [ "$_rc" != 0 ]; then
    fail "$1: $2 $3 -> FAILED: cannot read it: $(explain "$1" "$_have")"
    return 0
  fi
  if [ "$_have" = "$3" ]; then
    say "$1: $2 $3: unchanged"
    UNCHANGED=$((UNCHANGED + 1))
    return 0
  fi
  if [ "$MODE" = dry-run ]; then
    say "$1: $2 $3 -> would set (now: $_have): $(oneline "$5")"
    CHANGED=$((CHANGED + 1))
    return 0
  fi
  if _saved=$(eval "$6" 2>&1); then _rc=0; else _rc=$?; fi
  if [ "$_rc" = 4 ]; then
    say "$1: $2 $3 -> not changed (was: $_have): $_saved"
    say "rocewatch: node=$NODE mode=apply changed=$CHANGED unchanged=$UNCHANGED failed=$FAILED backup=another-plan"
    exit 4
  fi
  if [ "$_rc" != 0 ]; then
    fail "$1: $2 $3 -> FAILED (was: $_have): not changed: cannot save it for --rollback: $(oneline "$_saved")"
    return 0
  fi
  if ! _out=$(eval "$5" 2>&1); then
    fail "$1: $2 $3 -> FAILED (was: $_have): $(explain "$1" "$_out")"
    return 0
  fi
  if ! _now=$(eval "$4") || [ "$_now" != "$3" ]; then
    fail "$1: $2 $3 -> FAILED (was: $_have): changed, but it reads back $(oneline "$_now")"
    return 0
  fi
  say "$1: $2 $3 -> set (was: $_have)"
  CHANGED=$((CHANGED + 1))
}

# A step the script cannot carry out, reported as a failure.
cannot() {
  fail "$1: $2 -> FAILED: $3"
}

problem() {
  say "precheck: $*"
  PROBLEMS=$((PROBLEMS + 1))
}

# need_tool TOOL WHAT-FOR
need_tool() {
  if ! command -v "$1" >/dev/null 2>&1; then
    problem "$1 not found in PATH ($2)"
  fi
}

# check_nic IBDEV NETDEV: the RDMA device exists, maps to the planned netdev, has a driver.
check_nic() {
  _ib=$SYSFS/class/infiniband
  if [ ! -e "$_ib/$1" ]; then
    _present=$(list_dir "$_ib")
    problem "$1 not in $_ib; present: ${_present:-none}"
    return 0
  fi
  _nets=$(list_dir "$_ib/$1/device/net")
  _ndev=$(read_value "$_ib/$1/ports/1/gid_attrs/ndevs/0") || _ndev=''
  case " $_nets $_ndev " in
    *" $2 "*) ;;
    *) problem "$1 maps to netdev ${_nets:-${_ndev:-none}}, not $2 as planned" ;;
  esac
  if [ ! -e "$SYSFS/class/net/$2" ]; then
    _present=$(list_dir "$SYSFS/class/net")
    problem "$2 not in $SYSFS/class/net; present: ${_present:-none}"
  fi
  if [ ! -e "$_ib/$1/device/driver" ]; then
    problem "$1 has no driver bound (no $_ib/$1/device/driver): is its driver loaded?"
  fi
}

# The driver bound to RDMA device $1 ("" when none).
driver_of() {
  _link=$(readlink "$SYSFS/class/infiniband/$1/device/driver" 2>/dev/null) || _link=''
  printf '%s' "${_link##*/}"
}

# check_driver IBDEV DRIVER
check_driver() {
  _drv=$(driver_of "$1")
  if [ -n "$_drv" ] && [ "$_drv" != "$2" ]; then
    problem "$1 is driven by $_drv, the profile wants $2"
  fi
}

# check_firmware IBDEV VERSION...: fw_ver is one the profile accepts.
check_firmware() {
  _dev=$1
  shift
  if [ ! -e "$SYSFS/class/infiniband/$_dev" ]; then
    return 0
  fi
  if ! _fw=$(read_value "$SYSFS/class/infiniband/$_dev/fw_ver"); then
    problem "$_dev: cannot read its firmware version: $_fw"
    return 0
  fi
  for _ok in "$@"; do
    if [ "$_fw" = "$_ok" ]; then
      return 0
    fi
  done
  problem "$_dev firmware is $_fw, the profile accepts $*"
}

# check_driver_version IBDEV NETDEV VERSION...: from /sys/module/<driver>/version (MLNX_OFED)
# or ethtool -i (in-tree drivers report the kernel release).
check_driver_version() {
  _dev=$1 _nd=$2
  shift 2
  if [ ! -e "$SYSFS/class/infiniband/$_dev" ]; then
    return 0
  fi
  _drv=$(driver_of "$_dev")
  _ver=''
  if [ -n "$_drv" ] && [ -r "$SYSFS/module/$_drv/version" ]; then
    _ver=$(read_value "$SYSFS/module/$_drv/version") || _ver=''
  elif command -v ethtool >/dev/null 2>&1; then
    _ver=$(ethtool -i "$_nd" 2>/dev/null | sed -n 's/^version:[[:space:]]*//p') || _ver=''
  fi
  if [ -z "$_ver" ]; then
    problem "$_dev: cannot tell its driver version (no $SYSFS/module/${_drv:-?}/version, no answer from ethtool -i $_nd)"
    return 0
  fi
  for _ok in "$@"; do
    if [ "$_ver" = "$_ok" ]; then
      return 0
    fi
  done
  problem "$_dev driver ${_drv:-?} version is $_ver, the profile accepts $*"
}

# check_ecn_sysfs NETDEV: the ECN and DCQCN files exist (MLNX_OFED mlx5_core has them).
check_ecn_sysfs() {
  if [ -e "$SYSFS/class/net/$1" ] && [ ! -d "$SYSFS/class/net/$1/ecn" ]; then
    problem "$1 has no $SYSFS/class/net/$1/ecn: its driver offers no ECN/DCQCN files (MLNX_OFED's mlx5_core does)"
  fi
}

check_rdma_cm_configfs() {
  if [ ! -d "$CONFIGFS/rdma_cm" ]; then
    problem "no $CONFIGFS/rdma_cm: load rdma_cm (modprobe rdma_cm) and mount configfs (mount -t configfs none /sys/kernel/config)"
  fi
}

check_root() {
  if [ "$MODE" != dry-run ] && [ "$(id -u)" != 0 ]; then
    problem "must run as root to change settings (uid $(id -u)); --dry-run runs unprivileged"
  fi
}

note_host() {
  _host=$(uname -n)
  if [ "${_host%%.*}" != "${NODE%%.*}" ]; then
    say "note: this host is $_host; the script was rendered for node $NODE"
  fi
}

# ---- upstream readers: iproute2 dcb -------------------------------------------------------

# The priorities with PFC on netdev $1: "3", "3,4" or "none".
dcb_pfc() {
  if ! _out=$(dcb -j pfc show dev "$1" prio-pfc 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  _arr=$(printf '%s' "$_out" | tr -d ' \n' | sed -n 's/.*"prio_pfc":\[\([a-z,]*\)\].*/\1/p')
  if [ -z "$_arr" ]; then
    printf 'unexpected answer of dcb -j pfc show dev %s: %s' "$1" "$(oneline "$_out")"
    return 1
  fi
  printf '%s' "$_arr" | tr ',' '\n' | awk '$0 == "true" { o = o (o == "" ? "" : ",") NR - 1 } END { print (o == "" ? "none" : o) }'
}

# The DSCP APP entries of netdev $1, one "DSCP PRIORITY" line each.
dcb_dscp_entries() {
  if ! _out=$(dcb -j app show dev "$1" dscp-prio 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  printf '%s' "$_out" | tr -d ' \n' | tr '[' '\n' | sed -n 's/^\([0-9]*\),\([0-9]*\)\].*/\1 \2/p'
}

# Trust mode of netdev $1: dscp when it has DSCP APP entries, else pcp.
dcb_trust() {
  if ! _entries=$(dcb_dscp_entries "$1"); then
    printf '%s' "$_entries"
    return 1
  fi
  if [ -n "$_entries" ]; then printf dscp; else printf pcp; fi
}

# The priorities DSCP $2 maps to on netdev $1: "3" (or "3,5", or "none").
dcb_dscp() {
  if ! _entries=$(dcb_dscp_entries "$1"); then
    printf '%s' "$_entries"
    return 1
  fi
  printf '%s\n' "$_entries" | awk -v d="$2" '$1 == d { o = o (o == "" ? "" : ",") $2 } END { print (o == "" ? "none" : o) }'
}

# ---- upstream rollback: what --rollback reads and writes ----------------------------------

read_pfc() { dcb_pfc "$1"; }

# restore_pfc NETDEV PRIORITIES ("3,4", "none")
restore_pfc() {
  _args=''
  for _p in 0 1 2 3 4 5 6 7; do
    case ",$2," in
      *",$_p,"*) _args="$_args $_p:on" ;;
      *) _args="$_args $_p:off" ;;
    esac
  done
  # shellcheck disable=SC2086  # eight words DIGIT:on|off
  dcb pfc set dev "$1" prio-pfc $_args
}

# The DSCP APP table of netdev $1 as the words dcb app add takes: "26:3 48:6", or "none".
dcb_app_words() {
  if ! _entries=$(dcb_dscp_entries "$1"); then
    printf '%s' "$_entries"
    return 1
  fi
  printf '%s\n' "$_entries" | awk 'NF == 2 { o = o (o == "" ? "" : " ") $1 ":" $2 } END { print (o == "" ? "none" : o) }'
}

# restore_app NETDEV WORDS: the DSCP APP table is exactly WORDS ("none": no entries, trust pcp).
restore_app() {
  case $2 in
    none) ;;
    *[!0-9:\ ]*)
      printf 'not DSCP:PRIORITY words: %s' "$2"
      return 1
      ;;
  esac
  dcb app flush dev "$1" dscp-prio || return 1
  if [ "$2" != none ]; then
    # shellcheck disable=SC2086  # the DSCP:PRIORITY words, checked above
    dcb app add dev "$1" dscp-prio $2
  fi
}

# restore_cm cm_mode|cm_tos DEVICE PORT VALUE: configfs writes.
restore_cm() {
  if [ "$1" = cm_mode ]; then
    printf '%s\n' "$4" >"$CONFIGFS/rdma_cm/$2/ports/$3/default_roce_mode"
  else
    printf '%s\n' "$4" >"$CONFIGFS/rdma_cm/$2/ports/$3/default_roce_tos"
  fi
}

# ---- backup and rollback: the same in every script rendered by roce-lint fix ----------------
# The backup, $STATE_FILE, is text the rollback parses without eval: the line
# "rocewatch-roce-config state 1", then header lines KEY<TAB>VALUE (node, script, time, plan:
# one plan line per plan applied over it), then one line per setting,
# KIND<TAB>SUBJECT<TAB>ARG<TAB>VALUE, appended just before that setting's first change. SUBJECT
# and ARG are names the renderer accepts (letters, digits, '_', '.', ':', '-'; ARG "-" for none);
# VALUE is the rest of the line, as it was read. A setting already in the backup keeps its first
# value: the rollback goes back to the node as it was before the first plan.
TAB=$(printf '\t')
STATE_HEADER='rocewatch-roce-config state 1'
# What install.sh installs (lint/fix/persist.h); install.sh lists them in $STATE_DIR/persist.state.
PERSIST_UNIT=rocewatch-roce-config.service

now_utc() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# The first value of header KEY in the backup ("" when none).
backup_field() { awk -F '\t' -v k="$1" '$1 == k { print $2; exit }' "$STATE_FILE"; }

# Whether the backup holds plan digest $1.
backup_has_plan() { awk -F '\t' -v d="$1" '$1 == "plan" && $2 == d { f = 1 } END { exit !f }' "$STATE_FILE"; }

# backup KIND SUBJECT ARG VALUE: appends the setting unless the backup holds it already. Over an
# unrestored backup of another plan it returns 4 (step stops the script: nothing of this plan
# was changed yet), unless --force, which adds this plan's digest to it.
backup() {
  if [ ! -e "$STATE_FILE" ]; then
    mkdir -p -- "$STATE_DIR" || return 1
    printf '%s\nnode\t%s\nscript\t%s\ntime\t%s\nplan\t%s\n' "$STATE_HEADER" "$NODE" \
      "$SCRIPT_VERSION" "$(now_utc)" "$PLAN_DIGEST" >"$STATE_FILE.new" || return 1
    mv -f -- "$STATE_FILE.new" "$STATE_FILE" || return 1
  elif [ "$(head -n 1 -- "$STATE_FILE")" != "$STATE_HEADER" ]; then
    printf "backup: %s does not start with '%s'" "$STATE_FILE" "$STATE_HEADER"
    return 4
  elif ! backup_has_plan "$PLAN_DIGEST"; then
    if [ "$FORCE" != 1 ]; then
      printf 'backup: %s holds the unrestored backup of another plan (%s, %s): run --rollback first, or --force to apply over it' \
        "$STATE_FILE" "$(backup_field plan)" "$(backup_field time)"
      return 4
    fi
    printf 'plan\t%s\t%s\n' "$PLAN_DIGEST" "$(now_utc)" >>"$STATE_FILE" || return 1
  fi
  if awk -F '\t' -v k="$1" -v s="$2" -v a="$3" '$1 == k && $2 == s && $3 == a { f = 1 } END { exit !f }' "$STATE_FILE"; then
    return 0
  fi
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$STATE_FILE"
}

# The words of 802.3x pause of netdev $1: "on on on" (autoneg rx tx).
ethtool_pause_words() {
  if ! _out=$(ethtool -a "$1" 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  _an=$(printf '%s\n' "$_out" | sed -n 's/^Autonegotiate:[[:space:]]*//p')
  if ! _rxtx=$(ethtool_pause "$1"); then
    printf '%s' "$_rxtx"
    return 1
  fi
  _rx=${_rxtx#rx } _rx=${_rx%%,*} _tx=${_rxtx##* }
  printf '%s %s %s' "${_an:-off}" "$_rx" "$_tx"
}

# rdma_cm default ToS of device $1 port $2 as it is ("unset (no …)" before the group exists).
cm_tos_value() {
  if [ ! -d "$CONFIGFS/rdma_cm/$1" ]; then
    printf 'unset (no %s)' "$CONFIGFS/rdma_cm/$1"
    return 0
  fi
  read_value "$CONFIGFS/rdma_cm/$1/ports/$2/default_roce_tos"
}

# restore_ecn NETDEV POINT PRIORITIES: the eight enable files, on for PRIORITIES ("3,4", "none").
restore_ecn() {
  for _p in 0 1 2 3 4 5 6 7; do
    case ",$3," in
      *",$_p,"*) _v=1 ;;
      *) _v=0 ;;
    esac
    printf '%s\n' "$_v" >"$SYSFS/class/net/$1/ecn/roce_$2/enable/$_p" || return 1
  done
}

# restore_pause NETDEV "AUTONEG RX TX"
restore_pause() {
  _an=${2%% *} _rest=${2#* }
  ethtool -A "$1" autoneg "$_an" rx "${_rest%% *}" tx "${_rest#* }"
}

# restore_optional_counters DEVICE PORT LIST: exactly LIST enabled ("a,b"; "none": none), as one
# argument whatever it holds.
restore_optional_counters() {
  if [ "$3" = none ]; then
    rdma statistic unset link "$1/$2" optional-counters
  else
    rdma statistic set link "$1/$2" optional-counters "$3"
  fi
}

# The label of a backed-up setting in the rollback's output, the apply's words where it has them.
setting_label() {
  case $1 in
    app) printf '%s: dscp app entries' "$2" ;;
    dscp) printf '%s: dscp %s priority' "$2" "$3" ;;
    ecn) printf '%s: ecn %s priorities' "$2" "$3" ;;
    dcqcn) printf '%s: dcqcn %s' "$2" "$3" ;;
    pause) printf '%s: global pause (autoneg rx tx)' "$2" ;;
    cm_mode) printf '%s port %s: rdma_cm default_roce_mode' "$2" "$3" ;;
    cm_tos) printf '%s port %s: rdma_cm default_roce_tos' "$2" "$3" ;;
    optional_counters) printf '%s port %s: optional counters' "$2" "$3" ;;
    *) printf '%s: %s' "$2" "$1" ;;
  esac
}

# read_setting KIND SUBJECT ARG: the setting now, read as the backup read it.
read_setting() {
  case $1 in
    pfc) read_pfc "$2" ;;
    app) dcb_app_words "$2" ;;
    trust) mlnx_trust "$2" ;;
    dscp) mlnx_dscp "$2" "$3" ;;
    ecn) ecn_priorities "$2" "$3" ;;
    dcqcn) read_value "$SYSFS/class/net/$2/ecn/roce_${3%%.*}/${3#*.}" ;;
    pause) ethtool_pause_words "$2" ;;
    mtu) ip_mtu "$2" ;;
    cm_mode) cm_roce_mode "$2" "$3" ;;
    cm_tos) cm_tos_value "$2" "$3" ;;
    optional_counters) rdma_counter_list "$2" "$3" enabled ;;
    *)
      printf 'unknown setting %s in the backup' "$1"
      return 1
      ;;
  esac
}

# restore_setting KIND SUBJECT ARG VALUE
restore_setting() {
  case $1 in
    pfc) restore_pfc "$2" "$4" ;;
    app) restore_app "$2" "$4" ;;
    trust) mlnx_qos -i "$2" --trust "$4" ;;
    dscp) mlnx_qos -i "$2" --dscp2prio "set,$3,$4" ;;
    ecn) restore_ecn "$2" "$3" "$4" ;;
    dcqcn) printf '%s\n' "$4" >"$SYSFS/class/net/$2/ecn/roce_${3%%.*}/${3#*.}" ;;
    pause) restore_pause "$2" "$4" ;;
    mtu) ip link set dev "$2" mtu "$4" ;;
    optional_counters) restore_optional_counters "$2" "$3" "$4" ;;
    cm_mode | cm_tos)
      case $4 in
        'unset (no '*) rmdir -- "$CONFIGFS/rdma_cm/$2" ;;
        *) restore_cm "$1" "$2" "$3" "$4" ;;
      esac
      ;;
  esac
}

# A name from the backup that a path or a command may take.
safe_name() {
  case $1 in
    '' | . | .. | *[!A-Za-z0-9_.:-]*) return 1 ;;
  esac
}

# restore_one LINE: one setting of the backup, one line of output.
restore_one() {
  _kind=${1%%"$TAB"*} _rest=${1#*"$TAB"}
  _subj=${_rest%%"$TAB"*} _rest=${_rest#*"$TAB"}
  _arg=${_rest%%"$TAB"*} _val=${_rest#*"$TAB"}
  if ! safe_name "$_kind" || ! safe_name "$_subj" || ! safe_name "$_arg"; then
    fail "backup: line '$(oneline "$1")' of $STATE_FILE -> FAILED: not a setting this script wrote"
    return 0
  fi
  _label=$(setting_label "$_kind" "$_subj" "$_arg")
  if ! _now=$(read_setting "$_kind" "$_subj" "$_arg"); then
    fail "$_label $_val -> FAILED: cannot read it: $(explain "$_subj" "$_now")"
    return 0
  fi
  if [ "$_now" = "$_val" ]; then
    say "$_label $_val: unchanged"
    UNCHANGED=$((UNCHANGED + 1))
    return 0
  fi
  if [ "$MODE" = dry-run ]; then
    say "$_label $_val -> would restore (now: $_now)"
    CHANGED=$((CHANGED + 1))
    return 0
  fi
  if ! _out=$(restore_setting "$_kind" "$_subj" "$_arg" "$_val" 2>&1); then
    fail "$_label $_val -> FAILED (now: $_now): $(explain "$_subj" "$_out")"
    return 0
  fi
  if ! _back=$(read_setting "$_kind" "$_subj" "$_arg") || [ "$_back" != "$_val" ]; then
    fail "$_label $_val -> FAILED (was: $_now): restored, but it reads back $(oneline "$_back")"
    return 0
  fi
  say "$_label $_val -> restored (was: $_now)"
  CHANGED=$((CHANGED + 1))
}

# Boot re-apply off first: the unit disabled, then what install.sh installed removed (or the
# file it replaced put back), so a reboot does not apply the plan being rolled back.
restore_persist() {
  _pf=$STATE_DIR/persist.state
  if [ ! -e "$_pf" ]; then
    return 0
  fi
  if [ "$MODE" = dry-run ]; then
    say "persist: would disable $PERSIST_UNIT and remove what install.sh installed ($_pf)"
    return 0
  fi
  if [ -z "$DESTDIR" ]; then
    if _out=$(systemctl disable "$PERSIST_UNIT" 2>&1); then
      say "persist: $PERSIST_UNIT disabled"
    else
      fail "persist: $PERSIST_UNIT -> FAILED: cannot disable it: $(oneline "$_out")"
    fi
  fi
  while IFS="$TAB" read -r _k _path _saved; do
    case $_k:$_path in
      installed:/usr/local/sbin/rocewatch-roce-config | installed:/etc/systemd/system/"$PERSIST_UNIT" | installed:/etc/udev/rules.d/99-rocewatch-roce-config.rules) ;;
      *)
        fail "persist: line '$(oneline "$_k $_path")' of $_pf -> FAILED: not a file install.sh installs; left alone"
        continue
        ;;
    esac
    if [ "$_saved" = - ]; then
      if rm -f -- "$DESTDIR$_path"; then say "persist: $DESTDIR$_path removed"; else fail "persist: $DESTDIR$_path -> FAILED: cannot remove it"; fi
    elif mv -f -- "$_saved" "$DESTDIR$_path"; then
      say "persist: $DESTDIR$_path restored (the file install.sh replaced)"
    else
      fail "persist: $DESTDIR$_path -> FAILED: cannot put back $_saved"
    fi
  done <"$_pf"
  if [ -z "$DESTDIR" ]; then
    systemctl daemon-reload || fail "persist: systemctl daemon-reload -> FAILED"
    udevadm control --reload || fail "persist: udevadm control --reload -> FAILED"
  fi
  mv -f -- "$_pf" "$_pf.restored-$(now_utc)"
}

# --rollback: every setting of the backup, last saved first.
rollback() {
  if [ ! -e "$STATE_FILE" ] && [ ! -e "$STATE_DIR/persist.state" ]; then
    say "no backup: $STATE_FILE does not exist; nothing to restore"
    say "rocewatch: node=$NODE mode=rollback restored=0 unchanged=0 failed=0 backup=none"
    exit 0
  fi
  restore_persist
  if [ ! -e "$STATE_FILE" ]; then
    say "no backup of settings: $STATE_FILE does not exist"
    _lines=''
  elif [ "$(head -n 1 -- "$STATE_FILE")" != "$STATE_HEADER" ]; then
    say "backup: $STATE_FILE does not start with '$STATE_HEADER'; nothing was restored"
    exit 1
  else
    say "backup: node $(backup_field node), $(backup_field time), plan $(backup_field plan), script $(backup_field script)"
    _lines=$(awk -F '\t' 'NR > 1 && NF >= 4 { l[++n] = $0 } END { for (i = n; i > 0; i--) print l[i] }' "$STATE_FILE")
  fi
  while IFS= read -r _line; do
    if [ -n "$_line" ]; then
      restore_one "$_line"
    fi
  done <<EOF
$_lines
EOF
  if [ "$MODE" = dry-run ]; then
    say "rocewatch: node=$NODE mode=rollback-dry-run would_restore=$CHANGED unchanged=$UNCHANGED failed=$FAILED"
  else
    if [ "$FAILED" -eq 0 ] && [ -e "$STATE_FILE" ]; then
      mv -f -- "$STATE_FILE" "$STATE_FILE.restored-$(now_utc)"
    fi
    say "rocewatch: node=$NODE mode=rollback restored=$CHANGED unchanged=$UNCHANGED failed=$FAILED"
  fi
  if [ "$FAILED" -gt 0 ]; then
    exit 1
  fi
  exit 0
}

# ---- precheck: nothing is written before all of this passes --------------------------------
precheck() {
  check_root
  need_tool dcb 'iproute2: trust, PFC and DSCP settings'
  need_tool ip 'iproute2: MTU'
  need_tool ethtool 'global pause'
  check_rdma_cm_configfs
  check_nic mlx5_0 ens1f0np0
  check_driver mlx5_0 mlx5_core
  check_firmware mlx5_0 28.39.1002 28.39.2048
  check_driver_version mlx5_0 ens1f0np0 24.04-0.6.6
  check_ecn_sysfs ens1f0np0
  check_nic mlx5_1 ens2f0np0
  check_driver mlx5_1 mlx5_core
  check_firmware mlx5_1 28.39.1002 28.39.2048
  check_driver_version mlx5_1 ens2f0np0 24.04-0.6.6
  check_ecn_sysfs ens2f0np0
}

# ---- the settings, in plan order ------------------------------------------------------------
configure() {
  # mlx5_0 / ens1f0np0, profile roce-400g
  step ens1f0np0 trust dscp \
    'dcb_trust ens1f0np0' \
    'dcb app add dev ens1f0np0 dscp-prio 26:3 48:6' \
    '_w=$(dcb_app_words ens1f0np0) && backup app ens1f0np0 - "$_w"'
  step ens1f0np0 pfc 3 \
    'dcb_pfc ens1f0np0' \
    'dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off' \
    'backup pfc ens1f0np0 - "$_have"'
  step ens1f0np0 'dscp 26 priority' 3 \
    'dcb_dscp ens1f0np0 26' \
    'dcb app replace dev ens1f0np0 dscp-prio 26:3' \
    '_w=$(dcb_app_words ens1f0np0) && backup app ens1f0np0 - "$_w"'
  step ens1f0np0 'dscp 48 priority' 6 \
    'dcb_dscp ens1f0np0 48' \
    'dcb app replace dev ens1f0np0 dscp-prio 48:6' \
    '_w=$(dcb_app_words ens1f0np0) && backup app ens1f0np0 - "$_w"'
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
  step ens1f0np0 'ecn rp priorities' 3 \
    'ecn_priorities ens1f0np0 rp' \
    'echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/0" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/1" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/2" &&
      echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/3" &&
      echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/enable/4" &&
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
  step ens1f0np0 'dcqcn np.min_time_between_cnps' 4 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_np/min_time_between_cnps"' \
    'echo 4 > "$SYSFS/class/net/ens1f0np0/ecn/roce_np/min_time_between_cnps"' \
    'backup dcqcn ens1f0np0 np.min_time_between_cnps "$_have"'
  step ens1f0np0 'dcqcn rp.clamp_tgt_rate' 0 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/clamp_tgt_rate"' \
    'echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/clamp_tgt_rate"' \
    'backup dcqcn ens1f0np0 rp.clamp_tgt_rate "$_have"'
  step ens1f0np0 'dcqcn rp.clamp_tgt_rate_after_time_inc' 1 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/clamp_tgt_rate_after_time_inc"' \
    'echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/clamp_tgt_rate_after_time_inc"' \
    'backup dcqcn ens1f0np0 rp.clamp_tgt_rate_after_time_inc "$_have"'
  step ens1f0np0 'dcqcn rp.dce_tcp_g' 1019 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/dce_tcp_g"' \
    'echo 1019 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/dce_tcp_g"' \
    'backup dcqcn ens1f0np0 rp.dce_tcp_g "$_have"'
  step ens1f0np0 'dcqcn rp.dce_tcp_rtt' 1 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/dce_tcp_rtt"' \
    'echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/dce_tcp_rtt"' \
    'backup dcqcn ens1f0np0 rp.dce_tcp_rtt "$_have"'
  step ens1f0np0 'dcqcn rp.initial_alpha_value' 1023 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/initial_alpha_value"' \
    'echo 1023 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/initial_alpha_value"' \
    'backup dcqcn ens1f0np0 rp.initial_alpha_value "$_have"'
  step ens1f0np0 'dcqcn rp.rate_reduce_monitor_period' 4 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rate_reduce_monitor_period"' \
    'echo 4 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rate_reduce_monitor_period"' \
    'backup dcqcn ens1f0np0 rp.rate_reduce_monitor_period "$_have"'
  step ens1f0np0 'dcqcn rp.rate_to_set_on_first_cnp' 0 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rate_to_set_on_first_cnp"' \
    'echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rate_to_set_on_first_cnp"' \
    'backup dcqcn ens1f0np0 rp.rate_to_set_on_first_cnp "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_ai_rate' 5 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate"' \
    'echo 5 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate"' \
    'backup dcqcn ens1f0np0 rp.rpg_ai_rate "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_byte_reset' 32767 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_byte_reset"' \
    'echo 32767 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_byte_reset"' \
    'backup dcqcn ens1f0np0 rp.rpg_byte_reset "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_gd' 11 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_gd"' \
    'echo 11 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_gd"' \
    'backup dcqcn ens1f0np0 rp.rpg_gd "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_hai_rate' 50 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_hai_rate"' \
    'echo 50 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_hai_rate"' \
    'backup dcqcn ens1f0np0 rp.rpg_hai_rate "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_max_rate' 0 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_max_rate"' \
    'echo 0 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_max_rate"' \
    'backup dcqcn ens1f0np0 rp.rpg_max_rate "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_min_dec_fac' 50 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_min_dec_fac"' \
    'echo 50 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_min_dec_fac"' \
    'backup dcqcn ens1f0np0 rp.rpg_min_dec_fac "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_min_rate' 1 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_min_rate"' \
    'echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_min_rate"' \
    'backup dcqcn ens1f0np0 rp.rpg_min_rate "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_threshold' 1 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_threshold"' \
    'echo 1 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_threshold"' \
    'backup dcqcn ens1f0np0 rp.rpg_threshold "$_have"'
  step ens1f0np0 'dcqcn rp.rpg_time_reset' 300 \
    'read_value "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_time_reset"' \
    'echo 300 > "$SYSFS/class/net/ens1f0np0/ecn/roce_rp/rpg_time_reset"' \
    'backup dcqcn ens1f0np0 rp.rpg_time_reset "$_have"'
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
    'mkdir -p "$CONFIGFS/rdma_cm/mlx5_0" &&
      echo '\''RoCE v2'\'' > "$CONFIGFS/rdma_cm/mlx5_0/ports/1/default_roce_mode"' \
    'backup cm_mode mlx5_0 1 "$_have"'
  step 'mlx5_0 port 1' 'rdma_cm default_roce_tos dscp' 26 \
    'cm_tos_dscp mlx5_0 1' \
    'mkdir -p "$CONFIGFS/rdma_cm/mlx5_0" &&
      echo 106 > "$CONFIGFS/rdma_cm/mlx5_0/ports/1/default_roce_tos"' \
    '_w=$(cm_tos_value mlx5_0 1) && backup cm_tos mlx5_0 1 "$_w"'

  # mlx5_1 / ens2f0np0, profile roce-400g
  step ens2f0np0 trust dscp \
    'dcb_trust ens2f0np0' \
    'dcb app add dev ens2f0np0 dscp-prio 26:3 48:6' \
    '_w=$(dcb_app_words ens2f0np0) && backup app ens2f0np0 - "$_w"'
  step ens2f0np0 pfc 3 \
    'dcb_pfc ens2f0np0' \
    'dcb pfc set dev ens2f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off' \
    'backup pfc ens2f0np0 - "$_have"'
  step ens2f0np0 'dscp 26 priority' 3 \
    'dcb_dscp ens2f0np0 26' \
    'dcb app replace dev ens2f0np0 dscp-prio 26:3' \
    '_w=$(dcb_app_words ens2f0np0) && backup app ens2f0np0 - "$_w"'
  step ens2f0np0 'dscp 48 priority' 6 \
    'dcb_dscp ens2f0np0 48' \
    'dcb app replace dev ens2f0np0 dscp-prio 48:6' \
    '_w=$(dcb_app_words ens2f0np0) && backup app ens2f0np0 - "$_w"'
  step ens2f0np0 'ecn np priorities' 3 \
    'ecn_priorities ens2f0np0 np' \
    'echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/0" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/1" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/2" &&
      echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/3" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/4" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/5" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/6" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/enable/7"' \
    'backup ecn ens2f0np0 np "$_have"'
  step ens2f0np0 'ecn rp priorities' 3 \
    'ecn_priorities ens2f0np0 rp' \
    'echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/0" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/1" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/2" &&
      echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/3" &&
      echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/enable/4" &&
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
  step ens2f0np0 'dcqcn np.min_time_between_cnps' 4 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_np/min_time_between_cnps"' \
    'echo 4 > "$SYSFS/class/net/ens2f0np0/ecn/roce_np/min_time_between_cnps"' \
    'backup dcqcn ens2f0np0 np.min_time_between_cnps "$_have"'
  step ens2f0np0 'dcqcn rp.clamp_tgt_rate' 0 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/clamp_tgt_rate"' \
    'echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/clamp_tgt_rate"' \
    'backup dcqcn ens2f0np0 rp.clamp_tgt_rate "$_have"'
  step ens2f0np0 'dcqcn rp.clamp_tgt_rate_after_time_inc' 1 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/clamp_tgt_rate_after_time_inc"' \
    'echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/clamp_tgt_rate_after_time_inc"' \
    'backup dcqcn ens2f0np0 rp.clamp_tgt_rate_after_time_inc "$_have"'
  step ens2f0np0 'dcqcn rp.dce_tcp_g' 1019 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/dce_tcp_g"' \
    'echo 1019 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/dce_tcp_g"' \
    'backup dcqcn ens2f0np0 rp.dce_tcp_g "$_have"'
  step ens2f0np0 'dcqcn rp.dce_tcp_rtt' 1 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/dce_tcp_rtt"' \
    'echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/dce_tcp_rtt"' \
    'backup dcqcn ens2f0np0 rp.dce_tcp_rtt "$_have"'
  step ens2f0np0 'dcqcn rp.initial_alpha_value' 1023 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/initial_alpha_value"' \
    'echo 1023 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/initial_alpha_value"' \
    'backup dcqcn ens2f0np0 rp.initial_alpha_value "$_have"'
  step ens2f0np0 'dcqcn rp.rate_reduce_monitor_period' 4 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rate_reduce_monitor_period"' \
    'echo 4 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rate_reduce_monitor_period"' \
    'backup dcqcn ens2f0np0 rp.rate_reduce_monitor_period "$_have"'
  step ens2f0np0 'dcqcn rp.rate_to_set_on_first_cnp' 0 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rate_to_set_on_first_cnp"' \
    'echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rate_to_set_on_first_cnp"' \
    'backup dcqcn ens2f0np0 rp.rate_to_set_on_first_cnp "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_ai_rate' 5 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_ai_rate"' \
    'echo 5 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_ai_rate"' \
    'backup dcqcn ens2f0np0 rp.rpg_ai_rate "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_byte_reset' 32767 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_byte_reset"' \
    'echo 32767 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_byte_reset"' \
    'backup dcqcn ens2f0np0 rp.rpg_byte_reset "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_gd' 11 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_gd"' \
    'echo 11 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_gd"' \
    'backup dcqcn ens2f0np0 rp.rpg_gd "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_hai_rate' 50 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_hai_rate"' \
    'echo 50 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_hai_rate"' \
    'backup dcqcn ens2f0np0 rp.rpg_hai_rate "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_max_rate' 0 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_max_rate"' \
    'echo 0 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_max_rate"' \
    'backup dcqcn ens2f0np0 rp.rpg_max_rate "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_min_dec_fac' 50 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_min_dec_fac"' \
    'echo 50 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_min_dec_fac"' \
    'backup dcqcn ens2f0np0 rp.rpg_min_dec_fac "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_min_rate' 1 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_min_rate"' \
    'echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_min_rate"' \
    'backup dcqcn ens2f0np0 rp.rpg_min_rate "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_threshold' 1 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_threshold"' \
    'echo 1 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_threshold"' \
    'backup dcqcn ens2f0np0 rp.rpg_threshold "$_have"'
  step ens2f0np0 'dcqcn rp.rpg_time_reset' 300 \
    'read_value "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_time_reset"' \
    'echo 300 > "$SYSFS/class/net/ens2f0np0/ecn/roce_rp/rpg_time_reset"' \
    'backup dcqcn ens2f0np0 rp.rpg_time_reset "$_have"'
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
    'mkdir -p "$CONFIGFS/rdma_cm/mlx5_1" &&
      echo '\''RoCE v2'\'' > "$CONFIGFS/rdma_cm/mlx5_1/ports/1/default_roce_mode"' \
    'backup cm_mode mlx5_1 1 "$_have"'
  step 'mlx5_1 port 1' 'rdma_cm default_roce_tos dscp' 26 \
    'cm_tos_dscp mlx5_1 1' \
    'mkdir -p "$CONFIGFS/rdma_cm/mlx5_1" &&
      echo 106 > "$CONFIGFS/rdma_cm/mlx5_1/ports/1/default_roce_tos"' \
    '_w=$(cm_tos_value mlx5_1 1) && backup cm_tos mlx5_1 1 "$_w"'
}

# ---- main ------------------------------------------------------------------------------------
note_host
precheck
if [ "$PROBLEMS" -gt 0 ]; then
  if [ "$PROBLEMS" -eq 1 ]; then _s=''; else _s=s; fi
  say "precheck failed: $PROBLEMS problem$_s; nothing was changed"
  exit 3
fi
say "precheck passed (node $NODE, sysfs $SYSFS, configfs $CONFIGFS)"
if [ "$MODE" = precheck ]; then
  exit 0
fi
if [ "$ROLLBACK" = 1 ]; then
  rollback
fi
configure
if [ "$MODE" = dry-run ]; then
  say "rocewatch: node=$NODE mode=dry-run would_change=$CHANGED unchanged=$UNCHANGED failed=$FAILED"
else
  say "rocewatch: node=$NODE mode=apply changed=$CHANGED unchanged=$UNCHANGED failed=$FAILED"
fi
if [ "$FAILED" -gt 0 ]; then
  exit 1
fi
exit 0
