# Helpers for guest scripts (tests/vm/README.md), sourced: . "$VM_LIB/rxe.sh"
# Two Soft-RoCE devices on one veth pair: rxe0 on vmrxa (192.168.77.1), rxe1 on vmrxb
# (192.168.77.2). Both addresses are local to the guest, so the kernel would route between them
# through lo and a QP would never reach RTR: policy rules ahead of the local table send each
# address's traffic to the other out of its own veth end, with static neighbours.

VM_A=vmrxa
VM_B=vmrxb
VM_IP_A=192.168.77.1
VM_IP_B=192.168.77.2
BIN=$ROCEWATCH_BUILD
EXPORTER=$BIN/exporter/roce_exporter
LINT=$BIN/lint/roce-lint

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
note() { echo "-- $*"; }

# wait_for SECONDS WHAT COMMAND...: runs COMMAND every 0.2 s until it succeeds; fails naming WHAT
# after SECONDS.
wait_for() {
  _limit=$1
  _what=$2
  shift 2
  _end=$(($(date +%s) + _limit))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$_end" ] || fail "$_what: not within ${_limit}s"
    sleep 0.2
  done
}

vm_rxe_pair() {
  [ -e /sys/class/infiniband/rxe0 ] && [ -e /sys/class/infiniband/rxe1 ] && return 0
  modprobe crc32_generic || true
  modprobe rdma_rxe || fail "modprobe rdma_rxe"
  modprobe rdma_ucm || true
  modprobe veth || fail "modprobe veth"
  if ! ip link show "$VM_A" >/dev/null 2>&1; then
    ip link add "$VM_A" type veth peer name "$VM_B" || fail "ip link add veth"
    ip addr add "$VM_IP_A/24" dev "$VM_A"
    ip addr add "$VM_IP_B/24" dev "$VM_B"
    ip link set "$VM_A" up
    ip link set "$VM_B" up
    for d in all default "$VM_A" "$VM_B"; do
      sysctl -qw "net.ipv4.conf.$d.rp_filter=0" "net.ipv4.conf.$d.accept_local=1"
    done
    ip rule add pref 100 from "$VM_IP_A" to "$VM_IP_B" lookup 101
    ip rule add pref 101 from "$VM_IP_B" to "$VM_IP_A" lookup 102
    ip route add "$VM_IP_B" dev "$VM_A" src "$VM_IP_A" table 101
    ip route add "$VM_IP_A" dev "$VM_B" src "$VM_IP_B" table 102
    ip rule del pref 0 lookup local
    ip rule add pref 1000 lookup local
    ip neigh replace "$VM_IP_B" lladdr "$(cat /sys/class/net/$VM_B/address)" dev "$VM_A" nud permanent
    ip neigh replace "$VM_IP_A" lladdr "$(cat /sys/class/net/$VM_A/address)" dev "$VM_B" nud permanent
  fi
  [ -e /sys/class/infiniband/rxe0 ] || rdma link add rxe0 type rxe netdev "$VM_A" || fail "rdma link add rxe0"
  [ -e /sys/class/infiniband/rxe1 ] || rdma link add rxe1 type rxe netdev "$VM_B" || fail "rdma link add rxe1"
  wait_for 10 "rxe0 port ACTIVE" grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state
  wait_for 10 "rxe1 port ACTIVE" grep -q ACTIVE /sys/class/infiniband/rxe1/ports/1/state
  wait_for 10 "rxe0's RoCE v2 GID" vm_gid_index rxe0
  wait_for 10 "rxe1's RoCE v2 GID" vm_gid_index rxe1
}

