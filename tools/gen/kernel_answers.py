#!/usr/bin/env python3
"""The raw answers of the ioctl, netlink and verbs calls a capture holds under
``kernel/`` (docs/capture.md), built exactly as the kernel (and libibverbs)
build them.  Python 3 standard library only; little-endian (x86-64, arm64).

Keys (``key_*``) are the paths exporter/kernel/calls.h gives each call (its Key()).

SIOCETHTOOL (include/uapi/linux/ethtool.h, net/ethtool/ioctl.c).  An ioctl
answer is the whole buffer the caller passed, as the kernel left it; the
exporter sizes GSTRINGS/GSTATS buffers with 64 spare entries
(live_kernel.cpp kHeadroom) that the kernel leaves zeroed:

* ``ethtool_drvinfo``        struct ethtool_drvinfo, 196 bytes: cmd, driver[32],
  version[32], fw_version[32], bus_info[32], erom_version[32], reserved2[12],
  n_priv_flags, n_stats, testinfo_len, eedump_len, regdump_len.
  ethtool_get_drvinfo() first strscpy()s UTS_RELEASE into version (a driver
  that sets its own writes over the start of it: veth leaves "1.0", a NUL and
  the rest of the release), then fills n_stats/testinfo_len/n_priv_flags from
  get_sset_count().
* ``ethtool_sset_info``      struct ethtool_sset_info {cmd, reserved, u64
  sset_mask} + one u32 count per bit still set (a set the driver lacks has its
  bit cleared and its count slot left as the caller sent it: 0).
* ``ethtool_gstrings``       struct ethtool_gstrings {cmd, string_set, len} +
  len names NUL-padded to ETH_GSTRING_LEN (32).
* ``ethtool_gstats``         struct ethtool_stats {cmd, n_stats} + n_stats u64.
* ``ethtool_link_settings``  struct ethtool_link_settings (48 bytes) + the
  supported, advertising and lp_advertising bitmaps of link_mode_masks_nwords
  u32 each (4 words on 6.x kernels with more than 96 link modes).

rtnetlink dcbnl (net/dcb/dcbnl.c): ``dcbnl_ieee_reply`` is dcb_doit() +
dcbnl_ieee_fill(): struct nlmsghdr (type RTM_GETDCB, the request's flags, its
seq, the requester's port id), struct dcbmsg {AF_UNSPEC, cmd, 0},
DCB_ATTR_IFNAME, DCB_ATTR_IEEE nest (nla_nest_start_noflag) holding, in this
order and each only when the driver has the op: DCB_ATTR_IEEE_ETS (struct
ieee_ets, 59 bytes), DCB_ATTR_IEEE_MAXRATE (struct ieee_maxrate, u64 kbit/s
per TC), DCB_ATTR_IEEE_PFC (struct ieee_pfc, 136 bytes: pfc_cap, pfc_en, mbc,
u16 delay at 4, u64 requests[8] at 8, u64 indications[8]),
DCB_ATTR_DCB_BUFFER (struct dcbnl_buffer, 44 bytes), then always
DCB_ATTR_IEEE_APP_TABLE (noflag nest of DCB_ATTR_IEEE_APP struct dcb_app
{selector, priority, u16 protocol}, in dcb_app_list order: dcb_app_add() uses
list_add(), so the newest entry comes first); after the nest DCB_ATTR_DCBX u8
when the driver has getdcbx.  A netdev without dcbnl_ops gets netlink_ack()
with -EOPNOTSUPP (``netlink_error_reply``).

Generic netlink ethtool (net/ethtool/netlink.c, linkstate.c, pause.c): the
reply is genlmsg_put(portid, seq, family, cmd *_GET_REPLY, version 1, flags 0),
the header nest (NLA_F_NESTED) {DEV_INDEX u32, DEV_NAME string}, then the
attributes.  Pause statistics are a nest of u64 attributes
(nla_put_u64_64bit, no pad attribute on x86-64).

libibverbs: ``ibv_port_attr`` is struct ibv_port_attr as rdma-core 44 lays it
out (52 bytes; rdma-core 47+ append u32 active_speed_ex, 56 bytes).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Sequence, Tuple

import netlink_bytes as nb

# --- capture keys (exporter/kernel/calls.h, each call's Key()) ---------------------------
# One function per call; kernel_calls_test (tests/exporter/generator_keys.py) fails when these
# and the calls' Key()s differ.

def key_drvinfo(netdev: str) -> str:
    return f"ethtool/{netdev}/drvinfo"


def key_sset_info(netdev: str, string_set: int) -> str:
    return f"ethtool/{netdev}/sset_info.{string_set}"


def key_strings(netdev: str, string_set: int) -> str:
    return f"ethtool/{netdev}/strings.{string_set}"


def key_stats(netdev: str) -> str:
    return f"ethtool/{netdev}/stats"


def key_link_settings(netdev: str) -> str:
    return f"ethtool/{netdev}/link_settings"


def key_module_info(netdev: str) -> str:
    return f"ethtool/{netdev}/module_info"


def key_module_eeprom(netdev: str, offset: int, length: int) -> str:
    return f"ethtool/{netdev}/module_eeprom.{offset}.{length}"


def key_dcb_ieee(netdev: str) -> str:
    return f"dcbnl/{netdev}/ieee"


def key_dcb_dcbx(netdev: str) -> str:
    return f"dcbnl/{netdev}/dcbx"


def key_linkstate(netdev: str) -> str:
    return f"ethtool-netlink/{netdev}/linkstate"


def key_pause(netdev: str) -> str:
    return f"ethtool-netlink/{netdev}/pause"


def key_module_eeprom_page(netdev: str, i2c_address: int = 0x50, bank: int = 0, page: int = 0,
                           offset: int = 0, length: int = 128) -> str:
    return (f"ethtool-netlink/{netdev}/module_eeprom.a{i2c_address:02x}.b{bank}.p{page:02x}"
            f".o{offset}.l{length}")


def key_fec(netdev: str) -> str:
    return f"ethtool-netlink/{netdev}/fec"


def key_rdma_stat(device: str, port: int) -> str:
    return f"rdma-netlink/{device}/{port}/stat"


def key_rdma_stat_status(device: str, port: int) -> str:
    return f"rdma-netlink/{device}/{port}/stat_status"


def key_rdma_res_summary(device: str) -> str:
    return f"rdma-netlink/{device}/res_summary"


def key_rdma_uverbs_chardev(device: str) -> str:
    return f"rdma-netlink/{device}/uverbs_chardev"


def key_rdma_qp_mode(device: str, port: int) -> str:
    return f"rdma-netlink/{device}/{port}/qp_mode"


def key_rdma_qp_counters(device: str, port: int) -> str:
    return f"rdma-netlink/{device}/{port}/qp_counters"


def key_rdma_res_qp(device: str) -> str:
    return f"rdma-netlink/{device}/res_qp"


def key_verbs_port(device: str, port: int) -> str:
    return f"verbs/{device}/port{port}"


def key_lldp_neighbors() -> str:
    return "lldp/neighbors.json"


# --- errno values (x86-64 / asm-generic) ---------------------------------------------

ENXIO = 6
ENODEV = 19
EINVAL = 22
ENODATA = 61
EOPNOTSUPP = 95

# --- SIOCETHTOOL -------------------------------------------------------------------------

ETHTOOL_GDRVINFO = 0x03
ETHTOOL_GSTRINGS = 0x1B
ETHTOOL_GSTATS = 0x1D
ETHTOOL_GSSET_INFO = 0x37
ETHTOOL_GLINKSETTINGS = 0x4C

ETH_SS_TEST = 0
ETH_SS_STATS = 1
ETH_SS_PRIV_FLAGS = 2
ETH_GSTRING_LEN = 32
HEADROOM = 64          # exporter/kernel/live_kernel.cpp kHeadroom

SPEED_UNKNOWN = 0xFFFFFFFF
DUPLEX_HALF = 0x00
DUPLEX_FULL = 0x01
DUPLEX_UNKNOWN = 0xFF
PORT_TP = 0x00
PORT_FIBRE = 0x03
PORT_DA = 0x05
PORT_NONE = 0xEF
PORT_OTHER = 0xFF
AUTONEG_DISABLE = 0x00
AUTONEG_ENABLE = 0x01
XCVR_INTERNAL = 0x00
LINK_MODE_MASK_NWORDS = 4   # 6.x: more than 96 link modes (800G, 10BASE-T1S …)

# enum ethtool_link_mode_bit_indices (the ones fixtures use)
LINK_MODE_Autoneg = 6
LINK_MODE_FIBRE = 10
LINK_MODE_Pause = 13
LINK_MODE_Asym_Pause = 14
LINK_MODE_FEC_NONE = 49
LINK_MODE_FEC_RS = 50
LINK_MODE_FEC_BASER = 51
LINK_MODE_FEC_LLRS = 74
LINK_MODE_400000baseKR4_Full = 85
LINK_MODE_400000baseSR4_Full = 86
LINK_MODE_400000baseLR4_ER4_FR4_Full = 87
LINK_MODE_400000baseDR4_Full = 88
LINK_MODE_400000baseCR4_Full = 89


def _fixed(text: str, size: int, what: str) -> bytes:
    raw = text.encode()
    if len(raw) > size - 1:
        raise ValueError(f"{what} {text!r} is longer than {size - 1} bytes")
    return raw + bytes(size - len(raw))


def ethtool_drvinfo(*, driver: str, kernel_release: str, version: Optional[str] = None,
                    fw_version: str = "", bus_info: str = "", erom_version: str = "",
                    n_priv_flags: int = 0, n_stats: int = 0, testinfo_len: int = 0,
                    eedump_len: int = 0, regdump_len: int = 0) -> bytes:
    """struct ethtool_drvinfo as ETHTOOL_GDRVINFO returns it (196 bytes).

    ethtool_get_drvinfo() fills a zeroed struct, strscpy()s UTS_RELEASE
    (``kernel_release``) into version, then calls the driver's get_drvinfo().
    A driver that sets its own ``version`` strscpy()s it over the release: the
    string and its NUL replace the start of the field and the rest of the
    release stays behind the NUL (veth on 6.18: "1.0\\0.44-fc-v857").  A driver
    that leaves version alone (mlx5 since 5.x) reports the kernel release."""
    version_field = bytearray(_fixed(kernel_release, 32, "kernel release"))
    if version is not None:
        raw = version.encode()
        if len(raw) > 31:
            raise ValueError(f"version {version!r} is longer than 31 bytes")
        version_field[:len(raw) + 1] = raw + b"\0"
    return (struct.pack("<I", ETHTOOL_GDRVINFO)
            + _fixed(driver, 32, "driver") + bytes(version_field)
            + _fixed(fw_version, 32, "fw_version") + _fixed(bus_info, 32, "bus_info")
            + _fixed(erom_version, 32, "erom_version") + bytes(12)
            + struct.pack("<5I", n_priv_flags, n_stats, testinfo_len, eedump_len, regdump_len))


def ethtool_sset_info(string_set: int, count: Optional[int]) -> bytes:
    """The 20-byte GSSET_INFO buffer the exporter sends for one set, as the kernel
    answers it; ``count`` None: the driver lacks the set (bit cleared)."""
    mask = 0 if count is None else 1 << string_set
    return struct.pack("<IIQI", ETHTOOL_GSSET_INFO, 0, mask, 0 if count is None else count)


def ethtool_gstrings(string_set: int, names: Sequence[str], headroom: int = HEADROOM) -> bytes:
    """GSTRINGS: header with len = number of names, the names, the untouched headroom."""
    out = bytearray(struct.pack("<III", ETHTOOL_GSTRINGS, string_set, len(names)))
    for name in names:
        raw = name.encode()
        if len(raw) > ETH_GSTRING_LEN:
            raise ValueError(f"ethtool string {name!r} is longer than {ETH_GSTRING_LEN} bytes")
        out += raw + bytes(ETH_GSTRING_LEN - len(raw))
    out += bytes(headroom * ETH_GSTRING_LEN)
    return bytes(out)


def ethtool_gstats(values: Sequence[int], headroom: int = HEADROOM) -> bytes:
    """GSTATS: header with n_stats = number of values, the u64 values, the headroom."""
    for v in values:
        if not 0 <= v < 1 << 64:
            raise ValueError(f"ethtool statistic {v} does not fit a u64")
    return (struct.pack("<II", ETHTOOL_GSTATS, len(values))
            + struct.pack(f"<{len(values)}Q", *values) + bytes(headroom * 8))


def _bitmap(bits: Iterable[int], nwords: int) -> bytes:
    words = [0] * nwords
    for b in bits:
        if not 0 <= b < nwords * 32:
            raise ValueError(f"link mode bit {b} does not fit {nwords} words")
        words[b // 32] |= 1 << (b % 32)
    return struct.pack(f"<{nwords}I", *words)


def ethtool_link_settings(*, speed_mbps: int, duplex: int, port: int, autoneg: int,
                          supported: Iterable[int] = (), advertising: Iterable[int] = (),
                          lp_advertising: Iterable[int] = (),
                          nwords: int = LINK_MODE_MASK_NWORDS, phy_address: int = 0,
                          mdio_support: int = 0, eth_tp_mdix: int = 0,
                          eth_tp_mdix_ctrl: int = 0, transceiver: int = XCVR_INTERNAL,
                          master_slave_cfg: int = 0, master_slave_state: int = 0,
                          rate_matching: int = 0) -> bytes:
    """The GLINKSETTINGS buffer after the handshake: struct ethtool_link_settings
    with link_mode_masks_nwords = ``nwords`` and the three bitmaps."""
    head = struct.pack("<IIBBBBBBBbBBBB7I", ETHTOOL_GLINKSETTINGS, speed_mbps, duplex, port,
                       phy_address, autoneg, mdio_support, eth_tp_mdix, eth_tp_mdix_ctrl, nwords,
                       transceiver, master_slave_cfg, master_slave_state, rate_matching,
                       *([0] * 7))
    return (head + _bitmap(supported, nwords) + _bitmap(advertising, nwords)
            + _bitmap(lp_advertising, nwords))


# --- rtnetlink dcbnl -----------------------------------------------------------------------

RTM_GETDCB = 78
DCB_CMD_IEEE_GET = 21
DCB_CMD_GDCBX = 22
DCB_ATTR_IFNAME = 1
DCB_ATTR_IEEE = 13
DCB_ATTR_DCBX = 14
DCB_ATTR_IEEE_ETS = 1
DCB_ATTR_IEEE_PFC = 2
DCB_ATTR_IEEE_APP_TABLE = 3
DCB_ATTR_IEEE_MAXRATE = 7
DCB_ATTR_DCB_BUFFER = 10
DCB_ATTR_IEEE_APP = 1

IEEE_8021QAZ_TSA_STRICT = 0
IEEE_8021QAZ_TSA_CB_SHAPER = 1
IEEE_8021QAZ_TSA_ETS = 2
IEEE_8021QAZ_TSA_VENDOR = 255
IEEE_8021QAZ_APP_SEL_ETHERTYPE = 1
IEEE_8021QAZ_APP_SEL_DSCP = 5
DCB_CAP_DCBX_HOST = 0x01
DCB_CAP_DCBX_LLD_MANAGED = 0x02
DCB_CAP_DCBX_VER_CEE = 0x04
DCB_CAP_DCBX_VER_IEEE = 0x08
DCB_CAP_DCBX_STATIC = 0x10


@dataclass
class IeeeEts:
    """struct ieee_ets (8 traffic classes)."""
    willing: int = 0
    ets_cap: int = 8
    cbs: int = 0
    tc_tx_bw: Sequence[int] = (0,) * 8
    tc_rx_bw: Sequence[int] = (0,) * 8
    tc_tsa: Sequence[int] = (0,) * 8
    prio_tc: Sequence[int] = (0,) * 8
    tc_reco_bw: Sequence[int] = (0,) * 8
    tc_reco_tsa: Sequence[int] = (0,) * 8
    reco_prio_tc: Sequence[int] = (0,) * 8

    def pack(self) -> bytes:
        arrays = (self.tc_tx_bw, self.tc_rx_bw, self.tc_tsa, self.prio_tc, self.tc_reco_bw,
                  self.tc_reco_tsa, self.reco_prio_tc)
        for a in arrays:
            if len(a) != 8:
                raise ValueError(f"ieee_ets arrays have 8 entries, got {len(a)}")
        return struct.pack("<BBB", self.willing, self.ets_cap, self.cbs) + b"".join(
            bytes(a) for a in arrays)


@dataclass
class IeeePfc:
    """struct ieee_pfc: requests = pause frames sent, indications = received."""
    pfc_cap: int = 8
    pfc_en: int = 0
    mbc: int = 0
    delay: int = 0
    requests: Sequence[int] = (0,) * 8
    indications: Sequence[int] = (0,) * 8

    def pack(self) -> bytes:
        return (struct.pack("<BBBxH2x", self.pfc_cap, self.pfc_en, self.mbc, self.delay)
                + struct.pack("<8Q", *self.requests) + struct.pack("<8Q", *self.indications))


@dataclass
class DcbBuffer:
    """struct dcbnl_buffer."""
    prio2buffer: Sequence[int] = (0,) * 8
    buffer_size: Sequence[int] = (0,) * 8
    total_size: int = 0

    def pack(self) -> bytes:
        return (bytes(self.prio2buffer) + struct.pack("<8I", *self.buffer_size)
                + struct.pack("<I", self.total_size))


@dataclass
class DcbApp:
    """struct dcb_app."""
    selector: int
    priority: int
    protocol: int

    def pack(self) -> bytes:
        return struct.pack("<BBH", self.selector, self.priority, self.protocol)


@dataclass
class DcbConfig:
    """What a driver's dcbnl ops report. None: the driver lacks that op."""
    ets: Optional[IeeeEts] = None
    maxrate_kbps: Optional[Sequence[int]] = None
    pfc: Optional[IeeePfc] = None
    buffer: Optional[DcbBuffer] = None
    apps: List[DcbApp] = field(default_factory=list)   # dcb_app_list order (newest first)
    dcbx: Optional[int] = None


