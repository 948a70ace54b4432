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
# note TEXT: a progress line, with the guest's uptime (where a slow check spent its time).
note() { echo "-- [$(cut -d" " -f1 /proc/uptime) s] $*"; }

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
    # iif lo: only what the guest sends; a packet arriving on the other end must still find
    # its address in the local table (without it the kernel routed it back out as a forward
    # and counted it in IpInAddrErrors: no RoCE packet ever reached the peer).
    ip rule add pref 100 iif lo from "$VM_IP_A" to "$VM_IP_B" lookup 101
    ip rule add pref 101 iif lo from "$VM_IP_B" to "$VM_IP_A" lookup 102
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
  for _try in 1 2 3; do
    _port=$((18515 + ($$ % 1000) + _try * 1000))
    timeout "$_limit" ib_write_bw -d rxe0 -x "$_g0" -p "$_port" -s 4096 -F "$@" >/tmp/perftest-server.log 2>&1 &
    _srv=$!
    # Under TCG the server takes seconds to start (its libraries come over 9p): connect only
    # once it listens, or the client gives up at once ("Couldn't connect").
    wait_for 30 "ib_write_bw server listening on $_port" sh -c "ss -ltn | grep -q ':$_port '"
    _rc=0
    timeout "$_limit" ib_write_bw -d rxe1 -x "$_g1" -p "$_port" -s 4096 -F "$@" "$VM_IP_A" >/tmp/perftest-client.log 2>&1 || _rc=$?
    wait "$_srv" || _rc=$?
    if [ "$_rc" -eq 0 ]; then
      tail -n 3 /tmp/perftest-client.log
      return 0
    fi
    perftest_uncalibrated /tmp/perftest-server.log /tmp/perftest-client.log || break
    note "perftest could not calibrate its clock under load (try $_try of 3): again"
  done
  echo "--- perftest server"; cat /tmp/perftest-server.log
  echo "--- perftest client"; cat /tmp/perftest-client.log
  fail "ib_write_bw between rxe1 and rxe0 failed ($_rc)"
}

# perftest_uncalibrated LOG...: perftest gave up because it could not measure its cycle clock
# (under TCG on a loaded host the samples correlate below its r^2 of 0.9): not what a check
# tests, so the run is tried again. (-F lets perftest go on with a report of 0 MB/s instead;
# this stays for a perftest that exits anyway.)
perftest_uncalibrated() { grep -q "Can't produce a report\|Correlation coefficient r^2" "$@"; }

# exporter_start NAME PORT [FLAGS...]: starts roce_exporter on 127.0.0.1:PORT (log in
# /tmp/NAME.log) and waits until it answers; its pid is in /tmp/NAME.pid. Its scrapes wait for
# every collector (the default --collector.timeout of 10 s is a production bound; under TCG on
# a loaded host a scrape of the guest took 10 s and more, and left a section out).
exporter_start() {
  _name=$1
  _port=$2
  shift 2
  "$EXPORTER" --web.listen-address="127.0.0.1:$_port" --collector.timeout=120s "$@" >"/tmp/$_name.log" 2>&1 &
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
scrape() { curl -sf --max-time 150 "http://127.0.0.1:$1/metrics" || fail "scrape of port $1 failed"; }

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

# findings OUT: `roce-lint check plan.json` (in the current folder) as JSON in OUT, then one line
# per finding: "CHECK DEVICE NETDEV expected=… found=… fix=…". Fails on an exit status above 1.
findings() {
  rc=0
  "$LINT" check plan.json --format json --output "$1" >/dev/null 2>"$1.err" || rc=$?
  [ "$rc" -le 1 ] || { cat "$1.err"; fail "roce-lint check exited $rc"; }
  python3 - "$1" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["check"], f["device"] or "-", f["netdev"] or "-", "expected=" + str(f["expected"]),
          "found=" + str(f["found"]), "fix=" + str(f["fix"]))
PY
}
# count FILE NAME [LABEL="VALUE"]...: how many such series.
count() { series "$@" | wc -l; }

