"""Builders for what a Broadcom (bnxt_en with bnxt_re) and an Intel E810 (ice with irdma) RoCE
node answers, for the demo cluster (examples/generate.py): the `ethtool -S` names and values
come from the real published dumps under tests/fixtures/real/ethtool-S (their PROVENANCE.md),
the hw counter names from each RDMA driver's kernel source, the link settings and dcbnl state
from what each netdev driver's ethtool and dcbnl ops report. Built on node_tree.py and
kernel_answers.py, like mlx5_answers.py for ConnectX."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import kernel_answers as ka

REPO = Path(__file__).resolve().parent.parent.parent
DUMPS = REPO / "tests" / "fixtures" / "real" / "ethtool-S"

LINK_MODE_100000baseKR4_Full = 36     # include/uapi/linux/ethtool.h
LINK_MODE_100000baseSR4_Full = 37
LINK_MODE_100000baseCR4_Full = 38
LINK_MODE_100000baseLR4_ER4_Full = 39
LINK_MODE_200000baseKR4_Full = 62
LINK_MODE_200000baseSR4_Full = 63
LINK_MODE_200000baseLR4_ER4_FR4_Full = 64
LINK_MODE_200000baseDR4_Full = 65
LINK_MODE_200000baseCR4_Full = 66


def real_dump(name: str) -> List[Tuple[str, int]]:
    """The (name, value) pairs of a published `ethtool -S` dump, in the driver's order. The
    name is everything before the last ": " of a line (bnxt's ring statistics are
    "[3]: rx_ucast_packets")."""
    out: List[Tuple[str, int]] = []
    for line in (DUMPS / name).read_text().splitlines():
        if not line.strip() or line.startswith("NIC statistics"):
            continue
        stat, _, value = line.strip().rpartition(": ")
        if not stat:
            raise ValueError(f"{name}: not a statistic line: {line!r}")
        out.append((stat, int(value)))
    return out


@dataclass(frozen=True)
class Vendor:
    """One vendor's RoCE NIC as the demo serves it."""
    netdev_driver: str             # ETHTOOL_GDRVINFO driver and the PCI driver
    pci_vendor: str
    pci_device: str
    subsystem_device: str
    dump: str                      # the real `ethtool -S` dump its names and values come from
    driver_version: str            # what `ethtool -i` prints as version ("" : the kernel release)
    fw_version: str                # what `ethtool -i` prints
    ib_fw_ver: str                 # the RDMA device's sysfs fw_ver
    speed_mbps: int
    rate: str                      # the RDMA port's sysfs rate
    ib_speed: int                  # ibv_port_attr active_speed
    link_modes: Tuple[int, ...]
    pcie_speed: str
    port: int                      # ethtool's port type (direct attach copper, fibre)
    module: str                    # the transceiver image (tests/exporter/optics/images.h)
    module_rx_scale: Optional[float]   # its RX power scaled into the demo's healthy range
    hw_counters: Tuple[str, ...]   # the port's hw counters, in the driver's order
    pma: bool                      # the RDMA driver answers PMA (the port's counters/ directory)
    # The driver's statistic names for what the demo moves (None: the driver has none).
    pause_frames: str              # "{dir}" and "{prio}" filled in
    pause_duration_us: str
    priority_bytes: str
    priority_packets: str
    port_bytes: str
    rx_discards: str
    cnp_sent: str
    cnp_handled: str
    ecn_marked: str
    out_of_sequence: str
    sequence_nak: str


