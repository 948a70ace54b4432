# After real perftest traffic between two rxe devices, every hw counter `rdma statistic show`
# prints is served as roce_hw_stat_total with the same value: read by RDMA netlink (STAT_GET,
# the default) and by sysfs (--collector.rdma.netlink=false).
set -eu
. "$VM_LIB/rxe.sh"
vm_rxe_pair
vm_traffic 90
exporter_start nl 9501 --collector.rdma.all-hw-counters=true
exporter_start files 9502 --collector.rdma.all-hw-counters=true --collector.rdma.netlink=false
scrape 9501 >nl.prom
scrape 9502 >files.prom
checked=0
for dev in rxe0 rxe1; do
  # "link rxe0/1 sent_pkts 12 rcvd_pkts 34 …": name value pairs after the link.
  rdma statistic show link "$dev/1" | tr ' ' '\n' | sed '1,2d' | grep -v '^$' | paste - - >"rdma-$dev.txt"
  [ -s "rdma-$dev.txt" ] || fail "rdma statistic show link $dev/1 printed no counters"
  sent=$(awk '$1 == "sent_pkts" { print $2 }' "rdma-$dev.txt")
  [ "${sent:-0}" -gt 0 ] || fail "$dev sent no packets: the traffic did not run on it"
  while read -r name value; do
    for how in nl files; do
      got=$(sample "$how.prom" roce_hw_stat_total "device=\"$dev\"" 'port="1"' "counter=\"$name\"")
      [ "$got" = "$value" ] || fail "$dev $name: rdma statistic says $value, the exporter ($how) serves '${got}'"
    done
    checked=$((checked + 1))
  done <"rdma-$dev.txt"
  for how in nl files; do
    served=$(count "$how.prom" roce_hw_stat_total "device=\"$dev\"")
    [ "$served" -eq "$(wc -l <"rdma-$dev.txt")" ] ||
      fail "$dev: the exporter ($how) serves $served hw counters, rdma statistic shows $(wc -l <"rdma-$dev.txt")"
  done
done
note "$checked counters equal by netlink and by sysfs"
