#!/usr/bin/env python3
"""Build the capture directory of one synthetic Linux node with mlx5 NICs.

The tree is laid out exactly like the subset of a real node that
``roce_exporter`` reads (``--path.sysfs``, ``--path.configfs``,
``--path.debugfs``) and that ``roce_exporter capture DIR`` writes::

    DIR/capture.json   {"format": "rocewatch-capture", "version": 1, ...}
    DIR/sys/...        relative to /sys (symlinks as on a real node)
    DIR/configfs/...   relative to /sys/kernel/config (rdma_cm/...)
    DIR/debugfs/...    relative to /sys/kernel/debug (mlx5/<bdf>/cc_params/...)
    DIR/kernel/...     raw answers of the ioctl/netlink/verbs calls (docs/capture.md):
                       kernel/<key> holds the bytes, kernel/<key>.errno "<n> <NAME>" + newline

Python 3 standard library only.  The output is a pure function of the spec:
no timestamps, no randomness except through :func:`seeded_values` with an
explicit seed, files sorted, modes fixed (0644 files, 0755 directories).

Facts encoded here (checked against the kernel and MLNX_OFED sources):

* ``drivers/infiniband/core/sysfs.c``: port attributes ``state`` ("4: ACTIVE"),
  ``phys_state`` ("5: LinkUp"), ``rate`` ("400 Gb/sec (4X NDR)"), ``lid``/
  ``sm_lid`` ("0x%x"), ``lid_mask_count``, ``sm_sl``, ``cap_mask``
  ("0x%08x"), ``link_layer``; PMA ``counters/`` group: mlx5 answers
  ClassPortInfo with IB_PMA_CLASS_CAP_EXT_WIDTH so the *extended* table
  (:data:`PMA_COUNTERS_EXT`, 21 files) is used; ``port_xmit_data`` and
  ``port_rcv_data`` count 4-byte words.  ``hw_counters/`` holds every
  non-optional driver counter plus ``lifespan`` (ms, default 10).
  ``gids/<i>`` is printed with %pI6 (8 groups of 4 hex digits); reading
  ``gid_attrs/{types,ndevs}/<i>`` of an empty GID entry fails with EINVAL,
  which a capture represents as an absent file.
* ``drivers/infiniband/hw/mlx5/counters.c`` (6.x): q counters (32-bit, wrap),
  congestion counters and ``rx_icrc_encapsulated`` (64-bit); the optional
  op counters (``cc_rx_ce_pkts``, ``rdma_tx_bytes``...) never appear in sysfs.
* ``drivers/infiniband/hw/mlx5/main.c`` (mlx5_query_port_roce): a RoCE port
  is "1: DOWN" / "3: Disabled" unless its netdev is running with carrier, and
  a port without an operational Ethernet protocol reports the default rate
  "40 Gb/sec (4X QDR)".
* ``drivers/infiniband/hw/mlx5/cong.c``: debugfs ``mlx5/<bdf>/cc_params/``
  names (:data:`CC_PARAMS_DEFAULTS`); files are mode 0600 (root only).
* MLNX_OFED ``en_sysfs.c``: ``<netdev>/ecn/roce_rp`` and ``ecn/roce_np``,
  each with ``enable/0..7`` and the DCQCN parameters beside them.
* ``drivers/infiniband/core/cma_configfs.c``: ``rdma_cm/<dev>/ports/<n>/
  default_roce_mode`` ("RoCE v2" or "IB/RoCE v1") and ``default_roce_tos``.
* ``drivers/pci/iov.c`` (pci_iov_sysfs_link): a VF's directory has ``physfn`` linking
  to its PF, the PF ``virtfn<N>`` to each VF, and ``sriov_numvfs``/``sriov_totalvfs``
  (Documentation/ABI/testing/sysfs-bus-pci); VFs sit beside their PF on its bus.
* ``net/core/net-sysfs.c``: ``speed`` is "%d" (so "-1" for SPEED_UNKNOWN on a
  running netdev without link), ``duplex`` is "unknown" then; ``speed``,
  ``duplex`` and ``carrier`` fail with EINVAL on a netdev that is not
  running (admin down) and ``speed``/``duplex`` fail on ``lo``.

Usage (see tests/fixtures/generate.py for complete examples)::

    import node_tree as nt
    dev = nt.mlx5_roce_device("mlx5_0", pci="0000:17:00.0",
                              netdev="ens1f0np0", mac="94:6d:ae:b1:2c:3a",
                              roce_ips=["10.1.0.11"], ifindex=3)
    node = nt.NodeSpec(hostname="gpu-node-01", devices=[dev],
                       extra_netdevs=[nt.intel_ice_netdev("eno1", ...)])
    nt.write_node(node, "out/gpu-node-01")

Kernel answers: :class:`NodeSpec` ``kernel_answers`` maps a key, exactly as
exporter/kernel/calls.h names it ("ethtool/ens1f0np0/drvinfo",
"dcbnl/ens1f0np0/ieee", "verbs/mlx5_0/port1"; ``kernel_answers.key_*`` build
them), to the answer: ``bytes`` (written to ``kernel/<key>``) or a
:class:`KernelErrno` (written to ``kernel/<key>.errno`` as "95 EOPNOTSUPP").
tools/gen/kernel_answers.py builds the bytes the way the kernel does
(ethtool ioctl structs, dcbnl and ethtool genetlink replies, ibv_port_attr)
on top of tools/gen/netlink_bytes.py (generic netlink messages).

Paths in ``overrides`` / ``remove`` of a :class:`RdmaDeviceSpec` carry a
prefix naming the directory they are relative to:

    ``ib:``       <pci>/infiniband/<ibdev>/      e.g. "ib:ports/1/counters/VL15_dropped"
    ``net:``      <pci>/net/<netdev>/            e.g. "net:ecn/roce_np/enable/3"
    ``pci:``      <pci>/                          e.g. "pci:current_link_width"
    ``configfs:`` configfs/rdma_cm/<ibdev>/       e.g. "configfs:ports/1/default_roce_tos"
    ``debugfs:``  debugfs/mlx5/<bdf>/             e.g. "debugfs:cc_params/rp_gd"

:class:`NodeSpec` ``overrides`` / ``remove`` take paths relative to the
capture directory itself ("sys/...", "configfs/...", "debugfs/...").
Symlinks in the directory part of any such path are followed, so
"sys/class/net/lo/mtu" names the file under devices/virtual/net/lo.
An override is written byte for byte (no newline added); values in the
counter/parameter dicts get the trailing newline sysfs prints.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import os
import random
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

__all__ = [
    # constants
    "PMA_COUNTERS", "PMA_COUNTERS_EXT", "PMA_COUNTERS_NOIETF",
    "MLX5_Q_COUNTERS_BASIC", "MLX5_Q_COUNTERS_OUT_OF_SEQ", "MLX5_Q_COUNTERS_RETRANS",
    "MLX5_Q_COUNTERS_EXTENDED_ERR", "MLX5_Q_COUNTERS_ROCE_ACCL", "MLX5_CONG_COUNTERS",
    "MLX5_EXT_PPCNT_COUNTERS", "MLX5_Q_COUNTERS", "MLX5_HW_COUNTERS_ALL",
    "ECN_RP_DEFAULTS", "ECN_NP_DEFAULTS", "CC_PARAMS_DEFAULTS", "CC_PARAMS_RTT_RESP",
    "GID_TYPE_V1", "GID_TYPE_V2", "ZERO_GID", "CAPTURE_FORMAT", "CAPTURE_VERSION",
    # spec types
    "Value", "PciFunctionSpec", "EcnSpec", "NetdevSpec", "RdmaCmPortSpec", "PortSpec",
    "RdmaDeviceSpec", "EthernetFunctionSpec", "NodeSpec", "KernelErrno", "ERRNO_NAMES",
    # helpers
    "mlx5_hw_counter_names", "seeded_values", "mac_to_link_local_gid", "ipv4_mapped_gid",
    "guid_to_gid", "mac_to_node_guid", "ipoib_hw_address", "default_pci_parents",
    "mlx5_roce_device", "mlx5_ib_device", "intel_ice_netdev",
    # writing and comparing
    "build_entries", "write_node", "snapshot", "diff_trees", "TreeError",
]

Value = Union[int, str, bytes]
"""A sysfs attribute value: an int (printed as "%d\\n"), a str (a newline is
appended unless present) or bytes (written exactly)."""

CAPTURE_FORMAT = "rocewatch-capture"
CAPTURE_VERSION = 1
CREATED_BY = "tools/gen/node_tree.py (synthetic)"

# --- drivers/infiniband/core/sysfs.c: PMA counter tables -------------------

PMA_COUNTERS: Tuple[str, ...] = (
    "symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
    "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors",
    "port_xmit_discards", "port_xmit_constraint_errors",
    "port_rcv_constraint_errors", "local_link_integrity_errors",
    "excessive_buffer_overrun_errors", "VL15_dropped", "port_xmit_data",
    "port_rcv_data", "port_xmit_packets", "port_rcv_packets", "port_xmit_wait",
)
"""pma_attrs: devices without extended-width PMA counters (32-bit data)."""

PMA_COUNTERS_EXT: Tuple[str, ...] = PMA_COUNTERS + (
    "unicast_rcv_packets", "unicast_xmit_packets",
    "multicast_rcv_packets", "multicast_xmit_packets",
)
"""pma_attrs_ext: what mlx5 exposes (IB_PMA_CLASS_CAP_EXT_WIDTH); data and
packet counters are 64-bit, data in 4-byte words."""

PMA_COUNTERS_NOIETF: Tuple[str, ...] = PMA_COUNTERS
"""pma_attrs_noietf: the same names as pma_attrs (64-bit data/packets)."""

# Width in bits of each PMA counter in the extended table (for value checks).
PMA_WIDTH_EXT: Dict[str, int] = {
    "symbol_error": 16, "link_error_recovery": 8, "link_downed": 8,
    "port_rcv_errors": 16, "port_rcv_remote_physical_errors": 16,
    "port_rcv_switch_relay_errors": 16, "port_xmit_discards": 16,
    "port_xmit_constraint_errors": 8, "port_rcv_constraint_errors": 8,
    "local_link_integrity_errors": 4, "excessive_buffer_overrun_errors": 4,
    "VL15_dropped": 16, "port_xmit_wait": 32, "port_xmit_data": 64,
    "port_rcv_data": 64, "port_xmit_packets": 64, "port_rcv_packets": 64,
    "unicast_rcv_packets": 64, "unicast_xmit_packets": 64,
    "multicast_rcv_packets": 64, "multicast_xmit_packets": 64,
}

# --- drivers/infiniband/hw/mlx5/counters.c: hw_counters names --------------

MLX5_Q_COUNTERS_BASIC: Tuple[str, ...] = (
    "rx_write_requests", "rx_read_requests", "rx_atomic_requests",
    "rx_dct_connect", "out_of_buffer",
)
MLX5_Q_COUNTERS_OUT_OF_SEQ: Tuple[str, ...] = ("out_of_sequence",)
MLX5_Q_COUNTERS_RETRANS: Tuple[str, ...] = (
    "duplicate_request", "rnr_nak_retry_err", "packet_seq_err",
    "implied_nak_seq_err", "local_ack_timeout_err",
)
MLX5_Q_COUNTERS_EXTENDED_ERR: Tuple[str, ...] = (
    "resp_local_length_error", "resp_cqe_error", "req_cqe_error",
    "req_remote_invalid_request", "req_remote_access_errors",
    "resp_remote_access_errors", "resp_cqe_flush_error",
    "req_cqe_flush_error", "req_transport_retries_exceeded",
    "req_rnr_retries_exceeded",
)
MLX5_Q_COUNTERS_ROCE_ACCL: Tuple[str, ...] = (
    "roce_adp_retrans", "roce_adp_retrans_to", "roce_slow_restart",
    "roce_slow_restart_cnps", "roce_slow_restart_trans",
)
MLX5_CONG_COUNTERS: Tuple[str, ...] = (
    "rp_cnp_ignored", "rp_cnp_handled", "np_ecn_marked_roce_packets",
    "np_cnp_sent",
)
MLX5_EXT_PPCNT_COUNTERS: Tuple[str, ...] = ("rx_icrc_encapsulated",)

MLX5_Q_COUNTERS: Tuple[str, ...] = (
    MLX5_Q_COUNTERS_BASIC + MLX5_Q_COUNTERS_OUT_OF_SEQ + MLX5_Q_COUNTERS_RETRANS
    + MLX5_Q_COUNTERS_EXTENDED_ERR + MLX5_Q_COUNTERS_ROCE_ACCL
)
"""Queue counters: 32-bit in firmware (they wrap at 2**32)."""

MLX5_HW_COUNTERS_ALL: Tuple[str, ...] = (
    MLX5_Q_COUNTERS + MLX5_CONG_COUNTERS + MLX5_EXT_PPCNT_COUNTERS
)


def mlx5_hw_counter_names(*, out_of_seq: bool = True, retrans: bool = True,
                          extended_err: bool = True, roce_accl: bool = True,
                          cong: bool = True, ext_ppcnt: bool = True) -> Tuple[str, ...]:
    """The hw_counters names a mlx5 port shows, in kernel order, for the given
    firmware capabilities (out_of_seq_cnt, retransmission_q_counters,
    enhanced_error_q_counters, roce_accl, cc_query_allowed,
    rx_icrc_encapsulated_counter).  ``lifespan`` is not included."""
    names = list(MLX5_Q_COUNTERS_BASIC)
    if out_of_seq:
        names += MLX5_Q_COUNTERS_OUT_OF_SEQ
    if retrans:
        names += MLX5_Q_COUNTERS_RETRANS
    if extended_err:
        names += MLX5_Q_COUNTERS_EXTENDED_ERR
    if roce_accl:
        names += MLX5_Q_COUNTERS_ROCE_ACCL
    if cong:
        names += MLX5_CONG_COUNTERS
    if ext_ppcnt:
        names += MLX5_EXT_PPCNT_COUNTERS
    return tuple(names)


# --- DCQCN parameters --------------------------------------------------------

ECN_RP_DEFAULTS: Dict[str, int] = {
    # MLNX_OFED <netdev>/ecn/roce_rp/<name>; firmware defaults (ConnectX-5+).
    "clamp_tgt_rate": 0,
    "clamp_tgt_rate_after_time_inc": 1,
    "rpg_time_reset": 300,
    "rpg_byte_reset": 32767,
    "rpg_threshold": 1,
    "rpg_max_rate": 0,
    "rpg_ai_rate": 5,
    "rpg_hai_rate": 50,
    "rpg_gd": 11,
    "rpg_min_dec_fac": 50,
    "rpg_min_rate": 1,
    "rate_to_set_on_first_cnp": 0,
    "dce_tcp_g": 1019,
    "dce_tcp_rtt": 1,
    "rate_reduce_monitor_period": 4,
    "initial_alpha_value": 1023,
}

ECN_NP_DEFAULTS: Dict[str, int] = {
    # MLNX_OFED <netdev>/ecn/roce_np/<name>
    "min_time_between_cnps": 4,
    "cnp_dscp": 48,
    "cnp_802p_prio": 6,
}

CC_PARAMS_DEFAULTS: Dict[str, int] = {
    # upstream debugfs mlx5/<bdf>/cc_params/<name>, order of mlx5_ib_dbg_cc_name
    "rp_clamp_tgt_rate": 0,
    "rp_clamp_tgt_rate_ati": 1,
    "rp_time_reset": 300,
    "rp_byte_reset": 32767,
    "rp_threshold": 1,
    "rp_ai_rate": 5,
    "rp_max_rate": 0,
    "rp_hai_rate": 50,
    "rp_min_dec_fac": 50,
    "rp_min_rate": 1,
    "rp_rate_to_set_on_first_cnp": 0,
    "rp_dce_tcp_g": 1019,
    "rp_dce_tcp_rtt": 1,
    "rp_rate_reduce_monitor_period": 4,
    "rp_initial_alpha_value": 1023,
    "rp_gd": 11,
    "np_min_time_between_cnps": 4,
    "np_cnp_dscp": 48,
    "np_cnp_prio_mode": 0,
    "np_cnp_prio": 6,
}

CC_PARAMS_RTT_RESP: Dict[str, int] = {
    # Newer kernels (roce_cc_general capability) add these two files.
    "rtt_resp_dscp_valid": 0,
    "rtt_resp_dscp": 0,
}

GID_TYPE_V1 = "IB/RoCE v1"   # ib_cache_gid_type_str(IB_GID_TYPE_IB/ROCE)
GID_TYPE_V2 = "RoCE v2"      # ib_cache_gid_type_str(IB_GID_TYPE_ROCE_UDP_ENCAP)
ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000"

LINK_LAYER_ETHERNET = "Ethernet"
LINK_LAYER_INFINIBAND = "InfiniBand"


class TreeError(Exception):
    """A spec that cannot be turned into a consistent tree, or a refused write."""


# --- small formatting helpers ------------------------------------------------

def _norm_mac(mac: str) -> List[int]:
    parts = mac.split(":")
    if len(parts) != 6:
        raise TreeError(f"MAC address {mac!r}: expected 6 colon-separated bytes")
    return [int(p, 16) for p in parts]


def _fmt_ipv6_full(raw: bytes) -> str:
    """%pI6 formatting: 8 groups of 4 lower-case hex digits."""
    return ":".join(f"{raw[i]:02x}{raw[i + 1]:02x}" for i in range(0, 16, 2))


def mac_to_link_local_gid(mac: str) -> str:
    """The default RoCE GID of a netdev: fe80::/64 + modified EUI-64 of the MAC."""
    b = _norm_mac(mac)
    eui = bytes([b[0] ^ 0x02, b[1], b[2], 0xFF, 0xFE, b[3], b[4], b[5]])
    return _fmt_ipv6_full(bytes([0xFE, 0x80] + [0] * 6) + eui)


def ipv4_mapped_gid(ip: str) -> str:
    """RoCE GID of an IPv4 address: ::ffff:a.b.c.d printed with %pI6."""
    addr = ipaddress.ip_address(ip)
    if addr.version == 4:
        return _fmt_ipv6_full(bytes(10) + b"\xff\xff" + addr.packed)
    return _fmt_ipv6_full(addr.packed)


def guid_to_gid(guid: str, prefix: str = "fe80:0000:0000:0000") -> str:
    """InfiniBand GID: subnet prefix + port GUID ("946d:ae03:00b1:2c3a")."""
    groups = guid.split(":")
    if len(groups) != 4 or not all(len(g) == 4 for g in groups):
        raise TreeError(f"GUID {guid!r}: expected xxxx:xxxx:xxxx:xxxx")
    return f"{prefix}:{guid.lower()}"


def mac_to_node_guid(mac: str) -> str:
    """mlx5 node GUID of an Ethernet function: OUI + 03:00 + NIC-specific bytes."""
    b = _norm_mac(mac)
    raw = [b[0], b[1], b[2], 0x03, 0x00, b[3], b[4], b[5]]
    return ":".join(f"{raw[i]:02x}{raw[i + 1]:02x}" for i in range(0, 8, 2))


def ipoib_hw_address(guid: str, qpn: int = 0x1049, flags: int = 0x00,
                     prefix: str = "fe80:0000:0000:0000") -> str:
    """The 20-byte IPoIB hardware address: flags+QPN (4 bytes) then the GID."""
    gid = guid_to_gid(guid, prefix).replace(":", "")
    raw = [flags & 0xFF, (qpn >> 16) & 0xFF, (qpn >> 8) & 0xFF, qpn & 0xFF]
    raw += [int(gid[i:i + 2], 16) for i in range(0, 32, 2)]
    return ":".join(f"{x:02x}" for x in raw)


def _parse_bdf(bdf: str) -> Tuple[int, int, int, int]:
    try:
        dom, bus, devfn = bdf.split(":")
        dev, fn = devfn.split(".")
        return int(dom, 16), int(bus, 16), int(dev, 16), int(fn, 16)
    except ValueError:
        raise TreeError(f"PCI address {bdf!r}: expected DDDD:BB:DD.F") from None


def default_pci_parents(bdf: str) -> Tuple[str, ...]:
    """A plausible path from /sys/devices to a PCI function: the host bridge
    ``pciDDDD:RR`` and one root port on bus RR = BB-1 (``DDDD:RR:01.0``).
    Functions on bus 0 sit directly under ``pciDDDD:00``."""
    dom, bus, _, _ = _parse_bdf(bdf)
    if bus == 0:
        return (f"pci{dom:04x}:00",)
    root = bus - 1
    return (f"pci{dom:04x}:{root:02x}", f"{dom:04x}:{root:02x}:01.0")


def seeded_values(names: Iterable[str], seed: Union[int, str],
                  ranges: Optional[Mapping[str, Tuple[int, int]]] = None,
                  default_range: Tuple[int, int] = (0, 1000)) -> Dict[str, int]:
    """Deterministic pseudo-random counter values: ``{name: int}``.

    ``ranges`` maps a name to an inclusive (lo, hi) range; other names use
    ``default_range``.  The same (names, seed, ranges) always gives the same
    values (random.Random with a str/int seed is stable across Python 3
    versions)."""
    rng = random.Random(f"node_tree:{seed}")
    out: Dict[str, int] = {}
    for name in names:
        lo, hi = (ranges or {}).get(name, default_range)
        out[name] = rng.randint(lo, hi)
    return out


# --- kernel answers ------------------------------------------------------------

ERRNO_NAMES: Dict[int, str] = {
    # The names exporter/netlink/errno_name.cpp prints into kernel/<key>.errno files.
    1: "EPERM", 2: "ENOENT", 5: "EIO", 6: "ENXIO", 12: "ENOMEM", 13: "EACCES",
    16: "EBUSY", 19: "ENODEV", 22: "EINVAL", 38: "ENOSYS", 61: "ENODATA",
    95: "EOPNOTSUPP", 110: "ETIMEDOUT",
}


@dataclass(frozen=True)
class KernelErrno:
    """A kernel call that failed: replayed as this errno (kernel/<key>.errno)."""
    errno: int

    def file_text(self) -> bytes:
        name = ERRNO_NAMES.get(self.errno, "")
        if not 0 < self.errno < 4096:
            raise TreeError(f"errno {self.errno} is out of range")
        return f"{self.errno} {name}\n".encode()


KernelAnswer = Union[bytes, KernelErrno]


def _check_answer_key(key: str) -> None:
    parts = key.split("/")
    if key.startswith("/") or "" in parts or ".." in parts or "." in parts:
        raise TreeError(f"kernel answer key {key!r}: expected a relative path like "
                        f"'ethtool/<netdev>/drvinfo'")
    if key.endswith(".errno"):
        raise TreeError(f"kernel answer key {key!r}: give the key without .errno and a "
                        f"KernelErrno value")


# --- spec dataclasses --------------------------------------------------------

@dataclass
class PciFunctionSpec:
    """One PCI function directory under /sys/devices."""
    address: str                               # "0000:17:00.0"
    driver: str = "mlx5_core"
    vendor: str = "0x15b3"
    device: str = "0x1021"                     # ConnectX-7
    subsystem_vendor: str = "0x15b3"
    subsystem_device: str = "0x0041"
    pci_class: str = "0x020000"                # Ethernet controller (IB: 0x020700)
    numa_node: int = 0
    current_link_speed: str = "32.0 GT/s PCIe"
    current_link_width: Union[int, str] = 16
    max_link_speed: str = "32.0 GT/s PCIe"
    max_link_width: Union[int, str] = 16
    parents: Optional[Tuple[str, ...]] = None  # path under devices/; default_pci_parents()
    # SR-IOV (drivers/pci/iov.c): a VF names its PF's address here and gets a ``physfn`` link
    # to it; the PF gets ``virtfn<N>`` to each VF (N in address order), ``sriov_numvfs`` (the
    # VFs on the node) and ``sriov_totalvfs`` (``sriov_totalvfs`` here, on the PF).
    physfn: Optional[str] = None
    sriov_totalvfs: Optional[int] = None

    def dir(self) -> str:
        """The function's directory relative to the sysfs root."""
        parents = self.parents if self.parents is not None else default_pci_parents(self.address)
        return "/".join(("devices",) + tuple(parents) + (self.address,))