def dcbnl_request(ifname: str, cmd: int, seq: int) -> bytes:
    """What exporter/netlink/dcbnl.cpp sends: RTM_GETDCB, NLM_F_REQUEST, dcbmsg, IFNAME."""
    w = nb.NetlinkWriter()
    m = w.nlmsg_put(0, seq, RTM_GETDCB, 4, nb.NLM_F_REQUEST)
    w.set_family_header(m, struct.pack("<BBH", 0, cmd, 0))
    w.nla_put_string(DCB_ATTR_IFNAME, ifname)
    w.nlmsg_end(m)
    return w.bytes()


def dcbnl_ieee_reply(ifname: str, config: DcbConfig, *, seq: int, portid: int) -> bytes:
    """dcb_doit() + dcbnl_ieee_fill() for a driver with the ops ``config`` has."""
    w = nb.NetlinkWriter()
    m = w.nlmsg_put(portid, seq, RTM_GETDCB, 4, nb.NLM_F_REQUEST)  # the request's flags
    w.set_family_header(m, struct.pack("<BBH", 0, DCB_CMD_IEEE_GET, 0))
    w.nla_put_string(DCB_ATTR_IFNAME, ifname)
    ieee = w.nest_start_noflag(DCB_ATTR_IEEE)
    if config.ets is not None:
        w.nla_put(DCB_ATTR_IEEE_ETS, config.ets.pack())
    if config.maxrate_kbps is not None:
        w.nla_put(DCB_ATTR_IEEE_MAXRATE, struct.pack("<8Q", *config.maxrate_kbps))
    if config.pfc is not None:
        w.nla_put(DCB_ATTR_IEEE_PFC, config.pfc.pack())
    if config.buffer is not None:
        w.nla_put(DCB_ATTR_DCB_BUFFER, config.buffer.pack())
    app = w.nest_start_noflag(DCB_ATTR_IEEE_APP_TABLE)
    for a in config.apps:
        w.nla_put(DCB_ATTR_IEEE_APP, a.pack())
    w.nest_end(app)
    w.nest_end(ieee)
    if config.dcbx is not None:
        w.nla_put_u8(DCB_ATTR_DCBX, config.dcbx)
    w.nlmsg_end(m)
    return w.bytes()


