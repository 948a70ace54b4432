
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