@dataclass
class EcnSpec:
    """MLNX_OFED ecn/roce_np and ecn/roce_rp of a netdev."""
    np_enabled: Sequence[int] = (3,)           # priorities whose enable/<p> reads 1
    rp_enabled: Sequence[int] = (3,)
    np_params: Dict[str, Value] = field(default_factory=lambda: dict(ECN_NP_DEFAULTS))
    rp_params: Dict[str, Value] = field(default_factory=lambda: dict(ECN_RP_DEFAULTS))


@dataclass
class NetdevSpec:
    """A network interface (class/net/<name>).  ``None`` for speed, duplex or
    carrier means the file is absent (the kernel answers EINVAL)."""
    name: str
    address: str                               # MAC (or 20-byte IPoIB address)
    ifindex: int
    mtu: int = 9000
    operstate: str = "up"
    carrier: Optional[int] = 1
    carrier_changes: int = 2
    speed: Optional[int] = 400000
    duplex: Optional[str] = "full"
    dev_port: int = 0
    type: int = 1                              # ARPHRD_ETHER (IPoIB: 32, lo: 772)
    ecn: Optional[EcnSpec] = None
    extra: Dict[str, Value] = field(default_factory=dict)   # more attribute files


@dataclass
class RdmaCmPortSpec:
    """configfs rdma_cm/<dev>/ports/<n>/ (exists once someone mkdir'ed it)."""
    default_roce_mode: str = GID_TYPE_V2
    default_roce_tos: int = 106