# bnxt_re's port hw counters on a Thor (BCM575xx, gen P5) device, Linux 6.8, in index order:
# drivers/infiniband/hw/bnxt_re/hw_counters.c bnxt_re_stat_descs, indexed by enum bnxt_re_hw_stats
# (hw_counters.h); a P5 chip gets BNXT_RE_NUM_EXT_COUNTERS (bnxt_re_ib_alloc_hw_port_stats). Read
# in the 6.8.0 and 6.8.1 release trees (hw_counters.c blob 128651c0, the same in both).
BNXT_RE_HW_COUNTERS: Tuple[str, ...] = (
    "active_pds", "active_ahs", "active_qps", "active_rc_qps", "active_ud_qps", "active_srqs",
    "active_cqs", "active_mrs", "active_mws", "watermark_pds", "watermark_ahs", "watermark_qps",
    "watermark_rc_qps", "watermark_ud_qps", "watermark_srqs", "watermark_cqs", "watermark_mrs",
    "watermark_mws", "resize_cq_cnt", "rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes",
    "recoverable_errors", "tx_roce_errors", "tx_roce_discards", "rx_roce_errors",
    "rx_roce_discards", "to_retransmits", "seq_err_naks_rcvd", "max_retry_exceeded",
    "rnr_naks_rcvd", "missing_resp", "unrecoverable_err", "bad_resp_err", "local_qp_op_err",
    "local_protection_err", "mem_mgmt_op_err", "remote_invalid_req_err", "remote_access_err",
    "remote_op_err", "dup_req", "res_exceed_max", "res_length_mismatch", "res_exceeds_wqe",
    "res_opcode_err", "res_rx_invalid_rkey", "res_rx_domain_err", "res_rx_no_perm",
    "res_rx_range_err", "res_tx_invalid_rkey", "res_tx_domain_err", "res_tx_no_perm",
    "res_tx_range_err", "res_irrq_oflow", "res_unsup_opcode", "res_unaligned_atomic",
    "res_rem_inv_err", "res_mem_err", "res_srq_err", "res_cmp_err", "res_invalid_dup_rkey",
    "res_wqe_format_err", "res_cq_load_err", "res_srq_load_err", "res_tx_pci_err",
    "res_rx_pci_err", "oos_drop_count", "tx_atomic_req", "tx_read_req", "tx_read_resp",
    "tx_write_req", "tx_send_req", "tx_roce_only_pkts", "tx_roce_only_bytes", "rx_atomic_req",
    "rx_read_req", "rx_read_resp", "rx_write_req", "rx_send_req", "rx_roce_only_pkts",
    "rx_roce_only_bytes", "rx_roce_good_pkts", "rx_roce_good_bytes", "rx_out_of_buffer",
    "tx_cnp_pkts", "rx_cnp_pkts", "rx_ecn_marked_pkts", "pacing_reschedule", "pacing_complete",
    "pacing_alerts", "db_fifo_register",
)

# irdma's hw counters on a gen 2 (E810) device, Linux 6.8, in index order:
# drivers/infiniband/hw/irdma/verbs.c irdma_hw_stat_names, indexed by enum irdma_hw_stats_index
# (type.h); gen 2 shows IRDMA_HW_STAT_INDEX_MAX_GEN_2 = 46 of them (verbs.c blob 0b046c06).
IRDMA_HW_COUNTERS: Tuple[str, ...] = (
    "ip4InDiscards", "ip4InTruncatedPkts", "ip4OutNoRoutes", "ip6InDiscards", "ip6InTruncatedPkts",
    "ip6OutNoRoutes", "tcpRetransSegs", "tcpInOptErrors", "tcpInProtoErrors", "rxVlanErrors",
    "ip4InOctets", "ip4InPkts", "ip4InReasmRqd", "ip4InMcastPkts", "ip4OutOctets", "ip4OutPkts",
    "ip4OutSegRqd", "ip4OutMcastPkts", "ip6InOctets", "ip6InPkts", "ip6InReasmRqd",
    "ip6InMcastPkts", "ip6OutOctets", "ip6OutPkts", "ip6OutSegRqd", "ip6OutMcastPkts", "tcpInSegs",
    "tcpOutSegs", "iwInRdmaReads", "iwInRdmaSends", "iwInRdmaWrites", "iwOutRdmaReads",
    "iwOutRdmaSends", "iwOutRdmaWrites", "iwRdmaBnd", "iwRdmaInv", "ip4InMcastOctets",
    "ip4OutMcastOctets", "ip6InMcastOctets", "ip6OutMcastOctets", "RxUDP", "TxUDP", "RxECNMrkd",
    "cnpHandled", "cnpIgnored", "cnpSent",
)