def netlink_error_reply(request: bytes, errno_value: int, *, portid: int) -> bytes:
    """netlink_ack() with -errno for ``request`` (the whole request echoed)."""
    w = nb.NetlinkWriter()
    w.ack(request, errno_value, portid=portid)
    return w.bytes()


# --- generic netlink ethtool ---------------------------------------------------------------

ETHTOOL_GENL_VERSION = 1
ETHTOOL_FLAG_STATS = 1 << 2
ETHTOOL_MSG_LINKSTATE_GET = 6
ETHTOOL_MSG_PAUSE_GET = 21
ETHTOOL_MSG_MODULE_EEPROM_GET = 31
ETHTOOL_MSG_LINKSTATE_GET_REPLY = 6
# FEC_GET (include/uapi/linux/ethtool_netlink.h, net/ethtool/fec.c)
ETHTOOL_MSG_FEC_GET_REPLY = 30
ETHTOOL_A_FEC_HEADER = 1
ETHTOOL_A_FEC_MODES = 2
ETHTOOL_A_FEC_AUTO = 3
ETHTOOL_A_FEC_ACTIVE = 4
ETHTOOL_A_FEC_STATS = 5
ETHTOOL_A_FEC_STAT_PAD = 1
ETHTOOL_A_FEC_STAT_CORRECTED = 2
ETHTOOL_A_FEC_STAT_UNCORR = 3
ETHTOOL_A_FEC_STAT_CORR_BITS = 4
ETHTOOL_A_BITSET_NOMASK = 1
ETHTOOL_A_BITSET_SIZE = 2
ETHTOOL_A_BITSET_VALUE = 4
ETHTOOL_LINK_MODE_FEC_RS_BIT = 50
ETHTOOL_MSG_PAUSE_GET_REPLY = 22
ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY = 32
ETHTOOL_A_HEADER_DEV_INDEX = 1
ETHTOOL_A_HEADER_DEV_NAME = 2
ETHTOOL_A_HEADER_FLAGS = 3
ETHTOOL_A_LINKSTATE_HEADER = 1
ETHTOOL_A_LINKSTATE_LINK = 2
ETHTOOL_A_LINKSTATE_SQI = 3
ETHTOOL_A_LINKSTATE_SQI_MAX = 4
ETHTOOL_A_LINKSTATE_EXT_STATE = 5
ETHTOOL_A_LINKSTATE_EXT_SUBSTATE = 6
ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT = 7
ETHTOOL_A_PAUSE_HEADER = 1
ETHTOOL_A_PAUSE_AUTONEG = 2
ETHTOOL_A_PAUSE_RX = 3
ETHTOOL_A_PAUSE_TX = 4
ETHTOOL_A_PAUSE_STATS = 5
ETHTOOL_A_PAUSE_STAT_PAD = 1
ETHTOOL_A_PAUSE_STAT_TX_FRAMES = 2
ETHTOOL_A_PAUSE_STAT_RX_FRAMES = 3
ETHTOOL_A_MODULE_EEPROM_HEADER = 1
ETHTOOL_A_MODULE_EEPROM_OFFSET = 2
ETHTOOL_A_MODULE_EEPROM_LENGTH = 3
ETHTOOL_A_MODULE_EEPROM_PAGE = 4
ETHTOOL_A_MODULE_EEPROM_BANK = 5
ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS = 6
ETHTOOL_A_MODULE_EEPROM_DATA = 7

