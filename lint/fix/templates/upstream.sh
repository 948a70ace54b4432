
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
