#!/usr/bin/env python3
"""Netlink messages built byte for byte the way the Linux kernel builds them.

Python 3 standard library only.  Used by the fixture generator to write the
raw netlink replies a capture holds (``kernel/dcbnl/...``,
``kernel/ethtool-netlink/...``), so the exporter's decoders are tested on
kernel-shaped bytes.  Mirrors include/net/netlink.h and
net/netlink/af_netlink.c (and tests/exporter/netlink/kernel_skb.h on the C++ side):

``nlmsg_put``       16-byte struct nlmsghdr + NLMSG_ALIGN(payload), zeroed
``genlmsg_put``     nlmsg_put + 4-byte struct genlmsghdr {cmd, version, 0}
``nla_put``         4-byte struct nlattr {len, type} + payload, padded with
                    zeros to NLA_ALIGN (4); ``nla_len`` counts the header and
                    the payload, not the padding
``nla_nest_start``  a nest header with NLA_F_NESTED (``nest_start``);
                    ``nla_nest_start_noflag`` without (``nest_start_noflag``,
                    what dcbnl uses)
``nla_nest_end``    nla_len = tail - start
``nla_put_u64_64bit`` a zero-length pad attribute first when the u64 payload
                    would not be 8-aligned, only on architectures without
                    efficient unaligned access (``pad64=True``); x86-64 and
                    arm64 never pad
``nlmsg_end``       nlmsg_len = tail - start
``netlink_ack``     NLMSG_ERROR {int error = -errno; the request (whole, or
                    its header only with NETLINK_CAP_ACK)} [+ extended ACK
                    TLVs with NLM_F_ACK_TLVS]

All integers are host (little-endian) byte order, as on x86-64 and arm64.

Usage::

    import netlink_bytes as nb
    w = nb.NetlinkWriter()
    m = w.genlmsg_put(portid=4242, seq=7, family_id=21, cmd=32, version=1)
    h = w.nest_start(1)                       # ETHTOOL_A_..._HEADER
    w.nla_put_u32(1, 3)                       # ETHTOOL_A_HEADER_DEV_INDEX
    w.nla_put_string(2, "ens1f0np0")          # ETHTOOL_A_HEADER_DEV_NAME
    w.nest_end(h)
    w.nla_put(7, page_bytes)                  # ETHTOOL_A_MODULE_EEPROM_DATA
    w.nlmsg_end(m)
    reply = w.bytes()
"""

from __future__ import annotations

import struct
from typing import Optional

__all__ = [
    "NLMSG_ALIGNTO", "NLMSG_HDRLEN", "NLA_ALIGNTO", "NLA_HDRLEN", "GENL_HDRLEN",
    "NLA_F_NESTED", "NLA_F_NET_BYTEORDER", "NLMSG_NOOP", "NLMSG_ERROR", "NLMSG_DONE",
    "NLMSG_MIN_TYPE", "NLM_F_REQUEST", "NLM_F_MULTI", "NLM_F_ACK", "NLM_F_CAPPED",
    "NLM_F_ACK_TLVS", "NLMSGERR_ATTR_MSG", "NLMSGERR_ATTR_OFFS", "GENL_ID_CTRL",
    "nlmsg_align", "nla_align", "NetlinkWriter", "attr", "nest",
]

NLMSG_ALIGNTO = 4
NLMSG_HDRLEN = 16            # struct nlmsghdr {u32 len; u16 type; u16 flags; u32 seq; u32 pid}
NLA_ALIGNTO = 4
NLA_HDRLEN = 4               # struct nlattr {u16 nla_len; u16 nla_type}
GENL_HDRLEN = 4              # struct genlmsghdr {u8 cmd; u8 version; u16 reserved}
NLA_F_NESTED = 1 << 15
NLA_F_NET_BYTEORDER = 1 << 14

NLMSG_NOOP = 1
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLMSG_MIN_TYPE = 0x10

NLM_F_REQUEST = 0x01
NLM_F_MULTI = 0x02
NLM_F_ACK = 0x04
NLM_F_CAPPED = 0x100         # NLMSG_ERROR: the request was capped to its header
NLM_F_ACK_TLVS = 0x200       # NLMSG_ERROR: extended ACK TLVs follow

NLMSGERR_ATTR_MSG = 1
NLMSGERR_ATTR_OFFS = 2

GENL_ID_CTRL = 0x10


def nlmsg_align(n: int) -> int:
    return (n + NLMSG_ALIGNTO - 1) & ~(NLMSG_ALIGNTO - 1)


def nla_align(n: int) -> int:
    return (n + NLA_ALIGNTO - 1) & ~(NLA_ALIGNTO - 1)