# enum ethtool_link_ext_state and the training-failure substates
LINK_EXT_STATE_AUTONEG = 0
LINK_EXT_STATE_LINK_TRAINING_FAILURE = 1
LINK_EXT_STATE_LINK_LOGICAL_MISMATCH = 2
LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY = 3
LINK_EXT_STATE_NO_CABLE = 4
LINK_EXT_STATE_CABLE_ISSUE = 5
LINK_EXT_STATE_MODULE = 10
LINK_EXT_SUBSTATE_LT_KR_FRAME_LOCK_NOT_ACQUIRED = 1
LINK_EXT_SUBSTATE_LT_KR_LINK_INHIBIT_TIMEOUT = 2
LINK_EXT_SUBSTATE_LT_KR_LINK_PARTNER_DID_NOT_SET_RECEIVER_READY = 3
LINK_EXT_SUBSTATE_LT_REMOTE_FAULT = 4

# The generic netlink id the kernel gave "ethtool" (dynamic; 21 on the kernels seen here).
ETHTOOL_FAMILY_ID = 21


def ethtool_request(family_id: int, cmd: int, header_attr: int, ifname: str, seq: int, *,
                    flags: int = 0, extra: Sequence[Tuple[str, int, int]] = ()) -> bytes:
    """What exporter/netlink/ethtool_genl.cpp sends: NLM_F_REQUEST, genlmsghdr, the
    request header nest {DEV_NAME, FLAGS if non-zero}, then ``extra`` attributes given
    as (kind "u8"/"u32", type, value)."""
    w = nb.NetlinkWriter()
    m = w.genlmsg_put(0, seq, family_id, cmd, ETHTOOL_GENL_VERSION, nb.NLM_F_REQUEST)
    h = w.nest_start(header_attr)
    w.nla_put_string(ETHTOOL_A_HEADER_DEV_NAME, ifname)
    if flags:
        w.nla_put_u32(ETHTOOL_A_HEADER_FLAGS, flags)
    w.nest_end(h)
    for kind, type_, value in extra:
        if kind == "u8":
            w.nla_put_u8(type_, value)
        elif kind == "u32":
            w.nla_put_u32(type_, value)
        else:
            raise ValueError(f"attribute kind {kind!r}")
    w.nlmsg_end(m)
    return w.bytes()