# vm_gid_index DEVICE: the index of DEVICE's IPv4 RoCE v2 GID (one grep over gids/*, not 1,024
# reads of a loop).
vm_gid_index() {
  case "$1" in rxe0) _ip=$VM_IP_A ;; *) _ip=$VM_IP_B ;; esac
  _hex=$(echo "$_ip" | awk -F. '{printf "%02x%02x:%02x%02x", $1, $2, $3, $4}')
  _f=$(grep -slx "0000:0000:0000:0000:0000:ffff:$_hex" /sys/class/infiniband/"$1"/ports/1/gids/* | head -n 1)
  [ -n "$_f" ] || return 1
  basename "$_f"
}

# vm_traffic [SECONDS_LIMIT [PERFTEST ARGS...]]: one ib_write_bw run from rxe1 to rxe0 (RC
# writes, 4 KiB; 200 of them unless ARGS say otherwise, e.g. -D 8), bounded; fails when
# perftest does.
vm_traffic() {
  _limit=${1:-60}
  [ $# -eq 0 ] || shift
  [ $# -gt 0 ] || set -- -n 200
  _g0=$(vm_gid_index rxe0) || fail "no GID on rxe0"
  _g1=$(vm_gid_index rxe1) || fail "no GID on rxe1"
  _port=$((18515 + ($$ % 1000)))
  timeout "$_limit" ib_write_bw -d rxe0 -x "$_g0" -p "$_port" -s 4096 "$@" >/tmp/perftest-server.log 2>&1 &
  _srv=$!
  sleep 1
  _rc=0
  timeout "$_limit" ib_write_bw -d rxe1 -x "$_g1" -p "$_port" -s 4096 "$@" "$VM_IP_A" >/tmp/perftest-client.log 2>&1 || _rc=$?
  wait "$_srv" || _rc=$?
  if [ "$_rc" -ne 0 ]; then
    echo "--- perftest server"; cat /tmp/perftest-server.log
    echo "--- perftest client"; cat /tmp/perftest-client.log
    fail "ib_write_bw between rxe1 and rxe0 failed ($_rc)"
  fi
  tail -n 3 /tmp/perftest-client.log
}

# exporter_start NAME PORT [FLAGS...]: starts roce_exporter on 127.0.0.1:PORT (log in
# /tmp/NAME.log) and waits until it answers; its pid is in /tmp/NAME.pid.
exporter_start() {
  _name=$1
  _port=$2
  shift 2
  "$EXPORTER" --web.listen-address="127.0.0.1:$_port" "$@" >"/tmp/$_name.log" 2>&1 &
  echo $! >"/tmp/$_name.pid"
  if ! wait_for_quiet 30 curl -sf -o /dev/null "http://127.0.0.1:$_port/metrics"; then
    cat "/tmp/$_name.log"
    fail "exporter $_name did not answer on port $_port within 30s"
  fi
}
wait_for_quiet() {
  _limit=$1
  shift
  _end=$(($(date +%s) + _limit))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$_end" ] || return 1
    sleep 0.2
  done
}
exporter_stop() {
  [ -f "/tmp/$1.pid" ] || return 0
  kill "$(cat "/tmp/$1.pid")" 2>/dev/null || true
  wait "$(cat "/tmp/$1.pid")" 2>/dev/null || true
  rm -f "/tmp/$1.pid"
}
# scrape PORT: the exposition text.
scrape() { curl -sf --max-time 60 "http://127.0.0.1:$1/metrics" || fail "scrape of port $1 failed"; }

# series FILE NAME [LABEL="VALUE"]...: the values of the series NAME that have all those labels
# in exposition FILE, one a line.
series() {
  _file=$1
  _name=$2
  shift 2
  awk -v name="$_name" -v want="$*" '
    index($0, name "{") != 1 && $1 != name { next }
    {
      n = split(want, w, " ")
      lab = $0; sub(/} [^ ]+$/, "}", lab); sub(/^[^{]*/, "", lab)
      ok = 1
      for (i = 1; i <= n; i++)
        if (index(lab, "{" w[i] ",") == 0 && index(lab, "," w[i] ",") == 0 &&
            index(lab, "," w[i] "}") == 0 && index(lab, "{" w[i] "}") == 0) ok = 0
      if (ok) print $NF
    }' "$_file"
}
# sample FILE NAME [LABEL="VALUE"]...: the first such value; empty when there is none.
sample() { series "$@" | head -n 1; }
# count FILE NAME [LABEL="VALUE"]...: how many such series.
count() { series "$@" | wc -l; }

# owner_start NAME CGROUP DEVICE PORT: an ib_write_bw server on DEVICE (it holds its QP while it
# waits for a client) in the cgroup v2 group /CGROUP; its pid in /tmp/NAME.pid.
owner_start() {
  mkdir -p "/sys/fs/cgroup/$2"
  _g=$(vm_gid_index "$3") || fail "no GID on $3"
  sh -c 'echo $$ >"/sys/fs/cgroup/$1/cgroup.procs" && exec ib_write_bw -d "$2" -x "$3" -p "$4"' \
    sh "$2" "$3" "$_g" "$4" >"/tmp/$1.log" 2>&1 &
  echo $! >"/tmp/$1.pid"
  wait_for 30 "$1 (ib_write_bw on $3) holding a QP" owner_has_qp "$3" "$!"
}
owner_has_qp() { rdma resource show qp link "$1/1" | grep -q "pid $2 "; }
# (Also from EXIT traps, where set -e is in force: never fails.)
owner_stop() {
  [ -f "/tmp/$1.pid" ] || return 0
  kill -9 "$(cat "/tmp/$1.pid")" 2>/dev/null || true
  wait "$(cat "/tmp/$1.pid")" 2>/dev/null || true
  rm -f "/tmp/$1.pid"
}
