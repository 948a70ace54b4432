
# ---- upstream tool set: iproute2 dcb and configfs for every NIC ------------------------------

read_pfc() { dcb_pfc "$1"; }

# restore_pfc NETDEV PRIORITIES ("3,4", "none")
restore_pfc() { dcb_restore_pfc "$1" "$2"; }

# restore_cm cm_mode|cm_tos DEVICE PORT VALUE
restore_cm() { configfs_restore_cm "$@"; }