def linkstate_request(ifname: str, seq: int, *, with_stats: bool = True,
                      family_id: int = ETHTOOL_FAMILY_ID) -> bytes:
    return ethtool_request(family_id, ETHTOOL_MSG_LINKSTATE_GET, ETHTOOL_A_LINKSTATE_HEADER,
                           ifname, seq, flags=ETHTOOL_FLAG_STATS if with_stats else 0)


def pause_request(ifname: str, seq: int, *, family_id: int = ETHTOOL_FAMILY_ID) -> bytes:
    return ethtool_request(family_id, ETHTOOL_MSG_PAUSE_GET, ETHTOOL_A_PAUSE_HEADER, ifname, seq,
                           flags=ETHTOOL_FLAG_STATS)


def module_eeprom_request(ifname: str, seq: int, *, offset: int = 0, length: int = 128,
                          page: int = 0, bank: int = 0, i2c_address: int = 0x50,
                          family_id: int = ETHTOOL_FAMILY_ID) -> bytes:
    return ethtool_request(family_id, ETHTOOL_MSG_MODULE_EEPROM_GET,
                           ETHTOOL_A_MODULE_EEPROM_HEADER, ifname, seq, extra=(
                               ("u32", ETHTOOL_A_MODULE_EEPROM_OFFSET, offset),
                               ("u32", ETHTOOL_A_MODULE_EEPROM_LENGTH, length),
                               ("u8", ETHTOOL_A_MODULE_EEPROM_PAGE, page),
                               ("u8", ETHTOOL_A_MODULE_EEPROM_BANK, bank),
                               ("u8", ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, i2c_address)))


def _ethtool_reply_start(w: nb.NetlinkWriter, *, family_id: int, cmd: int, seq: int,
                         portid: int, header_attr: int, ifindex: int, ifname: str) -> int:
    """ethnl_reply_init() + ethnl_fill_reply_header()."""
    m = w.genlmsg_put(portid, seq, family_id, cmd, ETHTOOL_GENL_VERSION, 0)
    h = w.nest_start(header_attr)
    w.nla_put_u32(ETHTOOL_A_HEADER_DEV_INDEX, ifindex)
    w.nla_put_string(ETHTOOL_A_HEADER_DEV_NAME, ifname)
    w.nest_end(h)
    return m


def ethtool_linkstate_reply(*, ifindex: int, ifname: str, seq: int, portid: int,
                            link: Optional[bool], sqi: Optional[int] = None,
                            sqi_max: Optional[int] = None, ext_state: Optional[int] = None,
                            ext_substate: int = 0, ext_down_count: Optional[int] = None,
                            family_id: int = ETHTOOL_FAMILY_ID) -> bytes:
    """linkstate_fill_reply(): LINK (when known), SQI, SQI_MAX, EXT_STATE (when the driver
    reports one) with EXT_SUBSTATE (only when non-zero), EXT_DOWN_CNT (requests with
    ETHTOOL_FLAG_STATS, drivers with get_link_ext_stats)."""
    w = nb.NetlinkWriter()
    m = _ethtool_reply_start(w, family_id=family_id, cmd=ETHTOOL_MSG_LINKSTATE_GET_REPLY,
                             seq=seq, portid=portid, header_attr=ETHTOOL_A_LINKSTATE_HEADER,
                             ifindex=ifindex, ifname=ifname)
    if link is not None:
        w.nla_put_u8(ETHTOOL_A_LINKSTATE_LINK, 1 if link else 0)
    if sqi is not None:
        w.nla_put_u32(ETHTOOL_A_LINKSTATE_SQI, sqi)
    if sqi_max is not None:
        w.nla_put_u32(ETHTOOL_A_LINKSTATE_SQI_MAX, sqi_max)
    if ext_state is not None:
        w.nla_put_u8(ETHTOOL_A_LINKSTATE_EXT_STATE, ext_state)
        if ext_substate:
            w.nla_put_u8(ETHTOOL_A_LINKSTATE_EXT_SUBSTATE, ext_substate)
    if ext_down_count is not None:
        w.nla_put_u32(ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT, ext_down_count)
    w.nlmsg_end(m)
    return w.bytes()