@dataclass
class PortSpec:
    """ports/<n> of an RDMA device.

    ``counters`` / ``hw_counters`` of ``None`` mean the directory is absent.
    ``hw_counters`` gets ``lifespan`` added unless it has one or ``lifespan``
    is None.  ``gid_table_len`` defaults to 255 (mlx5 RoCE) or 8 (mlx5 IB)."""
    number: int = 1
    link_layer: str = LINK_LAYER_ETHERNET
    state: str = "4: ACTIVE"
    phys_state: str = "5: LinkUp"
    rate: str = "400 Gb/sec (4X NDR)"
    lid: str = "0x0"
    sm_lid: str = "0x0"
    lid_mask_count: int = 0
    sm_sl: int = 0
    cap_mask: Optional[str] = None             # default by link layer
    counters: Optional[Dict[str, Value]] = None
    hw_counters: Optional[Dict[str, Value]] = None
    lifespan: Optional[int] = 10
    gid_table_len: Optional[int] = None
    roce_ips: Sequence[str] = ()               # IPv4/IPv6 addresses on the netdev
    port_guid: Optional[str] = None            # IB: GID 0 = fe80:: + port GUID
    netdev: Optional[str] = None               # GID ndev; default the device's netdev
    rdma_cm: Optional[RdmaCmPortSpec] = None


