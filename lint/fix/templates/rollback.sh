
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
    bnxt_cc) printf '%s: bnxt_re cc %s' "$2" "$3" ;;
    acs) printf '%s: ACS redirect' "$2" ;;
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
    bnxt_cc) bnxt_cc_read "$2" "$3" ;;
    acs) acs_redirect "$2" ;;
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
    bnxt_cc) bnxt_cc_write "$2" "$3" "$4" ;;
    acs) acs_restore "$2" "$4" ;;
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