def ethtool_pause_reply(*, ifindex: int, ifname: str, seq: int, portid: int, autoneg: bool,
                        rx: bool, tx: bool, tx_frames: Optional[int] = None,
                        rx_frames: Optional[int] = None, with_stats: bool = True,
                        family_id: int = ETHTOOL_FAMILY_ID) -> bytes:
    """pause_fill_reply(): AUTONEG, RX, TX, and with ETHTOOL_FLAG_STATS the STATS nest
    (ethtool_put_stat() leaves out counters the driver did not set)."""
    w = nb.NetlinkWriter()
    m = _ethtool_reply_start(w, family_id=family_id, cmd=ETHTOOL_MSG_PAUSE_GET_REPLY, seq=seq,
                             portid=portid, header_attr=ETHTOOL_A_PAUSE_HEADER, ifindex=ifindex,
                             ifname=ifname)
    w.nla_put_u8(ETHTOOL_A_PAUSE_AUTONEG, 1 if autoneg else 0)
    w.nla_put_u8(ETHTOOL_A_PAUSE_RX, 1 if rx else 0)
    w.nla_put_u8(ETHTOOL_A_PAUSE_TX, 1 if tx else 0)
    if with_stats:
        s = w.nest_start(ETHTOOL_A_PAUSE_STATS)
        if tx_frames is not None:
            w.nla_put_u64_64bit(ETHTOOL_A_PAUSE_STAT_TX_FRAMES, tx_frames, ETHTOOL_A_PAUSE_STAT_PAD)
        if rx_frames is not None:
            w.nla_put_u64_64bit(ETHTOOL_A_PAUSE_STAT_RX_FRAMES, rx_frames, ETHTOOL_A_PAUSE_STAT_PAD)
        w.nest_end(s)
    w.nlmsg_end(m)
    return w.bytes()


def ethtool_fec_reply(*, ifindex: int, ifname: str, seq: int, portid: int, modes: Sequence[int],
                      active: int, auto: bool = False, corrected: Sequence[int] = (),
                      uncorrectable: Sequence[int] = (), corrected_bits: Sequence[int] = (),
                      family_id: int = ETHTOOL_FAMILY_ID) -> bytes:
    """fec_fill_reply(): MODES (a compact bitset without mask of link-mode bits), AUTO, ACTIVE
    (the active mode's link-mode bit), and with ETHTOOL_FLAG_STATS the STATS nest: each counter
    an array of u64, the total then one per lane (fec_put_stats(); left out when not given)."""
    w = nb.NetlinkWriter()
    m = _ethtool_reply_start(w, family_id=family_id, cmd=ETHTOOL_MSG_FEC_GET_REPLY, seq=seq,
                             portid=portid, header_attr=ETHTOOL_A_FEC_HEADER, ifindex=ifindex,
                             ifname=ifname)
    nbits = 128
    b = w.nest_start(ETHTOOL_A_FEC_MODES)
    w.nla_put(ETHTOOL_A_BITSET_NOMASK)
    w.nla_put_u32(ETHTOOL_A_BITSET_SIZE, nbits)
    w.nla_put(ETHTOOL_A_BITSET_VALUE, _bitmap(modes, nbits // 32))
    w.nest_end(b)
    w.nla_put_u8(ETHTOOL_A_FEC_AUTO, 1 if auto else 0)
    w.nla_put_u32(ETHTOOL_A_FEC_ACTIVE, active)
    st = w.nest_start(ETHTOOL_A_FEC_STATS)
    for attr, values in ((ETHTOOL_A_FEC_STAT_CORRECTED, corrected), (ETHTOOL_A_FEC_STAT_UNCORR, uncorrectable),
                         (ETHTOOL_A_FEC_STAT_CORR_BITS, corrected_bits)):
        if values:
            w.nla_put(attr, struct.pack(f"<{len(values)}Q", *values))
    w.nest_end(st)
    w.nlmsg_end(m)
    return w.bytes()


# --- RDMA netlink (include/uapi/rdma/rdma_netlink.h, drivers/infiniband/core/nldev.c) ------
RDMA_NL_NLDEV = 5
RDMA_NLDEV_CMD_STAT_GET = 17
RDMA_NLDEV_CMD_STAT_GET_STATUS = 24
RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX = 94
RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC = 95
RDMA_NLDEV_ATTR_PAD = 0
RDMA_NLDEV_ATTR_DEV_INDEX = 1
RDMA_NLDEV_ATTR_DEV_NAME = 2
RDMA_NLDEV_ATTR_PORT_INDEX = 3
RDMA_NLDEV_ATTR_STAT_HWCOUNTERS = 80
RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY = 81
RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME = 82
RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE = 83


def rdma_stat_reply(*, dev_index: int, device: str, port: int, seq: int, portid: int,
                    counters: Sequence[Tuple[str, int]]) -> bytes:
    """stat_get_doit_default_counter(): nlmsg_put(type RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
    RDMA_NLDEV_CMD_STAT_GET), flags 0), fill_nldev_handle() (DEV_INDEX, DEV_NAME), PORT_INDEX,
    then the STAT_HWCOUNTERS nest (nla_nest_start) of one HWCOUNTER_ENTRY (nla_nest_start_noflag)
    per enabled counter: ENTRY_NAME and ENTRY_VALUE (nla_put_u64_64bit, no pad on x86-64)."""
    w = nb.NetlinkWriter()
    m = w.nlmsg_put(portid, seq, (RDMA_NL_NLDEV << 10) + RDMA_NLDEV_CMD_STAT_GET, 0)
    w.nla_put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev_index)
    w.nla_put_string(RDMA_NLDEV_ATTR_DEV_NAME, device)
    w.nla_put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port)
    table = w.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS)
    for name, value in counters:
        entry = w.nest_start_noflag(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
        w.nla_put_string(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name)
        w.nla_put_u64_64bit(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, value, RDMA_NLDEV_ATTR_PAD)
        w.nest_end(entry)
    w.nest_end(table)
    w.nlmsg_end(m)
    return w.bytes()


def rdma_stat_status_reply(*, dev_index: int, device: str, port: int, seq: int, portid: int,
                           optional: Sequence[Tuple[str, int, bool]]) -> bytes:
    """nldev_stat_get_counter_status_doit(): the handle, PORT_INDEX, then STAT_HWCOUNTERS
    (nla_nest_start) of one HWCOUNTER_ENTRY (nla_nest_start) per optional counter: ENTRY_NAME,
    HWCOUNTER_INDEX (u32) and HWCOUNTER_DYNAMIC (u8, 1 = enabled)."""
    w = nb.NetlinkWriter()
    m = w.nlmsg_put(portid, seq, (RDMA_NL_NLDEV << 10) + RDMA_NLDEV_CMD_STAT_GET_STATUS, 0)
    w.nla_put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev_index)
    w.nla_put_string(RDMA_NLDEV_ATTR_DEV_NAME, device)
    w.nla_put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port)
    table = w.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS)
    for name, index, enabled in optional:
        entry = w.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
        w.nla_put_string(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name)
        w.nla_put_u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, index)
        w.nla_put_u8(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, 1 if enabled else 0)
        w.nest_end(entry)
    w.nest_end(table)
    w.nlmsg_end(m)
    return w.bytes()