@dataclass
class RdmaDeviceSpec:
    """One RDMA device (an mlx5 PCI function): infiniband/<name>, its netdev,
    its configfs rdma_cm entry and its debugfs cc_params."""
    name: str
    pci: PciFunctionSpec
    netdev: Optional[NetdevSpec]
    ports: List[PortSpec]
    fw_ver: str = "28.39.2048"
    board_id: str = "MT_0000000838"
    hca_type: str = "MT4129"
    node_guid: str = "0000:0000:0000:0000"
    sys_image_guid: Optional[str] = None       # default: node_guid
    node_type: str = "1: CA"
    node_desc: str = ""
    debugfs_cc_params: Optional[Dict[str, Value]] = None
    overrides: Dict[str, Union[str, bytes]] = field(default_factory=dict)
    remove: List[str] = field(default_factory=list)


@dataclass
class EthernetFunctionSpec:
    """A non-RDMA NIC: a PCI function with one netdev (e.g. eno1 on ice)."""
    pci: PciFunctionSpec
    netdev: NetdevSpec


@dataclass
class NodeSpec:
    """Everything that goes into one capture directory."""
    hostname: str
    kernel: str = "6.8.0-60-generic"
    description: str = ""
    devices: List[RdmaDeviceSpec] = field(default_factory=list)
    extra_netdevs: List[EthernetFunctionSpec] = field(default_factory=list)
    loopback: bool = True
    overrides: Dict[str, Union[str, bytes]] = field(default_factory=dict)
    remove: List[str] = field(default_factory=list)
    created_by: str = CREATED_BY
    # kernel/<key> answers of ioctl/netlink/verbs calls (see the module docstring).
    kernel_answers: Dict[str, KernelAnswer] = field(default_factory=dict)