class NetlinkWriter:
    """An skb under construction: messages and attributes appended in order.

    Every method mirrors the kernel helper of the same name; offsets returned
    by the ``*_put`` / ``*_start`` methods are handed back to the matching
    ``*_end`` method to fill in the length, as the kernel does."""

    def __init__(self) -> None:
        self._buf = bytearray()

    # --- messages -------------------------------------------------------------

    def nlmsg_put(self, portid: int, seq: int, type_: int, payload: int, flags: int = 0) -> int:
        """struct nlmsghdr with room for ``payload`` bytes of family header
        (zeroed, padded to 4); returns the message start for nlmsg_end."""
        start = len(self._buf)
        self._buf += struct.pack("<IHHII", NLMSG_HDRLEN + payload, type_, flags, seq, portid)
        self._buf += bytes(nlmsg_align(payload))
        return start

    def set_family_header(self, message_start: int, header: bytes) -> None:
        """Write a family header (struct dcbmsg, genlmsghdr…) into the room
        nlmsg_put reserved."""
        at = message_start + NLMSG_HDRLEN
        self._buf[at:at + len(header)] = header

    def genlmsg_put(self, portid: int, seq: int, family_id: int, cmd: int, version: int,
                    flags: int = 0) -> int:
        """genlmsg_put(): nlmsg_put + struct genlmsghdr {cmd, version, 0}."""
        start = self.nlmsg_put(portid, seq, family_id, GENL_HDRLEN, flags)
        self.set_family_header(start, struct.pack("<BBH", cmd, version, 0))
        return start

    def nlmsg_end(self, message_start: int) -> None:
        struct.pack_into("<I", self._buf, message_start, len(self._buf) - message_start)

    # --- attributes -----------------------------------------------------------

    def nla_put(self, type_: int, data: bytes = b"") -> None:
        data = bytes(data)
        if NLA_HDRLEN + len(data) > 0xFFFF:
            raise ValueError(f"attribute {type_}: {len(data)} bytes do not fit nla_len")
        self._buf += struct.pack("<HH", NLA_HDRLEN + len(data), type_)
        self._buf += data
        self._buf += bytes(nla_align(len(data)) - len(data))

    def nla_put_u8(self, type_: int, value: int) -> None:
        self.nla_put(type_, struct.pack("<B", value))

    def nla_put_u16(self, type_: int, value: int) -> None:
        self.nla_put(type_, struct.pack("<H", value))

    def nla_put_u32(self, type_: int, value: int) -> None:
        self.nla_put(type_, struct.pack("<I", value))

    def nla_put_u64(self, type_: int, value: int) -> None:
        """nla_put_u64_64bit on an architecture that needs no pad attribute."""
        self.nla_put(type_, struct.pack("<Q", value))

    def nla_put_u64_64bit(self, type_: int, value: int, padattr: int, pad64: bool = False) -> None:
        # nla_need_padding_for_64bit(): the payload would start at tail + 4, which is not
        # 8-aligned when the tail is.
        if pad64 and len(self._buf) % 8 == 0:
            self.nla_put(padattr, b"")
        self.nla_put(type_, struct.pack("<Q", value))

    def nla_put_string(self, type_: int, text: str) -> None:
        """nla_put_string(): the string and its terminating NUL."""
        self.nla_put(type_, text.encode() + b"\0")

    def nest_start(self, type_: int) -> int:
        """nla_nest_start(): NLA_F_NESTED set in the type."""
        return self._start_nest(type_ | NLA_F_NESTED)

    def nest_start_noflag(self, type_: int) -> int:
        """nla_nest_start_noflag(): what older families (dcbnl) use."""
        return self._start_nest(type_)

    def nest_end(self, nest_start: int) -> None:
        struct.pack_into("<H", self._buf, nest_start, len(self._buf) - nest_start)

    def _start_nest(self, raw_type: int) -> int:
        start = len(self._buf)
        self._buf += struct.pack("<HH", NLA_HDRLEN, raw_type)
        return start

    # --- acknowledgements -----------------------------------------------------

    def ack(self, request: bytes, errno_value: int, *, capped: bool = False,
            extack: Optional[str] = None, extack_offset: int = 0, portid: int = 0) -> None:
        """netlink_ack(): NLMSG_ERROR for ``request`` with -errno (0 is an ACK),
        sent to ``portid`` (the requester's port id), echoing the request's
        sequence number and the request itself (its header only when
        ``capped``: NETLINK_CAP_ACK)."""
        req_len, _type, _flags, req_seq, _pid = struct.unpack_from("<IHHII", request)
        echoed = NLMSG_HDRLEN if capped else req_len
        flags = (NLM_F_CAPPED if capped else 0) | (NLM_F_ACK_TLVS if extack else 0)
        start = self.nlmsg_put(portid, req_seq, NLMSG_ERROR, 4 + echoed, flags)
        at = start + NLMSG_HDRLEN
        struct.pack_into("<i", self._buf, at, -errno_value)
        self._buf[at + 4:at + 4 + echoed] = request[:echoed]
        if extack:
            self.nla_put_string(NLMSGERR_ATTR_MSG, extack)
            self.nla_put_u32(NLMSGERR_ATTR_OFFS, extack_offset)
        self.nlmsg_end(start)

    def bytes(self) -> bytes:
        return bytes(self._buf)


# --- small standalone helpers (for builders that assemble attributes by value) --------

def attr(type_: int, payload: bytes) -> bytes:
    """One attribute as bytes: header, payload, zero padding to 4."""
    payload = bytes(payload)
    return (struct.pack("<HH", NLA_HDRLEN + len(payload), type_) + payload
            + bytes(nla_align(len(payload)) - len(payload)))


def nest(type_: int, *children: bytes, flag: bool = True) -> bytes:
    """A nest of already-built attributes (NLA_F_NESTED unless ``flag`` is false)."""
    body = b"".join(children)
    raw_type = type_ | (NLA_F_NESTED if flag else 0)
    return struct.pack("<HH", NLA_HDRLEN + len(body), raw_type) + body