BROADCOM = Vendor(
    netdev_driver="bnxt_en", pci_vendor="0x14e4", pci_device="0x1750", subsystem_device="0x5208",
    dump="bnxt-ethq.txt", driver_version="1.10.3-230.0.132.0", fw_version="227.0.131.0/pkg 227.1.111.0", ib_fw_ver="227.0.131.0",
    speed_mbps=200000, rate="200 Gb/sec (4X HDR)", ib_speed=ka.IBV_SPEED_HDR,
    link_modes=(LINK_MODE_200000baseCR4_Full, LINK_MODE_200000baseSR4_Full,
                LINK_MODE_200000baseLR4_ER4_FR4_Full, LINK_MODE_200000baseDR4_Full),
    pcie_speed="16.0 GT/s PCIe", port=ka.PORT_DA, module="cmis_flat_memory", module_rx_scale=None,
    hw_counters=BNXT_RE_HW_COUNTERS, pma=True,
    pause_frames="{dir}_pfc_ena_frames_pri{prio}", pause_duration_us="pfc_pri{prio}_{dir}_duration_us",
    priority_bytes="{dir}_bytes_pri{prio}", priority_packets="{dir}_packets_pri{prio}",
    port_bytes="{dir}_bytes", rx_discards="rx_stat_discard",
    cnp_sent="tx_cnp_pkts", cnp_handled="rx_cnp_pkts", ecn_marked="rx_ecn_marked_pkts",
    out_of_sequence="oos_drop_count", sequence_nak="seq_err_naks_rcvd",
)
INTEL_E810 = Vendor(
    netdev_driver="ice", pci_vendor="0x8086", pci_device="0x1592", subsystem_device="0x0002",
    dump="ice-ethq.txt", driver_version="", fw_version="4.40 0x8001c967 1.3534.0", ib_fw_ver="1.71",
    speed_mbps=100000, rate="100 Gb/sec (4X EDR)", ib_speed=ka.IBV_SPEED_EDR,
    link_modes=(LINK_MODE_100000baseCR4_Full, LINK_MODE_100000baseSR4_Full,
                LINK_MODE_100000baseLR4_ER4_Full, LINK_MODE_100000baseKR4_Full),
    pcie_speed="16.0 GT/s PCIe", port=ka.PORT_FIBRE, module="qsfp28", module_rx_scale=1.5,
    hw_counters=IRDMA_HW_COUNTERS, pma=False,
    pause_frames="{dir}_priority_{prio}_xoff.nic", pause_duration_us="",
    priority_bytes="", priority_packets="",
    port_bytes="{dir}_bytes.nic", rx_discards="rx_dropped.nic",
    cnp_sent="cnpSent", cnp_handled="cnpHandled", ecn_marked="RxECNMrkd",
    out_of_sequence="", sequence_nak="",
)


def stat(pattern: str, direction: str = "", prio: int = 0) -> str:
    return pattern.format(dir=direction, prio=prio)


def ethtool_stats(vendor: Vendor, explicit: Dict[str, int]) -> Tuple[List[str], List[int]]:
    """The dump's names in its order, its values with ``explicit`` ones replacing them."""
    pairs = real_dump(vendor.dump)
    names = [n for n, _ in pairs]
    unknown = set(explicit) - set(names)
    if unknown:
        raise KeyError(f"{vendor.dump} has no {sorted(unknown)}")
    return names, [explicit.get(n, v) for n, v in pairs]


