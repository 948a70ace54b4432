#!/usr/bin/env python3
"""Generate the demo cluster: a plan and one replayable capture per node.

    python3 examples/generate.py            # rewrite examples/demo/
    python3 examples/generate.py --check    # exit 1 if the checked-in demo differs

Twelve GPU nodes with two ConnectX-7 400G RoCE NICs each (rail 0 on mlx5_0 /
ens1f0np0, rail 1 on mlx5_1 / ens2f0np0). Most nodes carry one seeded fault of
a kind operators actually hit; gpu-01 is healthy. Every node has the LLDP
neighbours lldpd would report (kernel/lldp/neighbors.json); gpu-12's rail-1 NIC
is cabled to rail 0's leaf. Every switch port sends its DCB settings as IEEE 802.1Qaz
TLVs (PFC on priority 3; DSCP 26 -> 3, DSCP 48 -> 6, UDP 4791 -> 3), which lldpd keeps as
unknown TLVs; the port gpu-08's mlx5_1 is cabled to enables PFC on priority 4 instead. Every
node has a motion.json so its counters move while replayed (docs/capture.md):
RoCE traffic, CNPs, ECN marks and a little PFC pause on priority 3; drops and
retransmissions where PFC is off; a pause storm on gpu-10.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tools" / "gen"))

import kernel_answers as ka  # noqa: E402
import node_tree as nt  # noqa: E402
import vendor_answers as va  # noqa: E402
from mlx5_answers import (  # noqa: E402
    GENL_PORTID, MLX5_FW, MLX5_PRIV_FLAGS, MLX5_SELF_TESTS, MLX5_STRINGS, ROUTE_PORTID,
    ethtool_answers, hw_counters, mlx5_dcb, mlx5_link_settings, mlx5_stat_values, pma_counters)

KERNEL = "6.8.0-60-generic"
DEMO = HERE / "demo"
FIRST_PORT = 19101                   # gpu-01's exporter; gpu-NN's is FIRST_PORT + NN - 1
FIRMWARE = "28.39.2048"
OLD_FIRMWARE = "28.36.1010"
NODES = 14
NICS = [  # ibdev, netdev, pci, numa, rail subnet
    ("mlx5_0", "ens1f0np0", "0000:17:00.0", 0, "10.10.0"),
    ("mlx5_1", "ens2f0np0", "0000:3d:00.0", 1, "10.11.0"),
]
# The nodes whose RoCE NICs are not ConnectX: gpu-13 has two Broadcom Thor (bnxt_en with
# bnxt_re, Broadcom's driver package), gpu-14 two Intel E810 (ice with irdma, in-tree) on the
# same rails. Their `ethtool -S` names
# and values are real published dumps (tools/gen/vendor_answers.py).
VENDOR_NODES: Dict[int, tuple] = {
    13: (va.BROADCOM, "roce-200g-thor", [
        ("bnxt_re0", "ens1f0np0", "0000:17:00.0", 0, "10.10.0"),
        ("bnxt_re1", "ens2f0np0", "0000:3d:00.0", 1, "10.11.0")]),
    14: (va.INTEL_E810, "roce-100g-e810", [
        ("irdma0", "ens1f0", "0000:17:00.0", 0, "10.10.0"),
        ("irdma1", "ens2f0", "0000:3d:00.0", 1, "10.11.0")]),
}

# The seeded faults: node -> (ibdev, kind, what the report must name).
FAULTS: Dict[str, tuple] = {
    "gpu-02": ("mlx5_1", "pfc-off", "qos.pfc-priorities"),
    "gpu-03": ("mlx5_0", "trust-pcp", "qos.trust"),
    "gpu-04": ("mlx5_1", "ecn-np-off", "ecn.np-priorities"),
    "gpu-05": ("mlx5_1", "nic-missing", "inventory.device-missing"),
    "gpu-06": ("mlx5_0", "pcie-x8", "link.pcie-degraded"),
    "gpu-07": ("mlx5_1", "rx-power-low", "optics.warning"),
    "gpu-08": ("mlx5_0", "old-firmware", "versions.firmware"),
    "gpu-09": ("mlx5_1", "mtu-1500", "link.netdev-mtu"),
    "gpu-10": ("mlx5_0", "pause-storm", "counters.pause-storm"),
    "gpu-11": ("mlx5_1", "cable-out", "link.port-down"),
    "gpu-12": ("mlx5_1", "miscabled", "cabling.switch-port"),
}
# The vendor nodes' faults, the same kinds as on the ConnectX nodes: node -> [(ibdev, kind, what
# the report must name)]. "pfc-off" here also shows what the switch keeps doing: it still pauses
# priority 3 (frames the NIC counts but does not obey), and its ECN marks turn into a CNP storm.
VENDOR_FAULTS: Dict[str, List[tuple]] = {
    "gpu-13": [("bnxt_re0", "pause-storm", "counters.pause-storm"),
               ("bnxt_re1", "pfc-off", "qos.pfc-priorities")],
    "gpu-14": [("irdma0", "pfc-off", "qos.pfc-priorities")],
}
# Faults on the switch's end of a link (the node's own settings are right): node -> (ibdev of
# the NIC on the link, kind, what the report must name).
SWITCH_FAULTS: Dict[str, tuple] = {
    "gpu-08": ("mlx5_1", "switch-pfc-priority-4", "peer.roce-priority-pfc"),
}

# Faults of a link's quality, which neither end's settings cause: node -> (ibdev, kind, what the
# report must name). "fec-uncorrectable": RS-FEC corrects far more blocks than on the other links
# and some it cannot correct rise every second (a dirty connector, a failing transceiver).
LINK_FAULTS: Dict[str, tuple] = {
    "gpu-03": ("mlx5_1", "fec-uncorrectable", "counters.fec-uncorrectable"),
}
# Faults of what the node's driver counts: node -> (ibdev, kind, what the report must name).
# "optional-counters-off": the node rebooted and its optional counters (enabled with `rdma
# statistic set`, not persisted) are off again.
COUNTER_FAULTS: Dict[str, tuple] = {
    "gpu-09": ("mlx5_0", "optional-counters-off", "counters.optional-disabled"),
}
# mlx5's optional hw counters (rdma statistic mode supported) and their indexes after the
# 43 default ones; the plan wants them all enabled.
OPTIONAL_COUNTERS = [("cc_rx_ce_pkts", 43), ("cc_rx_cnp_pkts", 44), ("cc_tx_cnp_pkts", 45)]

# Healthy traffic per NIC, per second (raw units: 4-byte words, µs, frames).
TRAFFIC = {
    "port_xmit_data": 2.8e9, "port_rcv_data": 2.7e9,        # ~90 Gb/s each way
    "port_xmit_packets": 2.7e6, "port_rcv_packets": 2.6e6,
}
HW_TRAFFIC = {"np_cnp_sent": 800, "rp_cnp_handled": 650, "np_ecn_marked_roce_packets": 820,
              "rx_write_requests": 2.1e6, "rx_read_requests": 4.0e4}
ETHTOOL_TRAFFIC = {
    "rx_prio3_bytes": 1.08e10, "tx_prio3_bytes": 1.12e10,
    "rx_prio3_packets": 2.6e6, "tx_prio3_packets": 2.7e6,
    "rx_prio6_packets": 650, "tx_prio6_packets": 800,
    "rx_prio3_pause": 40, "tx_prio3_pause": 25,
    "rx_prio3_pause_duration": 2000, "tx_prio3_pause_duration": 1500,  # 0.2% of the time
    "rx_prio3_pause_transition": 38, "rx_prio3_marked": 820,
    "rx_bytes_phy": 1.09e10, "tx_bytes_phy": 1.13e10,
    "rx_packets_phy": 2.61e6, "tx_packets_phy": 2.71e6,
}


def ip_of(node_index: int, subnet: str) -> str:
    return f"{subnet}.{node_index}"


def mac_of(node_index: int, nic: int) -> str:
    return f"94:6d:ae:{0x10 + node_index:02x}:{0x20 + nic:02x}:{0x3a + nic:02x}"


def switch_mac(rail: int) -> str:
    return f"0c:42:a1:00:{rail:02x}:00"


def tlv_hex(data: bytes) -> str:
    """An unknown TLV's value as lldpd 1.0.16's json0 prints it: "08,08"."""
    return ",".join(f"{b:02X}" for b in data)


def dcbx_tlvs(pfc_priorities) -> list:
    """The switch port's IEEE 802.1Qaz TLVs (OUI 00-80-C2) as lldpd keeps them (it does not
    decode them; tests/fixtures/real/lldpcli-1.0.16/neighbors-dcbx-json0.json is a real one):
    PFC Configuration (subtype 11: willing 0, MBC 0, PFC capability 8; the enable bitmap) and
    Application Priority (subtype 12: a reserved byte, then priority << 5 | selector and the
    16-bit protocol: DSCP (5) 26 -> 3, DSCP 48 -> 6, UDP (3) 4791 -> 3)."""
    pfc = bytes([0x08, sum(1 << p for p in pfc_priorities)])
    app = bytes([0x00,
                 3 << 5 | 5, 0, 26,
                 6 << 5 | 5, 0, 48,
                 3 << 5 | 3, 4791 >> 8, 4791 & 0xFF])
    return [{"oui": "00,80,C2", "subtype": str(subtype), "len": str(len(value)),
             "value": tlv_hex(value)} for subtype, value in ((11, pfc), (12, app))]


def lldp_neighbor(netdev: str, rail: int, port: int, pfc_priorities=(3,)) -> dict:
    """One interface of `lldpcli -f json0 show neighbors details` as lldpd 1.0.16 prints it
    (tests/fixtures/real/lldpcli-1.0.16), for a SONiC-like leaf sending DCBX."""
    return {"name": netdev, "via": "LLDP", "rid": str(rail + 1), "age": "12 days, 03:04:05",
            "chassis": [{"id": [{"type": "mac", "value": switch_mac(rail)}],
                         "name": [{"value": f"leaf-{rail}"}],
                         "descr": [{"value": "SONiC Software Version: SONiC.202305"}],
                         "mgmt-ip": [{"value": f"192.168.200.{rail + 1}"}]}],
            "port": [{"id": [{"type": "local", "value": f"Ethernet{port}"}],
                      "descr": [{"value": f"etp{port // 4}"}],
                      "ttl": [{"value": "120"}]}],
            "unknown-tlvs": [{"unknown-tlv": dcbx_tlvs(pfc_priorities)}]}


def nic_kind(host: str, ib: str) -> Optional[str]:
    """The seeded fault of the NIC's own settings or traffic (FAULTS, VENDOR_FAULTS), if any."""
    fault = FAULTS.get(host)
    if fault and fault[0] == ib:
        return fault[1]
    for dev, kind, _check in VENDOR_FAULTS.get(host, []):
        if dev == ib:
            return kind
    return None


