#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/) from the inputs the
other tests already use: spec-built EEPROM images (tests/exporter/optics/images.h, through the
optics_image_writer tool), the kernel answers of the fixtures (tests/fixtures/*/kernel), plans,
CSVs and golden /metrics files. Seeds are kept small (a few KiB at most): libFuzzer mutates small
inputs faster, and the corpora are checked in.

    tests/fuzz/make_corpus.py --optics-writer build/tests/exporter/optics/optics_image_writer

Files whose name starts with "crash-" or "regression-" are reproducers of bugs the fuzzers
found; they are kept as they are (this script only replaces its own "seed-" files).
"""

import argparse
import json
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fuzz" / "corpus"
FIXTURES = ROOT / "tests" / "fixtures"

# netlink constants (include/uapi/linux/netlink.h, genetlink.h, ethtool_netlink.h, dcbnl.h)
NLMSG_ERROR = 2
NLM_F_ACK_TLVS = 0x200
GENL_ID_CTRL = 0x10
CTRL_CMD_NEWFAMILY = 1
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_VERSION = 1, 2, 3
CTRL_ATTR_HDRSIZE, CTRL_ATTR_MAXATTR = 4, 5
NLMSGERR_ATTR_MSG = 1


def nla(attr_type, payload):
    data = struct.pack("<HH", 4 + len(payload), attr_type) + payload
    return data + b"\0" * (-len(data) % 4)


def nlmsg(msg_type, payload, flags=0, seq=1, pid=4242):
    data = struct.pack("<IHHII", 16 + len(payload), msg_type, flags, seq, pid) + payload
    return data + b"\0" * (-len(data) % 4)


def genl_family_reply():
    attrs = (nla(CTRL_ATTR_FAMILY_NAME, b"ethtool\0") + nla(CTRL_ATTR_FAMILY_ID, struct.pack("<H", 21))
             + nla(CTRL_ATTR_VERSION, struct.pack("<I", 1)) + nla(CTRL_ATTR_HDRSIZE, struct.pack("<I", 0))
             + nla(CTRL_ATTR_MAXATTR, struct.pack("<I", 0)))
    return nlmsg(GENL_ID_CTRL, struct.pack("<BBH", CTRL_CMD_NEWFAMILY, 2, 0) + attrs)


def error_reply(errno_value, request, extack=None):
    flags = NLM_F_ACK_TLVS if extack else 0
    payload = struct.pack("<i", -errno_value) + request
    if extack:
        payload += nla(NLMSGERR_ATTR_MSG, extack.encode() + b"\0")
    return nlmsg(NLMSG_ERROR, payload, flags)


# Replies captured from Linux 6.18 (tests/exporter/netlink/captured_replies_test.cpp).
DCBNL_VETH_EOPNOTSUPP = bytes([
    0x34, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0xea,
    0x3b, 0x00, 0x00, 0xa1, 0xff, 0xff, 0xff, 0x20, 0x00, 0x00, 0x00, 0x4e, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x15, 0x00,
    0x00, 0x0a, 0x00, 0x01, 0x00, 0x76, 0x65, 0x74, 0x68, 0x30, 0x00, 0x00, 0x00])
LINKSTATE_VETH = bytes([
    0x34, 0x00, 0x00, 0x00, 0x15, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0xea,
    0x3b, 0x00, 0x00, 0x06, 0x01, 0x00, 0x00, 0x18, 0x00, 0x01, 0x80, 0x08, 0x00,
    0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x02, 0x00, 0x76, 0x65, 0x74,
    0x68, 0x30, 0x00, 0x00, 0x00, 0x05, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00])
LINKSTATE_ENODEV = bytes([
    0x38, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0xea, 0x3b,
    0x00, 0x00, 0xed, 0xff, 0xff, 0xff, 0x24, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
    0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x01, 0x00, 0x00, 0x10, 0x00,
    0x01, 0x80, 0x0c, 0x00, 0x02, 0x00, 0x6e, 0x6f, 0x73, 0x75, 0x63, 0x68, 0x30, 0x00])


class Writer:
    def __init__(self):
        self.counts = {}

    def put(self, target, name, data):
        if isinstance(data, str):
            data = data.encode()
        directory = CORPUS / target
        directory.mkdir(parents=True, exist_ok=True)
        (directory / f"seed-{name}").write_bytes(data)
        self.counts[target] = self.counts.get(target, 0) + 1


def clean():
    for directory in CORPUS.glob("*"):
        for f in directory.glob("seed-*"):
            f.unlink()


def kernel_files(pattern):
    return sorted(FIXTURES.glob(f"*/kernel/{pattern}"))


def short_name(path):
    # tests/fixtures/mlx5-roce/kernel/ethtool/ens1f0np0/stats -> mlx5-roce-ens1f0np0-stats
    rel = path.relative_to(FIXTURES).parts
    return "-".join([rel[0]] + list(rel[3:]))


def optics(w, writer_tool):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([writer_tool, tmp], check=True, stdout=subprocess.DEVNULL)
        for f in sorted(pathlib.Path(tmp).iterdir()):
            data = f.read_bytes()
            if f.suffix == ".bin":
                w.put("optics_raw", f.name, data)
                # A truncated read: the lower page and half of the next.
                w.put("optics_raw", f.stem + "-truncated.bin", data[:192])
            else:
                w.put("optics_hex", f.name, data)
                w.put("optics_pages", f.stem + ".pages", pages_records(data.decode()))
                w.put("optics_hex", f.stem + "-flat.hex", flat_hex(f.with_suffix(".bin").read_bytes()))
    # The ioctl answers of the fixtures: struct ethtool_eeprom (16 bytes), then the data.
    for f in kernel_files("ethtool/*/module_eeprom.*"):
        w.put("optics_raw", short_name(f), f.read_bytes()[16:])


def flat_hex(raw):
    """`ethtool -m DEV hex on` without pages: offsets into the flat raw layout."""
    lines = ["Offset\t\tValues", "------\t\t------"]
    for at in range(0, len(raw), 16):
        lines.append(f"0x{at:04x}:\t\t" + " ".join(f"{b:02x}" for b in raw[at:at + 16]))
    return "\n".join(lines) + "\n"


def pages_records(hex_dump):
    """A paged hex dump as optics_pages_fuzz records {kind, i2c, bank, page, length, bytes}."""
    halves = {}
    i2c, bank, page = 0x50, 0, 0
    for line in hex_dump.splitlines():
        line = line.strip()
        if line.startswith("I2C Address:"):
            i2c = int(line.split(":")[1], 16)
        elif line.startswith("Bank:"):
            bank = int(line.split(":")[1], 16)
        elif line.startswith("Page:"):
            page = int(line.split(":")[1], 16)
        elif line.startswith("0x"):
            offset_text, values = line.split(":", 1)
            offset = int(offset_text, 16)
            key = (0 if offset < 128 else 1, i2c, bank, page if offset >= 128 else 0)
            halves.setdefault(key, bytearray()).extend(bytes.fromhex(values))
    out = bytearray()
    for (kind, i2c, bank, page), data in sorted(halves.items()):
        data = bytes(data[:128])
        out += bytes([kind, i2c, bank, page, len(data)]) + data
    return bytes(out)


def netlink(w):
    for f in kernel_files("dcbnl/*/*"):
        w.put("dcbnl", short_name(f), f.read_bytes())
        w.put("netlink", short_name(f), f.read_bytes())
    w.put("dcbnl", "veth-eopnotsupp", DCBNL_VETH_EOPNOTSUPP)
    seen = set()
    for f in kernel_files("ethtool-netlink/*/*"):
        kind = f.name.split(".")[0]
        data = f.read_bytes()
        w.put("ethtool_netlink", short_name(f), data)
        if kind not in seen:  # one of each kind is enough for the generic walker
            seen.add(kind)
            w.put("netlink", short_name(f), data)
    for name, data in [("veth-linkstate", LINKSTATE_VETH), ("enodev", LINKSTATE_ENODEV),
                       ("getfamily", genl_family_reply()),
                       ("extack", error_reply(22, LINKSTATE_VETH[:16], "invalid flags"))]:
        w.put("ethtool_netlink", name, data)
        w.put("netlink", name, data)
    w.put("dcbnl", "extack-einval", error_reply(22, DCBNL_VETH_EOPNOTSUPP[20:], "bad request"))


# ETHTOOL_MSG_FEC_GET replies laid out as net/ethtool/fec.c and bitset.c build them
# (ethtool_netlink.h; the histogram attributes from ethtool_netlink_generated.h, 6.18).
ETHTOOL_MSG_FEC_GET_REPLY = 29
NLA_F_NESTED = 0x8000
FEC_RS, FEC_BASER, FEC_OFF, FEC_LLRS = 50, 51, 49, 74


def fec_reply(modes, fec_auto, active, stats=None, hist=(), compact=False, ifname=b"ens1f0np0"):
    header = nla(1 | NLA_F_NESTED, nla(1, struct.pack("<I", 4)) + nla(2, ifname + b"\0"))
    nbits = 121
    if compact:
        words = [0] * ((nbits + 31) // 32)
        for bit in modes:
            words[bit // 32] |= 1 << (bit % 32)
        body = nla(3, struct.pack(f"<{len(words)}I", *words))
    else:
        bits = b"".join(nla(1 | NLA_F_NESTED, nla(1, struct.pack("<I", b)) + nla(2, b"RS\0"))
                        for b in modes)
        body = nla(3 | NLA_F_NESTED, bits)
    bitset = nla(2 | NLA_F_NESTED, nla(1, b"") + nla(2, struct.pack("<I", nbits)) + body)
    attrs = header + bitset + nla(3, bytes([fec_auto]))
    if active:
        attrs += nla(4, struct.pack("<I", active))
    if stats is not None:
        inner = b""
        for attr, values in zip((2, 3, 4), stats):
            inner += nla(attr, struct.pack(f"<{len(values)}Q", *values))
        for low, high, value, lanes in hist:
            b = nla(2, struct.pack("<I", low)) + nla(3, struct.pack("<I", high))
            b += nla(4, struct.pack("<I", value) if value < 2**32 else struct.pack("<Q", value))
            if lanes:
                b += nla(5, struct.pack(f"<{len(lanes)}Q", *lanes))
            inner += nla(5 | NLA_F_NESTED, b)
        attrs += nla(5 | NLA_F_NESTED, inner)
    return nlmsg(21, struct.pack("<BBH", ETHTOOL_MSG_FEC_GET_REPLY, 1, 0) + attrs)


def ethtool_fec(w):
    for f in kernel_files("ethtool-netlink/*/fec"):
        w.put("ethtool_fec", short_name(f), f.read_bytes())
    w.put("ethtool_fec", "rs-auto-no-stats", fec_reply([FEC_RS, FEC_BASER], 1, FEC_RS))
    w.put("ethtool_fec", "baser-lanes", fec_reply(
        [FEC_BASER], 0, FEC_BASER, stats=([1316, 1234, 5, 0, 77], [9], [])))
    w.put("ethtool_fec", "compact-off-llrs", fec_reply([FEC_OFF, FEC_LLRS], 0, FEC_LLRS, compact=True))
    w.put("ethtool_fec", "histogram", fec_reply(
        [FEC_RS], 0, FEC_RS, stats=([123], [4], []),
        hist=[(0, 0, 445, [125, 120, 100, 100]), (1, 3, 12, []), (4, 7, 2**32 + 2, [])]))
    w.put("ethtool_fec", "eopnotsupp", error_reply(95, LINKSTATE_VETH[:16]))


# RDMA netlink (include/uapi/rdma/rdma_netlink.h; nldev.c builds the replies).
RDMA_NLDEV = 5
NLDEV_STAT_GET, NLDEV_STAT_GET_STATUS, NLDEV_RES_GET, NLDEV_GET = 17, 24, 9, 1
NLDEV_DEV_INDEX, NLDEV_DEV_NAME, NLDEV_PORT_INDEX = 1, 2, 3
NLDEV_HWCOUNTERS, NLDEV_HWCOUNTER_ENTRY, NLDEV_ENTRY_NAME, NLDEV_ENTRY_VALUE = 80, 81, 82, 83
NLDEV_HWCOUNTER_INDEX, NLDEV_HWCOUNTER_DYNAMIC = 94, 95
NLDEV_STAT_MODE, NLDEV_STAT_COUNTER, NLDEV_STAT_COUNTER_ENTRY, NLDEV_STAT_COUNTER_ID = 74, 77, 78, 79
NLDEV_RES_SUMMARY, NLDEV_RES_SUMMARY_ENTRY, NLDEV_RES_NAME, NLDEV_RES_CURR = 15, 16, 17, 18
NLDEV_RES_QP, NLDEV_RES_QP_ENTRY, NLDEV_RES_LQPN, NLDEV_RES_PID = 19, 20, 21, 28
NLMSG_DONE = 3


def nldev_type(cmd):
    return (RDMA_NLDEV << 10) + cmd


def nldev_handle(index=2, name="mlx5_0"):
    return nla(NLDEV_DEV_INDEX, struct.pack("<I", index)) + nla(NLDEV_DEV_NAME, name.encode() + b"\0")


def nldev_counters(counters):
    entries = b"".join(nla(NLDEV_HWCOUNTER_ENTRY, nla(NLDEV_ENTRY_NAME, n.encode() + b"\0")
                           + nla(NLDEV_ENTRY_VALUE, struct.pack("<Q", v))) for n, v in counters)
    return nla(NLDEV_HWCOUNTERS | NLA_F_NESTED, entries)


def rdma_netlink(w):
    port = nla(NLDEV_PORT_INDEX, struct.pack("<I", 1))
    w.put("rdma_netlink", "stat-get", nlmsg(nldev_type(NLDEV_STAT_GET), nldev_handle() + port + nldev_counters(
        [("rx_write_requests", 12), ("out_of_buffer", 0), ("cc_rx_ce_pkts", 2**64 - 1)])))
    optional = b"".join(nla(NLDEV_HWCOUNTER_ENTRY | NLA_F_NESTED, nla(NLDEV_ENTRY_NAME, n.encode() + b"\0")
                            + nla(NLDEV_HWCOUNTER_INDEX, struct.pack("<I", i))
                            + nla(NLDEV_HWCOUNTER_DYNAMIC, bytes([e])))
                        for n, i, e in [("cc_rx_ce_pkts", 40, 1), ("cc_tx_cnp_pkts", 42, 0)])
    w.put("rdma_netlink", "stat-status", nlmsg(nldev_type(NLDEV_STAT_GET_STATUS), nldev_handle() + port
                                               + nla(NLDEV_HWCOUNTERS | NLA_F_NESTED, optional)))
    w.put("rdma_netlink", "qp-mode-auto", nlmsg(nldev_type(NLDEV_STAT_GET), nldev_handle() + port
                                                + nla(NLDEV_STAT_MODE, struct.pack("<I", 1))
                                                + nla(76, struct.pack("<I", 1))))
    qps = nla(NLDEV_RES_QP | NLA_F_NESTED, b"".join(
        nla(NLDEV_RES_QP_ENTRY | NLA_F_NESTED, nla(NLDEV_RES_LQPN, struct.pack("<I", q))) for q in (421, 422)))
    entry = (port + nla(NLDEV_STAT_COUNTER_ID, struct.pack("<I", 4)) + nla(NLDEV_STAT_MODE, struct.pack("<I", 2))
             + nla(NLDEV_RES_PID, struct.pack("<I", 30489)) + qps + nldev_counters([("rx_write_requests", 100)]))
    w.put("rdma_netlink", "bound-dump", nlmsg(nldev_type(NLDEV_STAT_GET), nldev_handle() + nla(
        NLDEV_STAT_COUNTER, nla(NLDEV_STAT_COUNTER_ENTRY, entry)), flags=2) + nlmsg(NLMSG_DONE, b"\0" * 4, flags=2))
    summary = b"".join(nla(NLDEV_RES_SUMMARY_ENTRY, nla(NLDEV_RES_NAME, n.encode() + b"\0")
                           + nla(NLDEV_RES_CURR, struct.pack("<Q", c))) for n, c in [("pd", 3), ("qp", 9), ("mr", 44)])
    w.put("rdma_netlink", "res-summary", nlmsg(nldev_type(NLDEV_RES_GET), nldev_handle()
                                               + nla(NLDEV_RES_SUMMARY, summary)))
    w.put("rdma_netlink", "devices", nlmsg(nldev_type(NLDEV_GET), nldev_handle(0, "mlx5_0"), flags=2)
          + nlmsg(nldev_type(NLDEV_GET), nldev_handle(1, "mlx5_1"), flags=2) + nlmsg(NLMSG_DONE, b"\0" * 4, flags=2))
    w.put("rdma_netlink", "eprotonosupport", error_reply(93, nlmsg(nldev_type(NLDEV_STAT_GET), b"")[:16]))


def gstrings(names, string_set=1):
    data = struct.pack("<III", 0x1b, string_set, len(names))
    for n in names:
        data += n.encode()[:32].ljust(32, b"\0")
    return data


def gstats(values):
    return struct.pack("<II", 0x1d, len(values)) + b"".join(struct.pack("<Q", v) for v in values)


def decode_gstrings(data):
    count = struct.unpack_from("<I", data, 8)[0]
    return [data[12 + 32 * i:12 + 32 * (i + 1)].split(b"\0")[0].decode() for i in range(count)]


def ethtool(w):
    for kind in ["drvinfo", "link_settings", "sset_info.1"]:
        for f in kernel_files(f"ethtool/*/{kind}")[:2]:
            w.put("ethtool_ioctl", short_name(f), f.read_bytes())
    # GSTRINGS/GSTATS of mlx5 have ~1200 entries: keep the interesting ones (PFC, port, queue).
    for f in kernel_files("ethtool/*/strings.1")[:2]:
        names = decode_gstrings(f.read_bytes())
        stats = f.parent / "stats"
        values = list(struct.unpack_from(f"<{len(names)}Q", stats.read_bytes(), 8))
        keep = [i for i, n in enumerate(names)
                if "prio3" in n or n.endswith("_phy") or n.startswith(("rx0_", "tx0_", "ch0_"))][:64]
        sub_names = [names[i] for i in keep]
        sub_values = [values[i] for i in keep]
        w.put("ethtool_ioctl", short_name(f) + "-strings", gstrings(sub_names))
        w.put("ethtool_ioctl", short_name(f) + "-stats", gstats(sub_values))
        w.put("ethtool_ioctl", short_name(f) + "-named",
              gstrings(sub_names) + b"\xff\xfeSTATS" + gstats(sub_values))
        w.put("ethtool_classify", short_name(f),
              "\n".join(sub_names).encode() + b"\n--values--\n"
              + b"".join(struct.pack("<Q", v) for v in sub_values))
    # Names from the mlx5 table of the unit tests, without values.
    table = (ROOT / "tests" / "exporter" / "netlink" / "mlx5_ethtool_strings.txt").read_text().split()
    for at in range(0, 400, 100):
        w.put("ethtool_classify", f"mlx5-table-{at}", "\n".join(table[at:at + 100]))
    w.put("ethtool_classify", "other-drivers",
          "rx_pause_ctrl_phy\ntx_pause_ctrl_phy\nrx_prio0_pause\nrx_pfc_frames_prio0\n"
          "tx_queue_0_packets\nrx_queue_12_bytes\nrx_xsk_packets\nptp_tx0_packets\n"
          "link_down_events_phy\nmodule_unplug\nrx_prio7_pause_duration\n")


SYSFS_VALUES = [
    ("state", "4: ACTIVE\n"), ("phys_state", "5: LinkUp\n"), ("phys-disabled", "3: Disabled\n"),
    ("rate", "400 Gb/sec (4X NDR)\n"), ("rate-sdr", "2.5 Gb/sec (1X SDR)\n"),
    ("rate-mb", "10 Mb/sec\n"), ("counter", "18446744073709551615\n"), ("counter-na", "N/A (no PMA)\n"),
    ("pcie-speed", "32.0 GT/s PCIe\n"), ("pcie-speed-old", "2.5 GT/s\n"),
    ("pcie-unknown", "Unknown speed\n"), ("width", "16\n"), ("width-unknown", "255\n"),
    ("gid", "fe80:0000:0000:0000:966d:aeff:feb1:2c3a\n"),
    ("gid-v4", "0000:0000:0000:0000:0000:ffff:0a01:000b\n"), ("gid-type", "RoCE v2\n"),
    ("lid", "0x1a\n"), ("roce-mode", "IB/RoCE v1\n"), ("operstate", "lowerlayerdown\n"),
    ("speed", "400000\n"), ("speed-down", "-1\n"),
]


def sysfs(w):
    for name, text in SYSFS_VALUES:
        w.put("sysfs_values", name, text)


def lint_inputs(w):
    w.put("plan", "example-plan.json", (ROOT / "lint" / "plan" / "example-plan.json").read_bytes())
    for f in sorted((ROOT / "tests" / "lint" / "data" / "schema").glob("*/*.json")):
        w.put("plan", f"{f.parent.name}-{f.name}", f.read_bytes())
    data = ROOT / "tests" / "lint" / "data"
    w.put("csv_import", "nics.csv", (data / "nics.csv").read_bytes())
    w.put("csv_import", "nics-with-profiles.csv",
          (data / "nics.csv").read_bytes() + b"\n==profiles==\n" + (data / "profiles.json").read_bytes())
    w.put("csv_import", "quoted.csv",
          'node,roce_ip,ib_dev,netdev,profile\r\n"gpu-01","10.1.0.11/24",mlx5_0,"ens1""f0",roce-400g\r\n'
          '"gpu-02","fd00:1::12/64",mlx5_0,"multi\nline",roce-400g\r\n')

    golden = sorted((ROOT / "tests" / "e2e" / "golden").glob("*.prom"))
    for f in golden:
        lines = f.read_text().splitlines(keepends=True)
        for part, at in enumerate(range(0, min(len(lines), 360), 60)):
            w.put("exposition", f"{f.stem}-{part}.prom", "".join(lines[at:at + 60]))
    w.put("exposition", "edge-cases.prom",
          '# HELP x_total Escapes \\\\ and \\n in help.\n# TYPE x_total counter\n'
          'x_total{a="quote\\"",b="back\\\\slash",c="new\\nline"} 1.5e+06 1700000000000\n'
          'x_total NaN\ny{le="+Inf"} +Inf\ny{le="-1"} -Inf\n# TYPE h histogram\n'
          'h_bucket{le="0.1"} 1\nh_sum 0.05\nh_count 1\nx_total 2\nbad line\n')

    # Prometheus answers built from the golden samples, one instance each.
    for f in golden[:2]:
        result = []
        for line in f.read_text().splitlines():
            if line.startswith("#") or "{" not in line or len(result) >= 24:
                continue
            name, rest = line.split("{", 1)
            labels_text, value = rest.rsplit("} ", 1)
            metric = {"__name__": name, "instance": f"{f.stem}:9879", "job": "roce"}
            for pair in labels_text.split('",'):
                if "=" in pair:
                    key, val = pair.split("=", 1)
                    metric[key] = val.strip('"')
            result.append({"metric": metric, "value": [1700000000.123, value]})
        w.put("prometheus_answer", f"{f.stem}.json", json.dumps(
            {"status": "success", "data": {"resultType": "vector", "result": result}}))
    w.put("prometheus_answer", "error.json",
          '{"status":"error","errorType":"bad_data","error":"parse error at char 3"}')
    w.put("prometheus_answer", "matrix.json", '{"status":"success","data":{"resultType":"matrix","result":[]}}')
    # A range query's raw samples around a counter window ending at 1700000000 (a reset, a new
    # series, one out of order), as roce-lint reads the series that may have been reset.
    w.put("prometheus_answer", "matrix-window.json", json.dumps({"status": "success", "data": {
        "resultType": "matrix", "result": [
            {"metric": {"__name__": "c_total", "instance": "a:1", "p": "3"},
             "values": [[1699999650, "90"], [1699999700, "100"], [1699999900, "5"], [1700000000, "9"]]},
            {"metric": {"instance": "a:1", "p": "0"}, "values": [[1700000000, "1500"], [1699999800, "1"]]},
            {"metric": {"instance": "b:1"}, "values": [[1699999990, "+Inf"], [1700000000, "7"]]}]}}))
    w.put("prometheus_answer", "escapes.json", json.dumps({"status": "success", "data": {
        "resultType": "vector", "result": [
            {"metric": {"__name__": "roce_x", "instance": "a:1", "l": "q\"b\\n\n"}, "value": [1, "NaN"]},
            {"metric": {"__name__": "roce_y", "instance": "a:1"}, "value": [1, "+Inf"]},
            {"metric": {"instance": "b:1"}, "value": [1, "1"]}]}}))


def motion(w):
    w.put("motion", "fixture.json", json.dumps({
        "version": 1,
        "sysfs": {"class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent": 1200,
                  "class/infiniband/mlx5_0/ports/1/counters/port_xmit_data": 2.5e9},
        "ethtool": {"ens1f0np0": {"rx_prio3_pause": 150, "tx_pause_storm_warning_events": 0.2}}},
        indent=1))
    w.put("motion", "demo-ethtool-only.json", json.dumps({
        "version": 1, "ethtool": {"ens2f0np0": {"rx_discards_phy": 3, "tx_prio3_pause": 25}}}))
    w.put("motion", "missing-path.json", json.dumps({
        "version": 1, "sysfs": {"class/net/nosuch/statistics/rx_bytes": 1}}))


def capture_metadata(w):
    for fixture in ("mlx5-roce", "mlx5-ib", "empty"):
        w.put("capture_metadata", f"fixture-{fixture}.json",
              (ROOT / "tests/fixtures" / fixture / "capture.json").read_bytes())
    w.put("capture_metadata", "captured.json", json.dumps({
        "format": "rocewatch-capture", "version": 1, "hostname": "gpu-node-42",
        "kernel": "6.8.0-60-generic", "created_by": "roce_exporter capture 0.1.0 (abc123)",
        "created_unix": 1796000000, "description": "", "collectors": ["rdma", "ethtool", "dcb"]}))
    w.put("capture_metadata", "newer-version.json", '{"format": "rocewatch-capture", "version": 2}')
    w.put("capture_metadata", "errno-eacces", "13 Permission denied\n")
    w.put("capture_metadata", "errno-eopnotsupp", "95 EOPNOTSUPP\n")


def dcbx(w):
    # IEEE 802.1Qaz TLVs laid out from IEEE Std 802.1Q-2018 Annex D.2.9-D.2.12: the subtype byte,
    # then the information string (lldp_dcbx_fuzz.cpp's input form).
    pfc_p3 = bytes([0x08, 0x08])             # willing 0, MBC 0, PFC cap 8; PFC on priority 3
    pfc_willing = bytes([0xC8, 0x18])        # willing, MBC, cap 8; priorities 3 and 4
    app = bytes([0x00, 0x65, 0x00, 0x1A, 0xC5, 0x00, 0x30, 0x63, 0x12, 0xB7])  # DSCP 26->3, 48->6, UDP 4791->3
    ets = bytes([0x80, 0x00, 0x03, 0x00, 0x60]) + bytes([10, 0, 0, 60, 0, 0, 30, 0]) + bytes([2, 0, 0, 2, 0, 0, 2, 0])
    w.put("lldp_dcbx", "pfc-p3", bytes([11]) + pfc_p3)
    w.put("lldp_dcbx", "pfc-willing-mbc", bytes([11]) + pfc_willing)
    w.put("lldp_dcbx", "pfc-short", bytes([11, 0x08]))
    w.put("lldp_dcbx", "app-roce", bytes([12]) + app)
    w.put("lldp_dcbx", "app-empty", bytes([12, 0x00]))
    w.put("lldp_dcbx", "app-partial-entry", bytes([12]) + app[:-1])
    w.put("lldp_dcbx", "ets-configuration", bytes([9]) + ets)
    w.put("lldp_dcbx", "ets-recommendation", bytes([10, 0x00]) + ets[1:])
    w.put("lldp_dcbx", "ets-long", bytes([9]) + ets + b"\x00")
    w.put("lldp_dcbx", "hex-text", b"\x0b08,08")


def small_ones(w):
    for i, text in enumerate(["500ms", "30s", "5m", "1h", "1h30m", "2d", "1.5h", "0s", "10"]):
        w.put("duration", f"{i}-{text}", text)
    argvs = [
        ["--web.listen-address=:9100", "--no-collector.optics", "serve"],
        ["--web.timeout", "15s", "--path.sysfs=/host/sys", "--log.json", "extra", "args"],
        ["--web.listen-adress=:1", "--help"],
        ["--collector.optics=false", "--", "--not-a-flag"],
    ]
    for i, argv in enumerate(argvs):
        w.put("flags", f"argv-{i}", "\0".join(argv))


def web_configs(w):
    # --web.config.file: the packaged example, every YAML example of the docs that is a web
    # config, and the shapes the unit tests parse (tests/http/web_config_test.cpp).
    w.put("web_config", "packaging-example", (ROOT / "packaging" / "web-config.example.yml").read_text())
    for doc in ("security.md", "operations.md"):
        text = (ROOT / "docs" / doc).read_text()
        for i, block in enumerate(re.findall(r"```ya?ml\n(.*?)```", text, re.S)):
            if "tls_server_config" in block or "basic_auth_users" in block or "http_server_config" in block:
                w.put("web_config", f"{doc[:-3]}-{i}", block)
    bcrypt = "$2b$04$FIWYvvElPBNBO.3aY1CaruBowNhi4n1DmfpzJKGLUJFSmk8q/9cP."
    w.put("web_config", "empty", "")
    w.put("web_config", "users", f"basic_auth_users:\n  alice: {bcrypt}\n  bob: '{bcrypt}'\n")
    w.put("web_config", "no-users", "basic_auth_users: {}\n")
    w.put("web_config", "full",
          "tls_server_config:\n  cert_file: server.crt\n  key_file: /abs/server.key\n"
          "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n"
          "  client_allowed_sans: [prometheus.example.com, 10.0.0.1]\n"
          "  min_version: TLS12\n  max_version: TLS13\n"
          "  cipher_suites: [TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]\n"
          "  prefer_server_cipher_suites: false\n  curve_preferences: [X25519, CurveP256]\n"
          "http_server_config:\n  http2: false\n  headers:\n"
          "    Strict-Transport-Security: max-age=31536000\n    X-Frame-Options: deny\n"
          f"basic_auth_users:\n  alice: {bcrypt}\n")
    w.put("web_config", "inline-pem",
          "tls_server_config:\n  cert: |\n    -----BEGIN CERTIFICATE-----\n    MIIB\n"
          "    -----END CERTIFICATE-----\n  key: |\n    -----BEGIN PRIVATE KEY-----\n"
          "    MIIE\n    -----END PRIVATE KEY-----\n")
    w.put("web_config", "anchors", "a: &x {b: 1}\nbasic_auth_users: *x\n")


def real_dumps(w):
    # The corpus of real dumps (tests/fixtures/real, README.md there): `ethtool -S` text for the
    # text parser and (names and values) for the classifier, `ethtool -m` hex for the hex parser.
    # Cut to the first 120 lines: seeds stay a few KiB.
    real = FIXTURES / "real"
    for f in sorted((real / "ethtool-S").glob("*.txt")):
        lines = f.read_text().splitlines()[:120]
        w.put("ethtool_stats_text", f.stem, "\n".join(lines) + "\n")
        names, values = [], []
        for line in lines:
            line = line.lstrip(" \t")
            if ": " not in line or line == "NIC statistics:":
                continue
            name, value = line.rsplit(": ", 1)
            names.append(name)
            values.append(int(value))
        w.put("ethtool_classify", "real-" + f.stem,
              "\n".join(names).encode() + b"\n--values--\n"
              + b"".join(struct.pack("<Q", v) for v in values))
    for f in sorted((real / "ethtool-m").glob("*.txt")):
        w.put("optics_hex", "real-" + f.name, f.read_bytes())
    # /proc/PID/cgroup texts and cgroup paths of kubelets and slurmds (a path as its v2 line).
    for f in sorted((real / "cgroups").glob("*.txt")):
        w.put("cgroup_workload", "real-" + f.stem, f.read_bytes())
    for f in sorted((real / "cgroups").glob("*.path")):
        w.put("cgroup_workload", "real-" + f.stem, b"0::" + f.read_bytes())
    # OCI bundles' pod annotations as users posted them, as a config.json's member (the
    # annotations object cut out as tests/exporter/oci_bundle_pod_test.cpp cuts it).
    for f in sorted((real / "oci-bundles").glob("*.txt")):
        lines = f.read_text().splitlines()
        start = next(i for i, l in enumerate(lines) if l.rstrip().endswith("{") and "$" not in l)
        body = [l for l in lines[start + 1:] if l.strip() != "..."]
        end = next(i for i, l in enumerate(body) if l.strip().startswith("}"))
        w.put("oci_bundle_pod", "real-" + f.stem,
              '{"annotations": {\n' + "\n".join(body[:end]) + "\n}}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--optics-writer", required=True, help="path of optics_image_writer")
    args = parser.parse_args()
    clean()
    w = Writer()
    optics(w, args.optics_writer)
    netlink(w)
    ethtool_fec(w)
    rdma_netlink(w)
    ethtool(w)
    real_dumps(w)
    sysfs(w)
    lint_inputs(w)
    motion(w)
    capture_metadata(w)
    dcbx(w)
    small_ones(w)
    web_configs(w)
    for target, count in sorted(w.counts.items()):
        print(f"{target}: {count} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
