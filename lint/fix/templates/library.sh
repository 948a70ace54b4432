
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

# acs_redirect BRIDGE: the P2P request and completion redirect bits of the bridge's ACS Control
# in lspci's words ("ReqRedir+ CmpltRedir-"). Status 1 where setpci cannot read the register
# (no ACS capability, no such function).
acs_redirect() {
  _ctl=$(setpci -s "$1" ECAP_ACS+6.w 2>&1) || { printf '%s' "$_ctl"; return 1; }
  case $_ctl in
    [0-9a-f][0-9a-f][0-9a-f][0-9a-f]) ;;
    *) printf 'setpci -s %s ECAP_ACS+6.w read %s' "$1" "$(oneline "$_ctl")"; return 1 ;;
  esac
  _req=-; _cmplt=-
  [ $((0x$_ctl & 4)) -eq 0 ] || _req=+
  [ $((0x$_ctl & 8)) -eq 0 ] || _cmplt=+
  printf 'ReqRedir%s CmpltRedir%s' "$_req" "$_cmplt"
}

# acs_restore BRIDGE WORDS: sets the two redirect bits as WORDS (acs_redirect's) say, every
# other bit of the register left as it is.
acs_restore() {
  _bits=0
  case $2 in *ReqRedir+*) _bits=$((_bits | 4)) ;; esac
  case $2 in *CmpltRedir+*) _bits=$((_bits | 8)) ;; esac
  setpci -s "$1" "ECAP_ACS+6.w=$(printf '%04x' "$_bits"):000c"
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

# check_nic IBDEV NETDEV: the RDMA device exists, maps to the planned netdev, has a driver (a
# device with a parent).
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
  # A software RDMA device (rxe, siw) has no parent device and so nothing to bind a driver to.
  if [ -e "$_ib/$1/device" ] && [ ! -e "$_ib/$1/device/driver" ]; then
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
  # A device that reports no firmware (Soft-RoCE's empty fw_ver) is not compared, as the check
  # versions.firmware does not compare it.
  [ -n "$_fw" ] || return 0
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

# The driver bound to netdev $1 ("" when none): what the kernel says, as ethtool -i's driver.
netdev_driver() {
  _link=$(readlink "$SYSFS/class/net/$1/device/driver" 2>/dev/null) || _link=''
  printf '%s' "${_link##*/}"
}

# not_exposed SUBJECT SETTING WANT WHY: a planned setting this NIC's driver has no file or tool
# for. Nothing is written; the run does not fail for it (no other driver's tool is tried).
not_exposed() {
  say "$1: $2 $3 -> not exposed by this driver ($4): left alone"
}

# ---- bnxt_re (Broadcom): congestion control in configfs bnxt_re/<device>/ports/1/cc/ -------
# Broadcom's bnxt_re configfs (its driver's configfs.c): a group made with mkdir, whose files
# read back "%#x" and take hex (sscanf "%x"); `apply`, where the driver has it, commits a change.

bnxt_cc_dir() { printf '%s' "$CONFIGFS/bnxt_re/$1/ports/1/cc"; }

# bnxt_cc_value DEVICE FILE: the value in decimal; "unset (no …)" before the group exists (the
# reader makes nothing: a dry run writes nothing).
bnxt_cc_value() {
  if [ ! -d "$CONFIGFS/bnxt_re/$1" ]; then
    printf 'unset (no %s)' "$CONFIGFS/bnxt_re/$1"
    return 0
  fi
  bnxt_cc_read "$1" "$2"
}

# bnxt_cc_read DEVICE FILE: makes the group if it is not there, then reads the value in decimal.
bnxt_cc_read() {
  if [ ! -d "$CONFIGFS/bnxt_re/$1" ] && ! _out=$(mkdir -- "$CONFIGFS/bnxt_re/$1" 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  if ! _v=$(read_value "$(bnxt_cc_dir "$1")/$2"); then
    printf '%s' "$_v"
    return 1
  fi
  case $_v in
    0x[0-9a-fA-F]* | [0-9]*) printf '%d' "$_v" ;;
    *)
      printf 'not a number in %s: %s' "$(bnxt_cc_dir "$1")/$2" "$_v"
      return 1
      ;;
  esac
}

# bnxt_cc_write DEVICE FILE DECIMAL: writes the value as hex, then applies it.
bnxt_cc_write() {
  if [ ! -d "$CONFIGFS/bnxt_re/$1" ]; then
    mkdir -- "$CONFIGFS/bnxt_re/$1" || return 1
  fi
  _cc=$(bnxt_cc_dir "$1")
  printf '%#x\n' "$3" >"$_cc/$2" || return 1
  if [ -e "$_cc/apply" ]; then
    printf '0x1\n' >"$_cc/apply"
  fi
}

# check_bnxt_cc DEVICE: bnxt_re's configfs is there (the module loaded, configfs mounted).
check_bnxt_cc() {
  if [ -e "$SYSFS/class/infiniband/$1" ] && [ ! -d "$CONFIGFS/bnxt_re" ]; then
    problem "no $CONFIGFS/bnxt_re: load bnxt_re and mount configfs (mount -t configfs none /sys/kernel/config) for $1's congestion control"
  fi
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

# ---- dcbnl through iproute2 dcb: PFC, APP (trust, DSCP) on every driver that implements it ----
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

# dcb_restore_pfc NETDEV PRIORITIES ("3,4", "none")
dcb_restore_pfc() {
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

# configfs_restore_cm cm_mode|cm_tos DEVICE PORT VALUE: configfs writes.
configfs_restore_cm() {
  if [ "$1" = cm_mode ]; then
    printf '%s\n' "$4" >"$CONFIGFS/rdma_cm/$2/ports/$3/default_roce_mode"
  else
    printf '%s\n' "$4" >"$CONFIGFS/rdma_cm/$2/ports/$3/default_roce_tos"
  fi
}