def mlx5_nic(index: int, host: str, n: int, nic: tuple, kind: Optional[str]) -> tuple:
    """A ConnectX-7 NIC: its device spec, hw counters, ethtool and dcbnl answers, and its
    motion (sysfs and ethtool rates)."""
    ib, netdev, pci, numa, subnet = nic
    seed = f"demo/{host}/{ib}"
    hw = hw_counters(f"{seed}/hw", nt.mlx5_hw_counter_names(), out_of_sequence=0, packet_seq_err=0,
                     local_ack_timeout_err=0, roce_adp_retrans=0, roce_adp_retrans_to=0,
                     implied_nak_seq_err=0, req_transport_retries_exceeded=0,
                     rnr_nak_retry_err=0, out_of_buffer=0)
    mtu = 1500 if kind == "mtu-1500" else 9000
    up = kind != "cable-out"
    ecn = nt.EcnSpec(np_enabled=() if kind == "ecn-np-off" else (3,), rp_enabled=(3,))
    dev = nt.mlx5_roce_device(
        ib, pci=pci, netdev=netdev, mac=mac_of(index, n), ifindex=3 + n,
        roce_ips=[ip_of(index, subnet)], numa_node=numa, hostname=host,
        counters=pma_counters(3_000_000_000 + index * 7_919 + n * 104_729,
                              2_950_000_000 + index * 6_007 + n * 99_991, 4118, 4106,
                              18_000 + index, 17_900 + index),
        hw_counters=hw,
        ecn=ecn, rdma_cm=nt.RdmaCmPortSpec(),
        fw_ver=OLD_FIRMWARE if kind == "old-firmware" else FIRMWARE,
        mtu=mtu, carrier_changes=3 if kind == "cable-out" else 2, link_up=up)
    dev.ports[0].gid_table_len = 16
    if kind == "pcie-x8":
        dev.pci.current_link_width = 8

    # Kernel answers, as mlx5 gives them.
    explicit = {k: 0 for k in ("rx_discards_phy", "tx_discards_phy", "rx_prio3_discards",
                               "rx_prio0_discards", "rx_prio0_buf_discard", "rx_out_of_buffer",
                               "tx_pause_storm_warning_events", "tx_pause_storm_error_events",
                               "link_down_events_phy")}
    explicit.update({"rx_prio3_pause": 1_000_000 + index * 997, "tx_prio3_pause": 400_000 + index,
                     "rx_prio3_pause_duration": 90_000_000, "tx_prio3_pause_duration": 30_000_000})
    values = mlx5_stat_values(MLX5_STRINGS, f"{seed}/ethtool", explicit)
    fw = (OLD_FIRMWARE if kind == "old-firmware" else FIRMWARE) + " (MT_0000000838)"
    answers = ethtool_answers(
        netdev, names=MLX5_STRINGS, values=values, link_settings=mlx5_link_settings(up),
        drvinfo=ka.ethtool_drvinfo(driver="mlx5_core", kernel_release=KERNEL, fw_version=fw,
                                   bus_info=pci, n_priv_flags=MLX5_PRIV_FLAGS,
                                   n_stats=len(MLX5_STRINGS), testinfo_len=MLX5_SELF_TESTS))
    dcb = mlx5_dcb(400_000, 1_000_000, pfc_priorities=() if kind == "pfc-off" else (3,),
                   trust_dscp=kind != "trust-pcp")

    # Motion: healthy traffic, the fault's own symptoms on top.
    sysfs = {f"counters/{name}": rate for name, rate in TRAFFIC.items()}
    sysfs.update({f"hw_counters/{name}": rate for name, rate in HW_TRAFFIC.items()})
    eth = dict(ETHTOOL_TRAFFIC)
    if kind == "pfc-off":      # no PFC: the switch's pauses do not help, packets drop
        eth.update({"rx_prio3_pause": 0, "tx_prio3_pause": 0, "rx_prio3_pause_duration": 0,
                    "tx_prio3_pause_duration": 0, "rx_prio3_discards": 300,
                    "rx_discards_phy": 300})
        sysfs.update({"hw_counters/out_of_sequence": 60, "hw_counters/packet_seq_err": 25,
                      "hw_counters/roce_adp_retrans": 40})
    if kind == "pause-storm":  # a receiver that cannot drain: paused 70% of the time
        eth.update({"tx_prio3_pause": 25_000, "tx_prio3_pause_duration": 700_000,
                    "tx_pause_storm_warning_events": 0.1})
    optics = ("qsfp_dd_8_lane", None if kind == "rx-power-low" else 1.9)
    return dev, hw, answers, dcb, sysfs, eth, optics, up


