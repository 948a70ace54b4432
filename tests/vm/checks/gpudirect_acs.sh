# Issue 39 on a real kernel reading real config space. gpudirect_acs.qemu builds a PCIe switch
# below a root port, with an AMD VGA function (ati-vga, 1002:5046, class 0x0300: a GPU as the
# exporter finds them) below one downstream port and an e1000e below the other; Soft-RoCE runs
# on the e1000e's netdev, so the e1000e is the NIC of its path (PIX: one switch). QEMU 7.2's
# switch downstream ports (xio3130) have no ACS capability, its generic root port has one: two
# generic root ports stand in as the switch's downstream ports. With their redirect bits set by
# setpci, the exporter serves each bit and the path's count, roce-lint reports
# gpudirect.acs-redirect naming both ports, its `fix --only-findings` script clears exactly the
# two redirect bits of each, and its rollback sets them back, every other bit as it was. The
# AER counters served are the kernel's own aer_dev_* files of the NIC and its bridges.
set -eu
. "$VM_LIB/rxe.sh"
command -v setpci >/dev/null || fail "no setpci on the host (scripts/install-deps.sh installs pciutils)"
function_of() {
  for d in /sys/bus/pci/devices/*; do
    [ "$(cat "$d/vendor"):$(cat "$d/device")" = "$1" ] && { basename "$d"; return 0; }
  done
  return 1
}
nic=$(function_of 0x8086:0x10d3) || fail "no e1000e function: is gpudirect_acs.qemu on QEMU's command line?"
gpu=$(function_of 0x1002:0x5046) || fail "no ati-vga function"
# The downstream ports above the GPU and the NIC, and the switch's upstream port.
port_of() { basename "$(dirname "$(readlink -f "/sys/bus/pci/devices/$1")")"; }
dn_gpu=$(port_of "$gpu")
dn_nic=$(port_of "$nic")
up=$(port_of "$dn_nic")
[ "$(port_of "$dn_gpu")" = "$up" ] || fail "the GPU and the NIC are not below one switch"
modprobe e1000e || fail "modprobe e1000e"
wait_for 30 "the e1000e's netdev" sh -c "ls /sys/bus/pci/devices/$nic/net | grep -q ."
nd=$(ls "/sys/bus/pci/devices/$nic/net" | head -n 1)
ip link set "$nd" up
modprobe rdma_rxe || fail "modprobe rdma_rxe"
rdma link add rxgd type rxe netdev "$nd" || fail "rdma link add rxgd on $nd"
acs() { setpci -s "$1" ECAP_ACS+6.w; }
orig_gpu=$(acs "$dn_gpu") && orig_nic=$(acs "$dn_nic") || fail "setpci cannot read the ports' ACS control"
trap 'rdma link delete rxgd 2>/dev/null || true; setpci -s "$dn_gpu" "ECAP_ACS+6.w=$orig_gpu"; setpci -s "$dn_nic" "ECAP_ACS+6.w=$orig_nic"' EXIT
note "GPU $gpu below $dn_gpu (ACS control $orig_gpu), NIC $nic ($nd, rxgd) below $dn_nic ($orig_nic), switch $up"
# What many BIOSes leave on: source validation, request and completion redirect, upstream
# forwarding (lspci: SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+). The GPU's port gets request
# redirect alone: its rollback must set back that bit and not the other.
setpci -s "$dn_nic" ECAP_ACS+6.w=001d
setpci -s "$dn_gpu" ECAP_ACS+6.w=0015
[ "$(acs "$dn_nic"):$(acs "$dn_gpu")" = 001d:0015 ] || fail "setpci did not set the ports' ACS control"

exporter_start gd 9581
scrape 9581 >on.prom
grep '^roce_gpu_\|^roce_pcie_bridge_acs_control\|^roce_pcie_aer_errors_total\|^roce_pcie_upstream' on.prom || true
[ "$(sample on.prom roce_gpu_nic_relation 'device="rxgd"' "gpu=\"$gpu\"" 'relation="PIX"')" = 1 ] ||
  fail "no PIX relation between rxgd and GPU $gpu"
bit_of() { sample on.prom roce_pcie_bridge_acs_control "bridge=\"$1\"" "bit=\"$2\""; }
for bit in src_valid req_redir cmplt_redir upstream_fwd; do
  [ "$(bit_of "$dn_nic" "$bit")" = 1 ] || fail "roce_pcie_bridge_acs_control{bridge=$dn_nic,bit=$bit} is not 1 (setpci: 001d)"
done
[ "$(bit_of "$dn_nic" trans_blk)" = 0 ] || fail "trans_blk of $dn_nic is not 0 (setpci: 001d)"
[ "$(bit_of "$dn_gpu" req_redir):$(bit_of "$dn_gpu" cmplt_redir)" = 1:0 ] ||
  fail "$dn_gpu's redirect bits are not req 1, cmplt 0 (setpci: 0015)"
[ "$(sample on.prom roce_gpu_nic_acs_redirect_bridges 'device="rxgd"' "gpu=\"$gpu\"")" = 2 ] ||
  fail "the path rxgd-$gpu does not count two redirecting bridges"
for b in "$dn_gpu" "$up" "$dn_nic"; do
  [ -n "$(sample on.prom roce_gpu_nic_path_bridge 'device="rxgd"' "bridge=\"$b\"")" ] || fail "bridge $b is not on the served path"
done
for f in "$nic" "$dn_nic" "$up"; do
  want=$(awk '$1 == "TOTAL_ERR_COR" { print $2 }' "/sys/bus/pci/devices/$f/aer_dev_correctable")
  got=$(sample on.prom roce_pcie_aer_errors_total "pci_address=\"$f\"" 'aer_severity="correctable"')
  note "AER correctable of $f: sysfs $want, served $got"
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "AER correctable of $f: served '$got', the kernel's file says '$want'"
done

cat >plan.json <<JSON
{
  "cluster": "vm",
  "profiles": {"gpu-rail": {"gpudirect": {"max_relation": "PIX"}}},
  "nodes": [
    {
      "name": "vm-g",
      "management_ip": "127.0.0.1",
      "exporter": "127.0.0.1:9581",
      "nics": [{"ib_dev": "rxgd", "netdev": "$nd", "profile": "gpu-rail", "roce_ip": "192.168.78.1/24",
                "rail": 0, "gpu": "$gpu"}]
    }
  ]
}
JSON
"$LINT" plan plan.json || fail "roce-lint plan refused the guest's plan"
findings before.json | tee before.txt
grep "^gpudirect.acs-redirect rxgd " before.txt | grep "$dn_gpu" | grep -q "$dn_nic" ||
  fail "check does not report ACS redirect on $dn_gpu and $dn_nic"
grep -q "^gpudirect.gpu-distance" before.txt && fail "check reports a PIX path as too far"
"$LINT" fix plan.json --node vm-g --only-findings >fix.sh 2>fix.err || { cat fix.err; fail "roce-lint fix --only-findings"; }
grep -n 'acs' fix.sh | grep -v '^[0-9]*:#' | grep -v 'acs_redirect()\|acs_restore()' | head -n 5
sh fix.sh --precheck || fail "the fix script's precheck failed"
sh fix.sh | tee apply.txt || fail "the fix script failed"
[ "$(acs "$dn_nic"):$(acs "$dn_gpu")" = 0011:0011 ] ||
  fail "the fix left the ports' ACS control at $(acs "$dn_nic"):$(acs "$dn_gpu"), not 0011:0011 (only the redirect bits cleared)"
scrape 9581 >off.prom
[ "$(sample off.prom roce_gpu_nic_acs_redirect_bridges 'device="rxgd"' "gpu=\"$gpu\"")" = 0 ] ||
  fail "the exporter still counts a redirecting bridge after the fix"
findings after.json | tee after.txt
grep -q "^gpudirect.acs-redirect" after.txt && fail "check still reports ACS redirect after the fix"
sh fix.sh | tee again.txt
grep -q "unchanged" again.txt || fail "a second run of the fix changed something again"
sh fix.sh --rollback | tee rollback.txt || fail "the rollback failed"
[ "$(acs "$dn_nic"):$(acs "$dn_gpu")" = 001d:0015 ] ||
  fail "the rollback left the ports' ACS control at $(acs "$dn_nic"):$(acs "$dn_gpu"), not 001d:0015 as before"
findings rolledback.json >rolledback.txt
grep -q "^gpudirect.acs-redirect rxgd " rolledback.txt || fail "check finds no ACS redirect after the rollback"
exporter_stop gd