# --- presets -----------------------------------------------------------------

def mlx5_roce_device(name: str, *, pci: Union[str, PciFunctionSpec], netdev: str,
                     mac: str, ifindex: int, roce_ips: Sequence[str] = (),
                     numa_node: int = 0, hostname: str = "",
                     counters: Optional[Dict[str, Value]] = None,
                     hw_counters: Optional[Dict[str, Value]] = None,
                     ecn: Optional[EcnSpec] = None,
                     rdma_cm: Optional[RdmaCmPortSpec] = None,
                     debugfs_cc_params: Optional[Dict[str, Value]] = None,
                     fw_ver: str = "28.39.2048",
                     link_up: bool = True, mtu: int = 9000,
                     speed: int = 400000, rate: str = "400 Gb/sec (4X NDR)",
                     carrier_changes: int = 2) -> RdmaDeviceSpec:
    """A ConnectX-7 function in Ethernet (RoCE) mode with one port.

    ``link_up=False`` gives what mlx5 shows for a running netdev without
    link: "1: DOWN", "3: Disabled", rate "40 Gb/sec (4X QDR)", operstate
    "down", carrier 0, speed -1, duplex "unknown".  Counter dicts are used as
    given (pass ``None`` for an absent directory)."""
    pci_spec = (dataclasses.replace(pci, numa_node=numa_node)
                if isinstance(pci, PciFunctionSpec)
                else PciFunctionSpec(address=pci, numa_node=numa_node))
    port = PortSpec(
        number=1, link_layer=LINK_LAYER_ETHERNET,
        state="4: ACTIVE" if link_up else "1: DOWN",
        phys_state="5: LinkUp" if link_up else "3: Disabled",
        rate=rate if link_up else "40 Gb/sec (4X QDR)",
        counters=counters, hw_counters=hw_counters, roce_ips=tuple(roce_ips),
        rdma_cm=rdma_cm,
    )
    nd = NetdevSpec(
        name=netdev, address=mac, ifindex=ifindex, mtu=mtu,
        operstate="up" if link_up else "down", carrier=1 if link_up else 0,
        carrier_changes=carrier_changes, speed=speed if link_up else -1,
        duplex="full" if link_up else "unknown", ecn=ecn,
    )
    guid = mac_to_node_guid(mac)
    return RdmaDeviceSpec(
        name=name, pci=pci_spec, netdev=nd, ports=[port], fw_ver=fw_ver,
        node_guid=guid, node_desc=f"{hostname} {name}".strip(),
        debugfs_cc_params=debugfs_cc_params,
    )


def mlx5_ib_device(name: str, *, pci: Union[str, PciFunctionSpec], netdev: str,
                   node_guid: str, ifindex: int, lid: str, sm_lid: str = "0x1",
                   numa_node: int = 0, hostname: str = "",
                   counters: Optional[Dict[str, Value]] = None,
                   hw_counters: Optional[Dict[str, Value]] = None,
                   state: str = "4: ACTIVE", phys_state: str = "5: LinkUp",
                   rate: str = "400 Gb/sec (4X NDR)", fw_ver: str = "28.39.2048",
                   ipoib_qpn: int = 0x1049, carrier_changes: int = 2) -> RdmaDeviceSpec:
    """A ConnectX-7 function in InfiniBand mode with an IPoIB netdev (type 32,
    mtu 4092).  The IPoIB carrier is on only while the port is ACTIVE; off,
    ethtool reports SPEED_UNKNOWN (sysfs "-1") and duplex "unknown"."""
    base = pci if isinstance(pci, PciFunctionSpec) else PciFunctionSpec(address=pci)
    pci_spec = dataclasses.replace(base, numa_node=numa_node,
                                   pci_class="0x020700")   # InfiniBand controller
    active = state.startswith("4:")
    port = PortSpec(
        number=1, link_layer=LINK_LAYER_INFINIBAND, state=state,
        phys_state=phys_state, rate=rate, lid=lid, sm_lid=sm_lid,
        counters=counters, hw_counters=hw_counters, port_guid=node_guid,
    )
    nd = NetdevSpec(
        name=netdev, address=ipoib_hw_address(node_guid, qpn=ipoib_qpn),
        ifindex=ifindex, mtu=4092, operstate="up" if active else "down",
        carrier=1 if active else 0, carrier_changes=carrier_changes,
        speed=400000 if active else -1, duplex="full" if active else "unknown",
        type=32,
    )
    return RdmaDeviceSpec(
        name=name, pci=pci_spec, netdev=nd, ports=[port], fw_ver=fw_ver,
        node_guid=node_guid, node_desc=f"{hostname} {name}".strip(),
    )


def intel_ice_netdev(name: str, *, pci: str, mac: str, ifindex: int,
                     numa_node: int = 0, speed: int = 25000, mtu: int = 1500,
                     parents: Optional[Tuple[str, ...]] = None) -> EthernetFunctionSpec:
    """A non-RDMA Intel E810 (ice) port such as the management NIC eno1."""
    return EthernetFunctionSpec(
        pci=PciFunctionSpec(
            address=pci, driver="ice", vendor="0x8086", device="0x159b",
            subsystem_vendor="0x8086", subsystem_device="0x0003",
            pci_class="0x020000", numa_node=numa_node,
            current_link_speed="16.0 GT/s PCIe", current_link_width=8,
            max_link_speed="16.0 GT/s PCIe", max_link_width=8, parents=parents),
        netdev=NetdevSpec(name=name, address=mac, ifindex=ifindex, mtu=mtu,
                          speed=speed, carrier_changes=2),
    )


# --- building ----------------------------------------------------------------

Entry = Tuple[str, Union[bytes, str]]   # ("file", bytes) or ("link", target)


def _val(v: Value) -> bytes:
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, int):
        return f"{v}\n".encode()
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return (v if v.endswith("\n") else v + "\n").encode()
    raise TreeError(f"unsupported value type {type(v).__name__}: {v!r}")


def _raw(v: Union[str, bytes]) -> bytes:
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode()
    raise TreeError(f"override must be str or bytes, got {type(v).__name__}")