def vendor_nic(vendor: va.Vendor, index: int, host: str, n: int, nic: tuple,
               kind: Optional[str]) -> tuple:
    """A Broadcom or Intel NIC, in the same shape as mlx5_nic(): the driver's own names for the
    same traffic and the same faults."""
    ib, netdev, pci, numa, subnet = nic
    seed = f"demo/{host}/{ib}"
    hw = hw_counters(f"{seed}/hw", vendor.hw_counters,
                     **{name: 0 for name in (vendor.out_of_sequence, vendor.sequence_nak) if name})
    pci_spec = nt.PciFunctionSpec(
        address=pci, driver=vendor.netdev_driver, vendor=vendor.pci_vendor,
        device=vendor.pci_device, subsystem_vendor=vendor.pci_vendor,
        subsystem_device=vendor.subsystem_device, numa_node=numa,
        current_link_speed=vendor.pcie_speed, max_link_speed=vendor.pcie_speed)
    port = nt.PortSpec(
        number=1, rate=vendor.rate, roce_ips=(ip_of(index, subnet),), rdma_cm=nt.RdmaCmPortSpec(),
        counters=pma_counters(1_500_000_000 + index * 7_919 + n * 104_729,
                              1_480_000_000 + index * 6_007 + n * 99_991, 4118, 4106,
                              18_000 + index, 17_900 + index) if vendor.pma else None,
        hw_counters=hw, gid_table_len=16)
    mac = mac_of(index, n)
    dev = nt.RdmaDeviceSpec(
        name=ib, pci=pci_spec, ports=[port], fw_ver=vendor.ib_fw_ver,
        netdev=nt.NetdevSpec(name=netdev, address=mac, ifindex=3 + n, mtu=9000,
                             speed=vendor.speed_mbps),
        node_guid=nt.mac_to_node_guid(mac), node_desc=f"{host} {ib}",
        # bnxt_re's device attributes are hw_rev and hca_type (its node_desc); irdma's hw_rev.
        hca_type=f"{host} {ib}", remove=["ib:board_id"] + ([] if vendor.pma else ["ib:hca_type"]))

    explicit: Dict[str, int] = {va.stat(vendor.rx_discards): 0}
    for direction in ("rx", "tx"):
        explicit[va.stat(vendor.pause_frames, direction, 3)] = (
            1_000_000 + index * 997 if direction == "rx" else 400_000 + index)
        if vendor.pause_duration_us:
            explicit[va.stat(vendor.pause_duration_us, direction, 3)] = (
                90_000_000 if direction == "rx" else 30_000_000)
    names, values = va.ethtool_stats(vendor, explicit)
    answers = ethtool_answers(
        netdev, names=names, values=values, link_settings=va.link_settings(vendor, True),
        drvinfo=ka.ethtool_drvinfo(driver=vendor.netdev_driver, kernel_release=KERNEL,
                                   version=vendor.driver_version or None,
                                   fw_version=vendor.fw_version, bus_info=pci,
                                   n_stats=len(names)))
    dcb = va.dcb(vendor, 400_000, 1_000_000, pfc_priorities=() if kind == "pfc-off" else (3,))

    sysfs = {f"counters/{name}": rate for name, rate in TRAFFIC.items()} if vendor.pma else {}
    sysfs.update({f"hw_counters/{vendor.cnp_sent}": HW_TRAFFIC["np_cnp_sent"],
                  f"hw_counters/{vendor.cnp_handled}": HW_TRAFFIC["rp_cnp_handled"],
                  f"hw_counters/{vendor.ecn_marked}": HW_TRAFFIC["np_ecn_marked_roce_packets"]})
    eth: Dict[str, float] = {}
    for d in ("rx", "tx"):
        eth[va.stat(vendor.port_bytes, d)] = ETHTOOL_TRAFFIC[f"{d}_bytes_phy"]
        eth[va.stat(vendor.pause_frames, d, 3)] = ETHTOOL_TRAFFIC[f"{d}_prio3_pause"]
        if vendor.pause_duration_us:
            eth[va.stat(vendor.pause_duration_us, d, 3)] = ETHTOOL_TRAFFIC[f"{d}_prio3_pause_duration"]
        if vendor.priority_bytes:
            eth[va.stat(vendor.priority_bytes, d, 3)] = ETHTOOL_TRAFFIC[f"{d}_prio3_bytes"]
            eth[va.stat(vendor.priority_packets, d, 3)] = ETHTOOL_TRAFFIC[f"{d}_prio3_packets"]
    if kind == "pfc-off":
        # The switch still pauses priority 3: the NIC counts the frames and does not stop, its
        # buffers overflow and the switch's ECN marks come back as a storm of CNPs.
        eth[va.stat(vendor.pause_frames, "tx", 3)] = 0
        if vendor.pause_duration_us:
            for d in ("rx", "tx"):
                eth[va.stat(vendor.pause_duration_us, d, 3)] = 0
        eth[va.stat(vendor.rx_discards)] = 300
        sysfs.update({f"hw_counters/{vendor.cnp_sent}": 50_000,
                      f"hw_counters/{vendor.cnp_handled}": 60_000,
                      f"hw_counters/{vendor.ecn_marked}": 52_000})
        if vendor.out_of_sequence:
            sysfs.update({f"hw_counters/{vendor.out_of_sequence}": 60,
                          f"hw_counters/{vendor.sequence_nak}": 25})
    if kind == "pause-storm":  # a receiver that cannot drain: it pauses its peer 70% of the time
        eth[va.stat(vendor.pause_frames, "tx", 3)] = 25_000
        eth[va.stat(vendor.pause_duration_us, "tx", 3)] = 700_000
    return dev, hw, answers, dcb, sysfs, eth, (vendor.module, vendor.module_rx_scale), True