RDMA_NLDEV_CMD_RES_GET = 9
RDMA_NLDEV_CMD_RES_QP_GET = 10
RDMA_NLDEV_ATTR_RES_SUMMARY = 15
RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY = 16
RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME = 17
RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR = 18
RDMA_NLDEV_ATTR_RES_QP = 19
RDMA_NLDEV_ATTR_RES_QP_ENTRY = 20
RDMA_NLDEV_ATTR_RES_LQPN = 21
RDMA_NLDEV_ATTR_RES_SQ_PSN = 24
RDMA_NLDEV_ATTR_RES_TYPE = 26
RDMA_NLDEV_ATTR_RES_STATE = 27
RDMA_NLDEV_ATTR_RES_PID = 28
RDMA_NLDEV_ATTR_RES_KERN_NAME = 29
RDMA_NLDEV_ATTR_STAT_MODE = 74
RDMA_NLDEV_ATTR_STAT_RES = 75
RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK = 76
RDMA_NLDEV_ATTR_STAT_COUNTER = 77
RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY = 78
RDMA_NLDEV_ATTR_STAT_COUNTER_ID = 79
RDMA_NLDEV_ATTR_RES_PDN = 60
RDMA_COUNTER_MODE_AUTO = 1


def _nldev_type(cmd: int) -> int:
    return (RDMA_NL_NLDEV << 10) + cmd


def _nldev_done(w: "nb.NetlinkWriter", seq: int, portid: int) -> None:
    done = w.nlmsg_put(portid, seq, nb.NLMSG_DONE, 4, nb.NLM_F_MULTI)
    w.nlmsg_end(done)


def rdma_res_summary_reply(*, dev_index: int, device: str, seq: int, portid: int,
                           entries: Sequence[Tuple[str, int]]) -> bytes:
    """nldev_res_get_doit() over fill_res_info(): the handle, then RES_SUMMARY
    (nla_nest_start_noflag) of one RES_SUMMARY_ENTRY (nla_nest_start_noflag) per restrack type
    that has a name (pd, cq, qp, cm_id, mr, ctx, srq): ENTRY_NAME and ENTRY_CURR
    (nla_put_u64_64bit)."""
    w = nb.NetlinkWriter()
    m = w.nlmsg_put(portid, seq, _nldev_type(RDMA_NLDEV_CMD_RES_GET), 0)
    w.nla_put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev_index)
    w.nla_put_string(RDMA_NLDEV_ATTR_DEV_NAME, device)
    table = w.nest_start_noflag(RDMA_NLDEV_ATTR_RES_SUMMARY)
    for name, curr in entries:
        entry = w.nest_start_noflag(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY)
        w.nla_put_string(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name)
        w.nla_put_u64_64bit(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, curr, RDMA_NLDEV_ATTR_PAD)
        w.nest_end(entry)
    w.nest_end(table)
    w.nlmsg_end(m)
    return w.bytes()


def rdma_qp_mode_reply(*, dev_index: int, device: str, port: int, seq: int, portid: int,
                       mode: int, mask: int = 0) -> bytes:
    """stat_get_doit_qp(): the handle, PORT_INDEX, STAT_MODE (u32) and, in auto mode,
    STAT_AUTO_MODE_MASK (u32)."""
    w = nb.NetlinkWriter()
    m = w.nlmsg_put(portid, seq, _nldev_type(RDMA_NLDEV_CMD_STAT_GET), 0)
    w.nla_put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev_index)
    w.nla_put_string(RDMA_NLDEV_ATTR_DEV_NAME, device)
    w.nla_put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port)
    w.nla_put_u32(RDMA_NLDEV_ATTR_STAT_MODE, mode)
    if mode == RDMA_COUNTER_MODE_AUTO:
        w.nla_put_u32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, mask)
    w.nlmsg_end(m)
    return w.bytes()