# owner_start NAME CGROUP DEVICE PORT: an ib_write_bw pair in the cgroup v2 group /CGROUP, the
# server on DEVICE and the client on the other rxe device: 200 RC writes of 4 KiB, then both
# hold their QPs idle until owner_stop or the end of the script (--wait_destroy of an hour; a
# hold of 150 s once ran out in CI while a second pair was still starting). perftest creates the
# server's QP only once a client connects. -F: a pair whose cycle clock cannot be calibrated
# under load reports 0 MB/s and holds its QPs instead of exiting ("Can't produce a report").
# The server's pid is in /tmp/NAME.pid, the client's in /tmp/NAME.client.pid; returns once both
# hold a QP and the writes are done. A pair that does not (a client that could not exchange its
# keys with a loaded server) is started again on another port, up to three times.
owner_start() {
  for _try in 1 2 3; do
    owner_try "$1" "$2" "$3" $(($4 + (_try - 1) * 100)) && return 0
    owner_stop "$1"
    note "$1: the ib_write_bw pair on $3 did not hold its QPs (try $_try of 3, its logs above)"
  done
  fail "$1: the ib_write_bw pair on $3 did not hold its QPs in 3 tries"
}
# owner_try NAME CGROUP DEVICE PORT: one try of owner_start; 1 (its logs printed) when the pair
# does not hold its QPs after its writes.
owner_try() {
  case "$3" in rxe0) _peer=rxe1 _ip=$VM_IP_A ;; *) _peer=rxe0 _ip=$VM_IP_B ;; esac
  mkdir -p "/sys/fs/cgroup/$2"
  _g=$(vm_gid_index "$3") || fail "no GID on $3"
  _pg=$(vm_gid_index "$_peer") || fail "no GID on $_peer"
  sh -c 'echo $$ >"/sys/fs/cgroup/$1/cgroup.procs" && exec ib_write_bw -d "$2" -x "$3" -p "$4" -s 4096 -n 200 -F --wait_destroy=3600' \
    sh "$2" "$3" "$_g" "$4" >"/tmp/$1.log" 2>&1 &
  echo $! >"/tmp/$1.pid"
  wait_for 30 "$1's server listening on port $4" sh -c "ss -ltn | grep -q ':$4 '"
  sh -c 'echo $$ >"/sys/fs/cgroup/$1/cgroup.procs" && exec ib_write_bw -d "$2" -x "$3" -p "$4" -s 4096 -n 200 -F --wait_destroy=3600 "$5"' \
    sh "$2" "$_peer" "$_pg" "$4" "$_ip" >"/tmp/$1.client.log" 2>&1 &
  echo $! >"/tmp/$1.client.pid"
  owner_wait_qp "$1" server "$3" "/tmp/$1" || return 1
  owner_wait_qp "$1" client "$_peer" "/tmp/$1.client" || return 1
  # Then until the writes are done (perftest's report line): the pair holds its QPs idle from
  # there on.
  wait_for_quiet 90 grep -q "^ *4096 *200 " "/tmp/$1.client.log" || {
    echo "--- $1's 200 writes: not within 90 s:"
    cat "/tmp/$1.log" "/tmp/$1.client.log"
    return 1
  }
  owner_wait_qp "$1" server "$3" "/tmp/$1" && owner_wait_qp "$1" client "$_peer" "/tmp/$1.client"
}
# owner_wait_qp NAME SIDE DEVICE FILES: waits until the process in FILES.pid holds a QP on
# DEVICE; 1 with its log (FILES.log) and the QPs rdma lists when it does not within 120 s or
# exits first.
owner_wait_qp() {
  _p=$(cat "$4.pid")
  wait_for_quiet 120 owner_has_qp_or_gone "$3" "$_p"
  owner_has_qp "$3" "$_p" && return 0
  echo "--- ib_write_bw $2 of $1 on $3 holds no QP ($(kill -0 "$_p" 2>/dev/null && echo "after 120 s" || echo "it exited")):"
  cat "$4.log"
  rdma resource show qp
  return 1
}
owner_has_qp() { rdma resource show qp link "$1/1" | grep -q "pid $2 "; }
owner_has_qp_or_gone() { owner_has_qp "$1" "$2" || ! kill -0 "$2" 2>/dev/null; }
# owners_hold NAME...: fails, naming the pair, unless every process of each pair still holds a QP.
owners_hold() {
  for _n in "$@"; do
    for _f in "/tmp/$_n.pid" "/tmp/$_n.client.pid"; do
      _p=$(cat "$_f")
      rdma resource show qp | grep -q "pid $_p " ||
        fail "$_n: ib_write_bw $_p holds no QP any more (log: $(tail -n 3 "${_f%.pid}.log" | tr '\n' ' '))"
    done
  done
}
# (Also from EXIT traps, where set -e is in force: never fails.) A killed owner is reaped once
# it has exited; one still not exited after 60 s (its QPs not torn down) is named with its state
# and kernel stack instead of hanging the check in `wait`.
owner_stop() {
  for _f in "/tmp/$1.pid" "/tmp/$1.client.pid"; do
    [ -f "$_f" ] || continue
    _p=$(cat "$_f")
    kill -9 "$_p" 2>/dev/null || true
    if wait_for_quiet 60 owner_exited "$_p"; then
      wait "$_p" 2>/dev/null || true
    else
      note "$1: ib_write_bw $_p has not exited 60 s after SIGKILL: $(cat "/proc/$_p/status" 2>/dev/null | grep '^State') $(cat "/proc/$_p/wchan" 2>/dev/null)"
      cat "/proc/$_p/stack" 2>/dev/null || true
    fi
    rm -f "$_f"
  done
}
# owner_exited PID: the process is gone or a zombie (exited, not yet reaped).
owner_exited() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