def build_node(index: int) -> tuple:
    """The NodeSpec of gpu-<index>, its motion and its optics (netdev, image, scale)."""
    host = f"gpu-{index:02d}"
    vendor = VENDOR_NODES.get(index)
    switch_fault = SWITCH_FAULTS.get(host)
    link_fault = LINK_FAULTS.get(host)
    counter_fault = COUNTER_FAULTS.get(host)
    devices, answers, optics = [], {}, []
    motion: Dict[str, dict] = {"version": 1, "sysfs": {}, "ethtool": {}}
    neighbors = []
    for n, nic in enumerate(vendor[2] if vendor else NICS):
        ib, netdev, pci, numa, subnet = nic
        kind = nic_kind(host, ib)
        if kind == "nic-missing":
            continue
        if vendor:
            dev, hw, nic_answers, dcb, sysfs, eth, module, up = vendor_nic(
                vendor[0], index, host, n, nic, kind)
            optional = []
        else:
            dev, hw, nic_answers, dcb, sysfs, eth, module, up = mlx5_nic(index, host, n, nic, kind)
            optional = OPTIONAL_COUNTERS
        devices.append(dev)
        answers.update(nic_answers)
        answers[ka.key_dcb_ieee(netdev)] = ka.dcbnl_ieee_reply(netdev, dcb, seq=n + 1,
                                                               portid=ROUTE_PORTID)
        answers[ka.key_linkstate(netdev)] = (
            ka.ethtool_linkstate_reply(ifindex=3 + n, ifname=netdev, seq=2 * n + 1,
                                       portid=GENL_PORTID, link=True, ext_down_count=1) if up else
            ka.ethtool_linkstate_reply(ifindex=3 + n, ifname=netdev, seq=2 * n + 1,
                                       portid=GENL_PORTID, link=False,
                                       ext_state=ka.LINK_EXT_STATE_NO_CABLE, ext_down_count=2))
        answers[ka.key_pause(netdev)] = ka.ethtool_pause_reply(
            ifindex=3 + n, ifname=netdev, seq=2 * n + 2, portid=GENL_PORTID,
            autoneg=False, rx=False, tx=False, tx_frames=0, rx_frames=0)
        # RDMA netlink (kernel 6.0 and later): the port's hw counters in one STAT_GET answer, the
        # enabled optional ones among them, and which optional counters are enabled (mlx5's;
        # bnxt_re and irdma have none).
        optional_on = not (counter_fault and counter_fault[0] == ib)
        answers[ka.key_rdma_stat(ib, 1)] = ka.rdma_stat_reply(
            dev_index=n + 1, device=ib, port=1, seq=1, portid=0,
            counters=[(name, value) for name, value in hw.items() if isinstance(value, int)]
            + ([(name, 1_000 * (n + 1) + i) for name, i in optional] if optional_on else []))
        answers[ka.key_rdma_stat_status(ib, 1)] = ka.rdma_stat_status_reply(
            dev_index=n + 1, device=ib, port=1, seq=2, portid=0,
            optional=[(name, i, optional_on) for name, i in optional])
        # What RDMA netlink says of the job on it: one training process per NIC (its NCCL
        # channels' RC QPs, bound to a per-process counter by `rdma statistic qp set link DEV/1
        # auto type on pid on`), and ib_core's GSI QP; the resources they hold.
        pid = job_pid(index, n)
        rc_qps = [{"lqpn": 0x100 + q, "port": 1, "pid": pid, "type": 2, "state": 3} for q in range(16)]
        answers[ka.key_rdma_res_summary(ib)] = ka.rdma_res_summary_reply(
            dev_index=n + 1, device=ib, seq=3, portid=0,
            entries=[("pd", 2), ("cq", 18), ("qp", 17), ("cm_id", 0), ("mr", 4), ("ctx", 1), ("srq", 0)])
        answers[ka.key_rdma_qp_mode(ib, 1)] = ka.rdma_qp_mode_reply(
            dev_index=n + 1, device=ib, port=1, seq=4, portid=0, mode=ka.RDMA_COUNTER_MODE_AUTO, mask=3)
        answers[ka.key_rdma_qp_counters(ib, 1)] = ka.rdma_qp_counters_dump(
            dev_index=n + 1, device=ib, seq=5, portid=0,
            counters=[{"port": 1, "id": 1, "mode": ka.RDMA_COUNTER_MODE_AUTO, "qp_type": 2, "pid": pid,
                       "qps": [q["lqpn"] for q in rc_qps],
                       "counters": [(name, value) for name, value in hw.items() if isinstance(value, int)]}])
        answers[ka.key_rdma_res_qp(ib)] = ka.rdma_res_qp_dump(
            dev_index=n + 1, device=ib, seq=6, portid=0,
            qps=[{"lqpn": 1, "port": 1, "kern_name": "ib_core", "type": 1, "state": 3}] + rc_qps)
        # RS-FEC on every link, a few corrected blocks per lane and none uncorrectable.
        lanes = [1_000 + 37 * index + 11 * lane for lane in range(4)]
        answers[ka.key_fec(netdev)] = ka.ethtool_fec_reply(
            ifindex=3 + n, ifname=netdev, seq=2 * n + 3, portid=GENL_PORTID,
            modes=[ka.ETHTOOL_LINK_MODE_FEC_RS_BIT], active=ka.ETHTOOL_LINK_MODE_FEC_RS_BIT,
            corrected=[sum(lanes), *lanes], uncorrectable=[0, 0, 0, 0, 0],
            corrected_bits=[4 * sum(lanes), *(4 * v for v in lanes)])
        mtu = dev.netdev.mtu
        speed = vendor[0].ib_speed if vendor else ka.IBV_SPEED_NDR
        answers[ka.key_verbs_port(ib, 1)] = ka.ibv_port_attr(
            state=ka.IBV_PORT_ACTIVE if up else ka.IBV_PORT_DOWN, max_mtu=ka.IBV_MTU_4096,
            active_mtu=ka.IBV_MTU_1024 if mtu < 4096 + 96 else ka.IBV_MTU_4096, gid_tbl_len=16,
            port_cap_flags=ka.IBV_PORT_CM_SUP | ka.IBV_PORT_IP_BASED_GIDS, pkey_tbl_len=1,
            active_width=ka.IBV_WIDTH_4X, active_speed=speed if up else ka.IBV_SPEED_QDR,
            phys_state=ka.PHYS_STATE_LINK_UP if up else ka.PHYS_STATE_DISABLED,
            link_layer=ka.IBV_LINK_LAYER_ETHERNET)
        if up:                     # lldpd's neighbour; the miscabled NIC lands on rail 0's leaf
            rail, port = (0, 4 * index + 1) if kind == "miscabled" else (n, 4 * index)
            switch_kind = switch_fault[1] if switch_fault and switch_fault[0] == ib else None
            neighbors.append(lldp_neighbor(netdev, rail, port, pfc_priorities=(
                (4,) if switch_kind == "switch-pfc-priority-4" else (3,))))
        if not up:                 # the cable (a DAC/AOC with its module) was pulled
            optics.append((netdev, "none", None))
            continue
        optics.append((netdev, *module))
        base = f"class/infiniband/{ib}/ports/1"
        for path, rate in sysfs.items():
            motion["sysfs"][f"{base}/{path}"] = rate
        motion["ethtool"][netdev] = eth
        if link_fault and link_fault[0] == ib and link_fault[1] == "fec-uncorrectable":
            motion.setdefault("fec", {})[netdev] = {"corrected": 20_000, "uncorrectable": 2}
    answers["lldp/neighbors.json"] = (json.dumps({"lldp": [{"interface": neighbors}]}, indent=2)
                                      + "\n").encode()
    overrides: Dict[str, str] = {}
    if vendor and vendor[0] is va.BROADCOM:
        # Broadcom's driver package (the RoCE driver its Thor NICs are run with), its configfs
        # congestion-control group made by the node's setup: ECN on, CNPs and RoCE marked as
        # the plan says.
        # MODULE_VERSION gives the out-of-tree module its sysfs version file.
        overrides["sys/module/bnxt_en/version"] = vendor[0].driver_version + "\n"
        for dev in devices:
            overrides.update(va.bnxt_re_cc_group(dev.name, cnp_dscp=48, cnp_prio=6, roce_dscp=26,
                                                 roce_prio=3, ecn_enable=True))
    faults = ([FAULTS[host]] if host in FAULTS else []) + VENDOR_FAULTS.get(host, []) + [
        f for f in (switch_fault, link_fault, counter_fault) if f]
    return (nt.NodeSpec(hostname=host, kernel=KERNEL,
                        description=f"demo node {host}"
                        + (f" ({vendor[0].netdev_driver})" if vendor else "")
                        + "".join(f"; seeded fault: {f[1]} on {f[0]}" for f in faults)
                        + ("" if faults else "; healthy"),
                        devices=devices, extra_netdevs=[], kernel_answers=answers,
                        overrides=overrides),
            motion, optics)