def rdma_qp_counters_dump(*, dev_index: int, device: str, seq: int, portid: int,
                          counters: Sequence[dict]) -> bytes:
    """res_get_common_dumpit() over fill_res_counter_entry(), one message (NLM_F_MULTI): the
    handle, STAT_COUNTER (nla_nest_start_noflag) of one STAT_COUNTER_ENTRY per counter:
    PORT_INDEX, STAT_COUNTER_ID, STAT_MODE, in auto mode RES_TYPE (u8) and/or RES_PID (u32),
    RES_QP (nla_nest_start) of RES_QP_ENTRY { RES_LQPN } per bound QP, STAT_HWCOUNTERS; then
    NLMSG_DONE. Each counter: {port, id, mode, qp_type?, pid?, qps, counters: [(name, value)]}."""
    w = nb.NetlinkWriter()
    if counters:
        m = w.nlmsg_put(portid, seq, _nldev_type(RDMA_NLDEV_CMD_STAT_GET), 0, nb.NLM_F_MULTI)
        w.nla_put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev_index)
        w.nla_put_string(RDMA_NLDEV_ATTR_DEV_NAME, device)
        table = w.nest_start_noflag(RDMA_NLDEV_ATTR_STAT_COUNTER)
        for c in counters:
            entry = w.nest_start_noflag(RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY)
            w.nla_put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, c["port"])
            w.nla_put_u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, c["id"])
            w.nla_put_u32(RDMA_NLDEV_ATTR_STAT_MODE, c["mode"])
            if c.get("qp_type") is not None:
                w.nla_put_u8(RDMA_NLDEV_ATTR_RES_TYPE, c["qp_type"])
            if c.get("pid") is not None:
                w.nla_put_u32(RDMA_NLDEV_ATTR_RES_PID, c["pid"])
            qps = w.nest_start(RDMA_NLDEV_ATTR_RES_QP)
            for qpn in c["qps"]:
                q = w.nest_start(RDMA_NLDEV_ATTR_RES_QP_ENTRY)
                w.nla_put_u32(RDMA_NLDEV_ATTR_RES_LQPN, qpn)
                w.nest_end(q)
            w.nest_end(qps)
            hw = w.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS)
            for name, value in c["counters"]:
                e = w.nest_start_noflag(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
                w.nla_put_string(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name)
                w.nla_put_u64_64bit(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, value,
                                    RDMA_NLDEV_ATTR_PAD)
                w.nest_end(e)
            w.nest_end(hw)
            w.nest_end(entry)
        w.nest_end(table)
        w.nlmsg_end(m)
    _nldev_done(w, seq, portid)
    return w.bytes()


def rdma_res_qp_dump(*, dev_index: int, device: str, seq: int, portid: int,
                     qps: Sequence[dict]) -> bytes:
    """res_get_common_dumpit() over fill_res_qp_entry(), one message (NLM_F_MULTI): the handle,
    RES_QP (nla_nest_start_noflag) of one RES_QP_ENTRY (nla_nest_start_noflag) per QP:
    PORT_INDEX (once bound), RES_LQPN, RES_PDN (user QPs), RES_PID or RES_KERN_NAME, RES_SQ_PSN,
    RES_TYPE, RES_STATE; then NLMSG_DONE. Each QP: {lqpn, port?, pid? | kern_name?, type,
    state}."""
    w = nb.NetlinkWriter()
    if qps:
        m = w.nlmsg_put(portid, seq, _nldev_type(RDMA_NLDEV_CMD_RES_QP_GET), 0, nb.NLM_F_MULTI)
        w.nla_put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev_index)
        w.nla_put_string(RDMA_NLDEV_ATTR_DEV_NAME, device)
        table = w.nest_start_noflag(RDMA_NLDEV_ATTR_RES_QP)
        for q in qps:
            entry = w.nest_start_noflag(RDMA_NLDEV_ATTR_RES_QP_ENTRY)
            if q.get("port"):
                w.nla_put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, q["port"])
            w.nla_put_u32(RDMA_NLDEV_ATTR_RES_LQPN, q["lqpn"])
            if q.get("pid") is not None:
                w.nla_put_u32(RDMA_NLDEV_ATTR_RES_PDN, 1)
                w.nla_put_u32(RDMA_NLDEV_ATTR_RES_PID, q["pid"])
            else:
                w.nla_put_string(RDMA_NLDEV_ATTR_RES_KERN_NAME, q["kern_name"])
            w.nla_put_u32(RDMA_NLDEV_ATTR_RES_SQ_PSN, 0)
            w.nla_put_u8(RDMA_NLDEV_ATTR_RES_TYPE, q["type"])
            w.nla_put_u8(RDMA_NLDEV_ATTR_RES_STATE, q["state"])
            w.nest_end(entry)
        w.nest_end(table)
        w.nlmsg_end(m)
    _nldev_done(w, seq, portid)
    return w.bytes()


def ethtool_module_eeprom_reply(*, ifindex: int, ifname: str, seq: int, portid: int,
                                data: bytes, family_id: int = ETHTOOL_FAMILY_ID) -> bytes:
    """eeprom_fill_reply(): the header and ETHTOOL_A_MODULE_EEPROM_DATA."""
    w = nb.NetlinkWriter()
    m = _ethtool_reply_start(w, family_id=family_id, cmd=ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY,
                             seq=seq, portid=portid, header_attr=ETHTOOL_A_MODULE_EEPROM_HEADER,
                             ifindex=ifindex, ifname=ifname)
    w.nla_put(ETHTOOL_A_MODULE_EEPROM_DATA, data)
    w.nlmsg_end(m)
    return w.bytes()


# --- libibverbs ----------------------------------------------------------------------------

IBV_PORT_DOWN = 1
IBV_PORT_INIT = 2
IBV_PORT_ARMED = 3
IBV_PORT_ACTIVE = 4
IBV_MTU_256, IBV_MTU_512, IBV_MTU_1024, IBV_MTU_2048, IBV_MTU_4096 = 1, 2, 3, 4, 5
IBV_WIDTH_1X, IBV_WIDTH_4X, IBV_WIDTH_8X, IBV_WIDTH_12X, IBV_WIDTH_2X = 1, 2, 4, 8, 16
IBV_SPEED_SDR, IBV_SPEED_DDR, IBV_SPEED_QDR, IBV_SPEED_FDR10 = 1, 2, 4, 8
IBV_SPEED_FDR, IBV_SPEED_EDR, IBV_SPEED_HDR, IBV_SPEED_NDR, IBV_SPEED_XDR = 16, 32, 64, 128, 256
IBV_LINK_LAYER_INFINIBAND = 1
IBV_LINK_LAYER_ETHERNET = 2
IBV_PORT_CM_SUP = 1 << 16
IBV_PORT_IP_BASED_GIDS = 1 << 26
PHYS_STATE_DISABLED = 3
PHYS_STATE_LINK_UP = 5


def ibv_port_attr(*, state: int, max_mtu: int, active_mtu: int, gid_tbl_len: int,
                  port_cap_flags: int, max_msg_sz: int = 1 << 30, bad_pkey_cntr: int = 0,
                  qkey_viol_cntr: int = 0, pkey_tbl_len: int = 1, lid: int = 0, sm_lid: int = 0,
                  lmc: int = 0, max_vl_num: int = 0, sm_sl: int = 0, subnet_timeout: int = 0,
                  init_type_reply: int = 0, active_width: int, active_speed: int,
                  phys_state: int, link_layer: int, flags: int = 0, port_cap_flags2: int = 0,
                  active_speed_ex: Optional[int] = None) -> bytes:
    """struct ibv_port_attr: 52 bytes (rdma-core 44), or 56 with active_speed_ex
    (rdma-core 47+).  An XDR port reports active_speed 0 and active_speed_ex 256."""
    out = struct.pack("<iiiiIIIIHHHBBBBBBBBBBH2x", state, max_mtu, active_mtu, gid_tbl_len,
                      port_cap_flags, max_msg_sz, bad_pkey_cntr, qkey_viol_cntr, pkey_tbl_len,
                      lid, sm_lid, lmc, max_vl_num, sm_sl, subnet_timeout, init_type_reply,
                      active_width, active_speed, phys_state, link_layer, flags, port_cap_flags2)
    if active_speed_ex is not None:
        out += struct.pack("<I", active_speed_ex)
    return out
