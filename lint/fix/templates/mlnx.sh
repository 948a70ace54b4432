
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

# ---- MLNX_OFED rollback: what --rollback reads and writes ---------------------------------
# MLNX_OFED's tools drive mlx5 only: a NIC of another driver (bnxt_en, ice, ionic, rxe) got
# iproute2 dcb and configfs from this script, and is read and restored with them.

read_pfc() {
  if [ "$(netdev_driver "$1")" = mlx5_core ]; then mlnx_pfc "$1"; else dcb_pfc "$1"; fi
}

# restore_pfc NETDEV PRIORITIES ("3,4", "none")
restore_pfc() {
  if [ "$(netdev_driver "$1")" != mlx5_core ]; then
    dcb_restore_pfc "$1" "$2"
    return
  fi
  _list=''
  for _p in 0 1 2 3 4 5 6 7; do
    case ",$2," in
      *",$_p,"*) _v=1 ;;
      *) _v=0 ;;
    esac
    _list="$_list${_list:+,}$_v"
  done
  mlnx_qos -i "$1" --pfc "$_list"
}

# restore_cm cm_mode|cm_tos DEVICE PORT VALUE: cma_roce_mode takes 1 (IB/RoCE v1) or 2 (RoCE v2).
restore_cm() {
  if [ "$(driver_of "$2")" != mlx5_core ]; then
    configfs_restore_cm "$@"
    return
  fi
  if [ "$1" = cm_tos ]; then
    cma_roce_tos -d "$2" -p "$3" -t "$4"
    return
  fi
  case $4 in
    'IB/RoCE v1') cma_roce_mode -d "$2" -p "$3" -m 1 ;;
    'RoCE v2') cma_roce_mode -d "$2" -p "$3" -m 2 ;;
    *)
      printf 'cma_roce_mode cannot set %s' "$4"
      return 1
      ;;
  esac
}