def job_pid(node: int, nic: int) -> int:
    """The training process on NIC `nic` of node `node` (its /proc entry: write())."""
    return 41_000 + 10 * node + nic


def plan() -> dict:
    with open(REPO / "lint" / "plan" / "example-plan.json") as f:
        profile = json.load(f)["profiles"]["roce-400g"]
    profile = dict(profile)
    profile["firmware"] = [FIRMWARE]
    profile["driver_version"] = KERNEL
    profile["optics"] = {"temperature_celsius_max": 75, "rx_power_dbm_min": -14.0}
    profile["optional_counters"] = [name for name, _ in OPTIONAL_COUNTERS]
    profiles = {"roce-400g": profile}
    for vendor, name, _nics in VENDOR_NODES.values():
        # The same QoS plan on another vendor's NIC: its speed, PCIe, driver, driver version and
        # firmware; no DCQCN parameters or optional counters (those of the plan are mlx5's names).
        other = {k: v for k, v in profile.items() if k not in ("dcqcn", "optional_counters")}
        other.update({"link_speed_gbps": vendor.speed_mbps // 1000, "driver": vendor.netdev_driver,
                      "driver_version": vendor.driver_version or KERNEL,
                      "firmware": [vendor.ib_fw_ver], "pcie": {"speed_gts": 16, "width": 16}})
        profiles[name] = other
    nodes = []
    for i in range(1, NODES + 1):
        host = f"gpu-{i:02d}"
        _vendor, profile_name, nics = VENDOR_NODES.get(i, (None, "roce-400g", NICS))
        nodes.append({
            "name": host, "management_ip": f"192.168.100.{i}",
            "exporter": f"127.0.0.1:{FIRST_PORT + i - 1}",
            "labels": {"rack": f"r{(i - 1) // 4 + 1}"},
            "nics": [{"ib_dev": ib, "netdev": nd, "profile": profile_name,
                      "roce_ip": f"{ip_of(i, subnet)}/24", "rail": r,
                      "switch_port": f"leaf-{r}:Ethernet{4 * i}"}
                     for r, (ib, nd, _pci, _numa, subnet) in enumerate(nics)],
        })
    return {"cluster": "demo", "defaults": {"exporter_port": 9879},
            "profiles": profiles, "nodes": nodes}