def _sysfs_link_target(link: str, target: str) -> str:
    """The relative target the kernel writes for a sysfs symlink.

    Like fs/sysfs/symlink.c (kernfs_get_target_path): climb from the link's
    directory until reaching an ancestor of the *target's parent*, then
    descend to the target.  For an ordinary target that equals
    os.path.relpath; for a link to an ancestor (``device`` -> the PCI
    function) it gives "../../../0000:17:00.0" where relpath would give
    "../..", exactly as a real node shows."""
    base = [p for p in os.path.dirname(link).split("/") if p]
    tparts = [p for p in target.split("/") if p]
    tparent = tparts[:-1]
    ups = 0
    while base and tparent[:len(base)] != base:
        base.pop()
        ups += 1
    return "/".join([".."] * ups + tparts[len(base):])


class _Tree:
    """Path → entry map with the checks that keep it a valid tree."""

    def __init__(self) -> None:
        self.entries: Dict[str, Entry] = {}
        self.dirs: set = set()          # every proper prefix of an entry path

    def _add(self, path: str, entry: Entry) -> None:
        self.entries[path] = entry
        parts = path.split("/")
        for i in range(1, len(parts)):
            self.dirs.add("/".join(parts[:i]))

    def _check(self, path: str) -> None:
        if path.startswith("/") or ".." in path.split("/") or "" in path.split("/"):
            raise TreeError(f"bad relative path {path!r}")

    def file(self, path: str, data: bytes, *, replace: bool = False) -> None:
        self._check(path)
        if not replace and path in self.entries:
            raise TreeError(f"{path}: written twice")
        self._no_prefix_clash(path)
        self._add(path, ("file", data))

    def link(self, path: str, target_path: str) -> None:
        """A symlink at ``path`` to the tree path ``target_path`` (made relative)."""
        self._check(path)
        if path in self.entries:
            raise TreeError(f"{path}: written twice")
        self._no_prefix_clash(path)
        self._add(path, ("link", _sysfs_link_target(path, target_path)))

    def _no_prefix_clash(self, path: str) -> None:
        parts = path.split("/")
        for i in range(1, len(parts)):
            parent = "/".join(parts[:i])
            if parent in self.entries:
                raise TreeError(f"{path}: parent {parent} is a file or link")
        if path in self.dirs:
            raise TreeError(f"{path}: would replace a directory")

    def resolve(self, path: str) -> str:
        """Follow symlinks in the *directory* part of ``path`` (so an override
        may name "sys/class/net/lo/mtu"); the last component is kept."""
        self._check(path)
        parts = path.split("/")
        for _ in range(64):
            for i in range(1, len(parts)):
                entry = self.entries.get("/".join(parts[:i]))
                if entry is not None and entry[0] == "link":
                    base = os.path.dirname("/".join(parts[:i]))
                    target = os.path.normpath(os.path.join(base, str(entry[1])))
                    if target.startswith("..") or os.path.isabs(target):
                        raise TreeError(f"{path}: link {'/'.join(parts[:i])} leaves the tree")
                    parts = target.split("/") + parts[i:]
                    break
            else:
                return "/".join(parts)
        raise TreeError(f"{path}: too many levels of symbolic links")

    def remove(self, path: str) -> None:
        path = self.resolve(path)
        prefix = path + "/"
        victims = [p for p in self.entries if p == path or p.startswith(prefix)]
        if not victims:
            raise TreeError(f"remove {path!r}: nothing there")
        for p in victims:
            del self.entries[p]
        self.dirs = set()
        for p in self.entries:
            parts = p.split("/")
            for i in range(1, len(parts)):
                self.dirs.add("/".join(parts[:i]))

    def override(self, path: str, data: bytes) -> None:
        path = self.resolve(path)
        if path in self.entries:
            self.entries[path] = ("file", data)      # a file or link becomes a file
        else:
            self.file(path, data)


def _write_device(t: _Tree, dev: RdmaDeviceSpec) -> None:
    pci = dev.pci
    pdir = "sys/" + pci.dir()
    _write_pci_function(t, pci)

    ibdir = f"{pdir}/infiniband/{dev.name}"
    t.link(f"sys/class/infiniband/{dev.name}", ibdir)
    t.link(f"{ibdir}/device", pdir)
    for attr, v in (("fw_ver", dev.fw_ver), ("board_id", dev.board_id),
                    ("hca_type", dev.hca_type), ("node_guid", dev.node_guid),
                    ("sys_image_guid", dev.sys_image_guid or dev.node_guid),
                    ("node_type", dev.node_type), ("node_desc", dev.node_desc)):
        t.file(f"{ibdir}/{attr}", _val(v))

    netdev_name = dev.netdev.name if dev.netdev else None
    numbers = [p.number for p in dev.ports]
    if len(set(numbers)) != len(numbers):
        raise TreeError(f"{dev.name}: duplicate port numbers {numbers}")
    mac = dev.netdev.address if dev.netdev else None
    for port in dev.ports:
        _write_port(t, dev, port, f"{ibdir}/ports/{port.number}",
                    port.netdev or netdev_name, mac)
        if port.rdma_cm is not None:
            cdir = f"configfs/rdma_cm/{dev.name}/ports/{port.number}"
            t.file(f"{cdir}/default_roce_mode", _val(port.rdma_cm.default_roce_mode))
            t.file(f"{cdir}/default_roce_tos", _val(port.rdma_cm.default_roce_tos))

    if dev.netdev is not None:
        _write_netdev(t, dev.netdev, pdir)

    if dev.debugfs_cc_params is not None:
        ddir = f"debugfs/mlx5/{pci.address}/cc_params"
        for name, v in dev.debugfs_cc_params.items():
            t.file(f"{ddir}/{name}", _val(v))

    bases = {
        "ib": ibdir,
        "net": f"{pdir}/net/{netdev_name}" if netdev_name else None,
        "pci": pdir,
        "configfs": f"configfs/rdma_cm/{dev.name}",
        "debugfs": f"debugfs/mlx5/{pci.address}",
    }

    def resolve(key: str) -> str:
        prefix, sep, rest = key.partition(":")
        if not sep or prefix not in bases:
            raise TreeError(f"{dev.name}: path {key!r} needs a prefix "
                            f"({', '.join(p + ':' for p in bases)})")
        if bases[prefix] is None:
            raise TreeError(f"{dev.name}: {key!r} but the device has no netdev")
        return f"{bases[prefix]}/{rest}" if rest else bases[prefix]

    for key in dev.remove:
        t.remove(resolve(key))
    for key, data in sorted(dev.overrides.items()):
        t.override(resolve(key), _raw(data))


def _write_pci_function(t: _Tree, pci: PciFunctionSpec) -> None:
    _parse_bdf(pci.address)
    pdir = "sys/" + pci.dir()
    for attr, v in (("vendor", pci.vendor), ("device", pci.device),
                    ("subsystem_vendor", pci.subsystem_vendor),
                    ("subsystem_device", pci.subsystem_device),
                    ("class", pci.pci_class), ("numa_node", pci.numa_node),
                    ("current_link_speed", pci.current_link_speed),
                    ("current_link_width", pci.current_link_width),
                    ("max_link_speed", pci.max_link_speed),
                    ("max_link_width", pci.max_link_width)):
        t.file(f"{pdir}/{attr}", _val(v))
    drvdir = f"sys/bus/pci/drivers/{pci.driver}"
    t.link(f"{pdir}/driver", drvdir)
    t.link(f"{drvdir}/{pci.address}", pdir)
    t.link(f"sys/bus/pci/devices/{pci.address}", pdir)