def link_settings(vendor: Vendor, up: bool) -> bytes:
    """get_link_ksettings of the port (a direct-attach copper cable or an optical module),
    autonegotiation on, global pause off."""
    return ka.ethtool_link_settings(
        speed_mbps=vendor.speed_mbps if up else ka.SPEED_UNKNOWN,
        duplex=ka.DUPLEX_FULL if up else ka.DUPLEX_UNKNOWN,
        port=vendor.port, autoneg=ka.AUTONEG_ENABLE,
        supported=(ka.LINK_MODE_Autoneg, ka.LINK_MODE_FIBRE, ka.LINK_MODE_Pause,
                   ka.LINK_MODE_FEC_NONE, ka.LINK_MODE_FEC_RS) + vendor.link_modes,
        advertising=(ka.LINK_MODE_Autoneg, ka.LINK_MODE_FEC_RS) + vendor.link_modes)


def dcb(vendor: Vendor, pfc_tx: int, pfc_rx: int, pfc_priorities: Sequence[int]) -> ka.DcbConfig:
    """What the driver's dcbnl ops report after `dcb pfc set … prio-pfc 3:on`, ETS with
    priority 3 on TC 1 (50%) and the rest on TC 0, and DSCP 26 -> 3, 48 -> 6 in the APP
    table (the node's QoS follows DSCP). Neither driver has a dcbnl buffer op or maxrate
    (bnxt_dcb.c bnxt_dcbnl_ops; ice_dcb_nl.c dcbnl_ops); both run DCBX in the host."""
    apps = [ka.DcbApp(ka.IEEE_8021QAZ_APP_SEL_DSCP, 6, 48), ka.DcbApp(ka.IEEE_8021QAZ_APP_SEL_DSCP, 3, 26)]
    return ka.DcbConfig(
        ets=ka.IeeeEts(willing=0, ets_cap=8, cbs=0, tc_tx_bw=(50, 50, 0, 0, 0, 0, 0, 0),
                       tc_tsa=(ka.IEEE_8021QAZ_TSA_ETS,) * 2 + (ka.IEEE_8021QAZ_TSA_STRICT,) * 6,
                       prio_tc=(0, 0, 0, 1, 0, 0, 0, 0)),
        pfc=ka.IeeePfc(pfc_cap=8, pfc_en=sum(1 << p for p in pfc_priorities), mbc=0, delay=0,
                       requests=tuple(pfc_tx if p == 3 else 0 for p in range(8)),
                       indications=tuple(pfc_rx if p == 3 else 0 for p in range(8))),
        apps=apps,
        dcbx=ka.DCB_CAP_DCBX_HOST | ka.DCB_CAP_DCBX_VER_IEEE,
    )


def bnxt_re_cc_group(ib_dev: str, *, cnp_dscp: int, cnp_prio: int, roce_dscp: int, roce_prio: int,
                     ecn_enable: bool) -> Dict[str, str]:
    """The configfs congestion-control group of Broadcom's own bnxt_re (its driver package, not
    the in-tree module), as `mkdir /sys/kernel/config/bnxt_re/<ibdev>` leaves it on a Thor (P5)
    port: bnxt_re configfs.c (233.2.77.9, and the same in 229.0.139.0 and 230.0.132.0) prints
    every single-value file with "%#x\n" (so 0 reads "0", 26 "0x1a"), from the driver's copy
    of the firmware's parameters. Only the files the fix reads and writes, and their
    neighbours whose values the driver sets at start (bnxt_re_init_cc_param, bnxt_re_setup_cc:
    ECN marking ECT(0)... tos_ecn 1); the DCQCN tuning files of the P5 set are left out."""
    def hx(v: int) -> str:
        return f"{v:#x}\n"
    cc = f"configfs/bnxt_re/{ib_dev}/ports/1/cc"
    return {f"{cc}/{name}": hx(value) for name, value in (
        ("ecn_enable", 1 if ecn_enable else 0), ("ecn_marking", 1), ("cc_mode", 0),
        ("cnp_dscp", cnp_dscp), ("cnp_prio", cnp_prio), ("roce_dscp", roce_dscp),
        ("roce_prio", roce_prio))}