def write(dest: Path, writer: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "plan.json").write_text(json.dumps(plan(), indent=2) + "\n")
    faults: Dict[str, list] = {}
    for table in (FAULTS, SWITCH_FAULTS, LINK_FAULTS, COUNTER_FAULTS):
        for n, (d, k, c) in table.items():
            faults.setdefault(n, []).append({"device": d, "fault": k, "check": c})
    for n, entries in VENDOR_FAULTS.items():
        for d, k, c in entries:
            faults.setdefault(n, []).append({"device": d, "fault": k, "check": c})
    (dest / "faults.json").write_text(json.dumps(faults, indent=2, sort_keys=True) + "\n")
    for i in range(1, NODES + 1):
        spec, motion, optics = build_node(i)
        node_dir = nt.write_node(spec, dest / "nodes" / spec.hostname, replace=True)
        (node_dir / "motion.json").write_text(json.dumps(motion, indent=1, sort_keys=True) + "\n")
        for n in range(len(NICS)):  # the training processes' /proc (--collector.rdma.per-process)
            proc = node_dir / "proc" / str(job_pid(i, n))
            proc.mkdir(parents=True, exist_ok=True)
            (proc / "comm").write_text("python3\n")
            (proc / "cgroup").write_text(f"0::/kubepods.slice/kubepods-pod{i:04d}.slice/cri-containerd-train{n}.scope\n")
        for netdev, image, scale in optics:
            cmd = [str(writer), str(node_dir), netdev, image]
            if scale is not None:
                cmd.append(f"--rx-power-scale={scale}")
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the checked-in demo")
    ap.add_argument("--optics-writer", type=Path,
                    default=REPO / "build" / "tests" / "exporter" / "optics" / "optics_capture_writer")
    args = ap.parse_args(argv)
    if not args.optics_writer.is_file():
        print(f"{args.optics_writer}: not found; build first or pass --optics-writer")
        return 2
    if not args.check:
        write(DEMO, args.optics_writer)
        print(f"wrote {DEMO}")
        return 0
    with tempfile.TemporaryDirectory(prefix="rocewatch-demo-") as tmp:
        fresh = Path(tmp) / "demo"
        write(fresh, args.optics_writer)
        diff = nt.diff_trees(nt.snapshot(fresh), nt.snapshot(DEMO))
        if diff:
            print("examples/demo differs from examples/generate.py output:")
            print("\n".join("  " + line for line in diff[:50]))
            return 1
    print("examples/demo: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