def _write_sriov(t: _Tree, functions: Sequence[PciFunctionSpec]) -> None:
    """The links pci_iov_sysfs_link() makes between a PF and its VFs, and the PF's counts
    (Documentation/ABI/testing/sysfs-bus-pci: sriov_numvfs, sriov_totalvfs)."""
    by_address = {f.address: f for f in functions}
    vfs: Dict[str, List[PciFunctionSpec]] = {}
    for f in functions:
        if f.physfn is None:
            continue
        if f.physfn not in by_address:
            raise TreeError(f"VF {f.address}: its PF {f.physfn} is not on the node")
        if by_address[f.physfn].physfn is not None:
            raise TreeError(f"VF {f.address}: its PF {f.physfn} is itself a VF")
        vfs.setdefault(f.physfn, []).append(f)
    for pf_address, children in sorted(vfs.items()):
        pf = by_address[pf_address]
        pf_dir = "sys/" + pf.dir()
        children.sort(key=lambda f: _parse_bdf(f.address))
        for n, vf in enumerate(children):
            vf_dir = "sys/" + vf.dir()
            t.link(f"{pf_dir}/virtfn{n}", vf_dir)
            t.link(f"{vf_dir}/physfn", pf_dir)
        total = pf.sriov_totalvfs if pf.sriov_totalvfs is not None else len(children)
        if total < len(children):
            raise TreeError(f"PF {pf_address}: {len(children)} VFs but sriov_totalvfs {total}")
        t.file(f"{pf_dir}/sriov_numvfs", _val(len(children)))
        t.file(f"{pf_dir}/sriov_totalvfs", _val(total))


def _write_port(t: _Tree, dev: RdmaDeviceSpec, port: PortSpec, pdir: str,
                netdev: Optional[str], mac: Optional[str]) -> None:
    ib = port.link_layer == LINK_LAYER_INFINIBAND
    if port.link_layer not in (LINK_LAYER_ETHERNET, LINK_LAYER_INFINIBAND):
        raise TreeError(f"{dev.name} port {port.number}: link_layer {port.link_layer!r}")
    cap = port.cap_mask or ("0xa751e848" if ib else "0x00010000")
    for attr, v in (("state", port.state), ("phys_state", port.phys_state),
                    ("rate", port.rate), ("link_layer", port.link_layer),
                    ("lid", port.lid), ("sm_lid", port.sm_lid),
                    ("lid_mask_count", port.lid_mask_count), ("sm_sl", port.sm_sl),
                    ("cap_mask", cap)):
        t.file(f"{pdir}/{attr}", _val(v))

    if port.counters is not None:
        for name, v in port.counters.items():
            t.file(f"{pdir}/counters/{name}", _val(v))
    if port.hw_counters is not None:
        hw = dict(port.hw_counters)
        if port.lifespan is not None and "lifespan" not in hw:
            hw["lifespan"] = port.lifespan
        for name, v in hw.items():
            t.file(f"{pdir}/hw_counters/{name}", _val(v))

    # GID table: the valid entries, then all-zero GIDs up to the table size.
    valid: List[Tuple[str, str, Optional[str]]] = []   # (gid, type, ndev)
    if ib:
        guid = port.port_guid or dev.node_guid
        valid.append((guid_to_gid(guid), GID_TYPE_V1, None))
        for ip in port.roce_ips:
            raise TreeError(f"{dev.name}: roce_ips {ip!r} on an InfiniBand port")
    else:
        if mac is None:
            raise TreeError(f"{dev.name} port {port.number}: Ethernet port without a netdev")
        ll = mac_to_link_local_gid(mac)
        valid += [(ll, GID_TYPE_V1, netdev), (ll, GID_TYPE_V2, netdev)]
        for ip in port.roce_ips:
            g = ipv4_mapped_gid(ip)
            valid += [(g, GID_TYPE_V1, netdev), (g, GID_TYPE_V2, netdev)]
    size = port.gid_table_len if port.gid_table_len is not None else (8 if ib else 255)
    if size < len(valid):
        raise TreeError(f"{dev.name} port {port.number}: {len(valid)} GIDs "
                        f"do not fit a table of {size}")
    for i in range(size):
        if i < len(valid):
            gid, gtype, ndev = valid[i]
            t.file(f"{pdir}/gids/{i}", _val(gid))
            t.file(f"{pdir}/gid_attrs/types/{i}", _val(gtype))
            if ndev is not None:
                t.file(f"{pdir}/gid_attrs/ndevs/{i}", _val(ndev))
        else:
            t.file(f"{pdir}/gids/{i}", _val(ZERO_GID))


def _write_netdev(t: _Tree, nd: NetdevSpec, parent_dir: Optional[str]) -> None:
    """``parent_dir`` is the PCI function dir, or None for a virtual device."""
    if parent_dir is None:
        ndir = f"sys/devices/virtual/net/{nd.name}"
    else:
        ndir = f"{parent_dir}/net/{nd.name}"
        t.link(f"{ndir}/device", parent_dir)
    t.link(f"sys/class/net/{nd.name}", ndir)
    attrs: List[Tuple[str, Optional[Value]]] = [
        ("address", nd.address), ("ifindex", nd.ifindex), ("mtu", nd.mtu),
        ("operstate", nd.operstate), ("carrier", nd.carrier),
        ("carrier_changes", nd.carrier_changes), ("speed", nd.speed),
        ("duplex", nd.duplex), ("dev_port", nd.dev_port), ("type", nd.type),
    ]
    for attr, v in attrs:
        if v is not None:
            t.file(f"{ndir}/{attr}", _val(v))
    for attr, v in nd.extra.items():
        t.file(f"{ndir}/{attr}", _val(v))
    if nd.ecn is not None:
        for point, enabled, params in (("roce_np", nd.ecn.np_enabled, nd.ecn.np_params),
                                       ("roce_rp", nd.ecn.rp_enabled, nd.ecn.rp_params)):
            for prio in enabled:
                if not 0 <= prio <= 7:
                    raise TreeError(f"{nd.name}: ECN priority {prio} out of 0..7")
            for prio in range(8):
                t.file(f"{ndir}/ecn/{point}/enable/{prio}", _val(1 if prio in enabled else 0))
            for name, v in params.items():
                t.file(f"{ndir}/ecn/{point}/{name}", _val(v))


