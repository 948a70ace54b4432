
# ---- MLNX_OFED readers: mlnx_qos -i -------------------------------------------------------

mlnx_qos_show() {
  if ! _out=$(mlnx_qos -i "$1" 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  printf '%s\n' "$_out"
}

# Trust mode of netdev $1 ("Priority trust state: dscp").
mlnx_trust() {
  if ! _out=$(mlnx_qos_show "$1"); then
    printf '%s' "$_out"
    return 1
  fi
  _trust=$(printf '%s\n' "$_out" | sed -n 's/.*[Tt]rust state:[[:space:]]*\([a-z]*\).*/\1/p' | head -n 1)
  if [ -z "$_trust" ]; then
    printf 'no trust state in the answer of mlnx_qos -i %s' "$1"
    return 1
  fi
  printf '%s' "$_trust"
}

# The priorities with PFC on netdev $1 (the "enabled" row under "PFC configuration:").
mlnx_pfc() {
  if ! _out=$(mlnx_qos_show "$1"); then
    printf '%s' "$_out"
    return 1
  fi
  _row=$(printf '%s\n' "$_out" | awk '/PFC configuration/ { f = 1; next } f && $1 == "enabled" { print; exit }')
  if [ -z "$_row" ]; then
    printf 'no PFC configuration in the answer of mlnx_qos -i %s' "$1"
    return 1
  fi
  printf '%s\n' "$_row" | awk '{ for (i = 2; i <= 9; i++) if ($i == 1) o = o (o == "" ? "" : ",") i - 2 } END { print (o == "" ? "none" : o) }'
}

# The priorities DSCP $2 maps to on netdev $1 (the "prio:P dscp:..." rows).
mlnx_dscp() {
  if ! _out=$(mlnx_qos_show "$1"); then
    printf '%s' "$_out"
    return 1
  fi
  printf '%s\n' "$_out" | awk -v d="$2" '$1 ~ /^prio:[0-7]$/ && $2 ~ /^dscp:/ { p = substr($1, 6); n = split(substr($2, 6), a, ","); for (i = 1; i <= n; i++) if (a[i] != "" && a[i] + 0 == d) o = o (o == "" ? "" : ",") p } END { print (o == "" ? "none" : o) }'
}