def build_entries(spec: NodeSpec) -> Dict[str, Entry]:
    """The whole capture directory as ``{relative path: entry}`` where an
    entry is ``("file", bytes)`` or ``("link", relative target)``.  Raises
    :class:`TreeError` on an inconsistent spec (duplicate names, dangling
    links, bad override paths)."""
    t = _Tree()
    meta = {
        "format": CAPTURE_FORMAT,
        "version": CAPTURE_VERSION,
        "hostname": spec.hostname,
        "kernel": spec.kernel,
        "created_by": spec.created_by,
        "description": spec.description,
    }
    t.file("capture.json", (json.dumps(meta, indent=2) + "\n").encode())

    names = [d.name for d in spec.devices]
    if len(set(names)) != len(names):
        raise TreeError(f"duplicate RDMA device names: {names}")
    netdevs = [d.netdev.name for d in spec.devices if d.netdev]
    netdevs += [e.netdev.name for e in spec.extra_netdevs]
    ifindexes = [d.netdev.ifindex for d in spec.devices if d.netdev]
    ifindexes += [e.netdev.ifindex for e in spec.extra_netdevs]
    if spec.loopback:
        netdevs.append("lo")
        ifindexes.append(1)
    if len(set(netdevs)) != len(netdevs):
        raise TreeError(f"duplicate netdev names: {netdevs}")
    if len(set(ifindexes)) != len(ifindexes):
        raise TreeError(f"duplicate ifindex values: {ifindexes}")

    for dev in spec.devices:
        _write_device(t, dev)
    for eth in spec.extra_netdevs:
        _write_pci_function(t, eth.pci)
        _write_netdev(t, eth.netdev, "sys/" + eth.pci.dir())
    if spec.loopback:
        _write_netdev(t, NetdevSpec(
            name="lo", address="00:00:00:00:00:00", ifindex=1, mtu=65536,
            operstate="unknown", carrier=1, carrier_changes=0, speed=None,
            duplex=None, type=772), None)

    for key, answer in sorted(spec.kernel_answers.items()):
        _check_answer_key(key)
        if isinstance(answer, KernelErrno):
            t.file(f"kernel/{key}.errno", answer.file_text())
        elif isinstance(answer, (bytes, bytearray)):
            t.file(f"kernel/{key}", bytes(answer))
        else:
            raise TreeError(f"kernel answer {key!r}: expected bytes or KernelErrno, "
                            f"got {type(answer).__name__}")

    _write_sriov(t, [d.pci for d in spec.devices] + [e.pci for e in spec.extra_netdevs])

    for path in spec.remove:
        t.remove(path)
    for path, data in sorted(spec.overrides.items()):
        t.override(path, _raw(data))

    _check_links(t.entries)
    return t.entries


def _check_links(entries: Mapping[str, Entry]) -> None:
    dirs = set()
    for p in entries:
        parts = p.split("/")
        for i in range(1, len(parts)):
            dirs.add("/".join(parts[:i]))
    for p, (kind, payload) in entries.items():
        if kind != "link":
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(p), str(payload)))
        if target.startswith("..") or os.path.isabs(target):
            raise TreeError(f"{p} -> {payload}: points outside the capture")
        if target not in entries and target not in dirs:
            raise TreeError(f"{p} -> {payload}: dangling link")


# --- writing -----------------------------------------------------------------

def write_node(spec: NodeSpec, dest: Union[str, os.PathLike], *,
               replace: bool = False) -> Path:
    """Write the capture directory of ``spec`` to ``dest`` and return it.

    ``dest`` may be missing or an empty directory.  A non-empty ``dest`` is
    refused (FileExistsError) unless ``replace`` is true, and even then only
    when it holds a ``capture.json`` (so a wrong path never wipes an
    unrelated directory).  The tree is built in a sibling temporary directory
    and renamed into place, so a failed build leaves ``dest`` untouched."""
    entries = build_entries(spec)
    dest = Path(dest)
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        raise FileExistsError(f"{dest}: exists and is not a directory")
    if dest.exists() and any(dest.iterdir()):
        if not replace:
            raise FileExistsError(f"{dest}: directory is not empty (pass replace=True "
                                  f"to overwrite a capture directory)")
        if not (dest / "capture.json").is_file():
            raise FileExistsError(f"{dest}: not empty and has no capture.json; "
                                  f"refusing to replace it")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        os.chmod(tmp, 0o755)
        _materialize(entries, tmp)
        if dest.exists():
            shutil.rmtree(dest)
        os.rename(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def _materialize(entries: Mapping[str, Entry], root: Path) -> None:
    made = set()
    for rel in sorted(entries):
        kind, payload = entries[rel]
        parent = os.path.dirname(rel)
        if parent and parent not in made:
            parts = parent.split("/")
            for i in range(1, len(parts) + 1):
                d = "/".join(parts[:i])
                if d not in made:
                    p = root / d
                    if not p.exists():
                        p.mkdir()
                        os.chmod(p, 0o755)
                    made.add(d)
        path = root / rel
        if kind == "file":
            with open(path, "wb") as f:
                f.write(payload)  # type: ignore[arg-type]
            os.chmod(path, 0o644)
        else:
            os.symlink(str(payload), path)


# --- comparing ---------------------------------------------------------------

def snapshot(root: Union[str, os.PathLike]) -> Dict[str, Entry]:
    """Read a tree back as ``{relative path: ("file", bytes) | ("link",
    target)}``.  Symlinks are recorded, never followed; empty directories
    are ignored (git does not keep them)."""
    root = Path(root)
    out: Dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root)
        for name in sorted(dirnames + filenames):
            full = os.path.join(dirpath, name)
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            if os.path.islink(full):
                out[rel] = ("link", os.readlink(full))
            elif os.path.isfile(full):
                with open(full, "rb") as f:
                    out[rel] = ("file", f.read())
    return out


def diff_trees(expected: Mapping[str, Entry], actual: Mapping[str, Entry],
               limit: int = 20) -> List[str]:
    """Human-readable differences between two snapshots (empty if equal)."""
    lines: List[str] = []
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    changed = sorted(p for p in set(expected) & set(actual) if expected[p] != actual[p])

    def show(v: Entry) -> str:
        kind, payload = v
        if kind == "link":
            return f"-> {payload}"
        text = payload if isinstance(payload, bytes) else str(payload).encode()
        s = repr(text[:60])
        return s + ("..." if len(text) > 60 else "")

    for label, paths in (("missing", missing), ("unexpected", extra), ("differs", changed)):
        if not paths:
            continue
        lines.append(f"{len(paths)} {label}:")
        for p in paths[:limit]:
            if label == "differs":
                lines.append(f"  {p}: expected {show(expected[p])}, found {show(actual[p])}")
            elif label == "missing":
                lines.append(f"  {p} ({show(expected[p])})")
            else:
                lines.append(f"  {p} ({show(actual[p])})")
        if len(paths) > limit:
            lines.append(f"  ... and {len(paths) - limit} more")
    return lines


if __name__ == "__main__":   # pragma: no cover - a tiny inspection aid
    import sys
    if len(sys.argv) == 3:
        d = diff_trees(snapshot(sys.argv[1]), snapshot(sys.argv[2]))
        print("\n".join(d) if d else "identical")
        sys.exit(1 if d else 0)
    print("usage: node_tree.py TREE_A TREE_B   (compare two capture directories)")
    sys.exit(2)
