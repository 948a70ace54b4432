#!/usr/bin/env python3
"""node_exporter parity on public data (issue 12).

Runs Debian's prometheus-node-exporter (infiniband collector only) and roce_exporter on
the same sysfs tree and compares value by value: every node_infiniband_* sample must
have a roce_* sample for the same device and port with the same value (node_exporter's
data counters are already x4, as ours are), and node_infiniband_info's labels must match
roce_device_info's. Fails when node_exporter knows a value we lack, when a value differs,
when node_exporter serves a family this table does not map, or when roce_exporter counts
a vanished device. Prints "parity: M/N values".

    node_exporter_parity_test.py --exporter BIN --node-exporter BIN --sysfs DIR [--expect N]
"""

import argparse
import http.client
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_process import Exporter, ReadyServer, free_port  # noqa: E402

# node_infiniband_<name> -> (our family, extra labels). One table; counters/ files without a
# family of their own are roce_port_stat_total{counter="<file name>"}.
STAT = "roce_port_stat_total"
NAMES = {
    "port_data_received_bytes_total": ("roce_port_received_bytes_total", {}),
    "port_data_transmitted_bytes_total": ("roce_port_transmitted_bytes_total", {}),
    "port_packets_received_total": ("roce_port_received_packets_total", {}),
    "port_packets_transmitted_total": ("roce_port_transmitted_packets_total", {}),
    "state_id": ("roce_port_state", {}),
    "physical_state_id": ("roce_port_physical_state", {}),
    "rate_bytes_per_second": ("roce_port_rate_bytes_per_second", {}),
    "excessive_buffer_overrun_errors_total": (STAT, {"counter": "excessive_buffer_overrun_errors"}),
    "link_downed_total": (STAT, {"counter": "link_downed"}),
    "link_error_recovery_total": (STAT, {"counter": "link_error_recovery"}),
    "local_link_integrity_errors_total": (STAT, {"counter": "local_link_integrity_errors"}),
    "multicast_packets_received_total": (STAT, {"counter": "multicast_rcv_packets"}),
    "multicast_packets_transmitted_total": (STAT, {"counter": "multicast_xmit_packets"}),
    "port_constraint_errors_received_total": (STAT, {"counter": "port_rcv_constraint_errors"}),
    "port_constraint_errors_transmitted_total": (STAT, {"counter": "port_xmit_constraint_errors"}),
    "port_discards_received_total": (STAT, {"counter": "port_rcv_discards"}),
    "port_discards_transmitted_total": (STAT, {"counter": "port_xmit_discards"}),
    "port_errors_received_total": (STAT, {"counter": "port_rcv_errors"}),
    "port_receive_remote_physical_errors_total": (STAT, {"counter": "port_rcv_remote_physical_errors"}),
    "port_receive_switch_relay_errors_total": (STAT, {"counter": "port_rcv_switch_relay_errors"}),
    "port_transmit_wait_total": (STAT, {"counter": "port_xmit_wait"}),
    "symbol_error_total": (STAT, {"counter": "symbol_error"}),
    "unicast_packets_received_total": (STAT, {"counter": "unicast_rcv_packets"}),
    "unicast_packets_transmitted_total": (STAT, {"counter": "unicast_xmit_packets"}),
    "vl15_dropped_total": (STAT, {"counter": "VL15_dropped"}),
}
# node_infiniband_info label -> roce_device_info label.
INFO_LABELS = {"board_id": "board_id", "firmware_version": "fw_version", "hca_type": "hca_type"}

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse(text):
    """[(name, {labels}, value)] of an exposition text."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError(f"unparsable sample line: {line!r}")
        labels = dict(LABEL.findall(m.group(2) or ""))
        out.append((m.group(1), labels, float(m.group(3))))
    return out


def get(port, path="/metrics", timeout=10.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read().decode()
            conn.close()
            if resp.status == 200:
                return body
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"nothing answers on 127.0.0.1:{port}")
        time.sleep(0.1)


def node_exporter_metrics(binary, sysfs):
    port = free_port()
    with ReadyServer([binary, f"--path.sysfs={sysfs}", "--collector.disable-defaults",
                      "--collector.infiniband", f"--web.listen-address=127.0.0.1:{port}"],
                     port, what="node_exporter"):
        return get(port)


def compare(theirs, ours):
    """(matched, total, failures) over node_exporter's node_infiniband_* values."""
    index = {}
    for name, labels, value in ours:
        index[(name, tuple(sorted(labels.items())))] = value
    info = {s[1]["device"]: s[1] for s in ours if s[0] == "roce_device_info"}
    matched, total, failures = 0, 0, []
    for name, labels, value in theirs:
        if not name.startswith("node_infiniband_"):
            continue
        short = name[len("node_infiniband_"):]
        if short == "info":
            mine = info.get(labels.get("device"))
            if mine is None:
                failures.append(f"roce_device_info lacks device {labels.get('device')}")
                continue
            for theirs_label, our_label in INFO_LABELS.items():
                if labels.get(theirs_label, "") != mine.get(our_label, ""):
                    failures.append(f"{labels['device']}: {theirs_label} {labels.get(theirs_label)!r} "
                                    f"!= our {our_label} {mine.get(our_label)!r}")
            continue
        total += 1
        if short not in NAMES:
            failures.append(f"node_exporter serves {name}, which the parity table does not map")
            continue
        family, extra = NAMES[short]
        key_labels = {"device": labels["device"], "port": labels["port"], **extra}
        key = (family, tuple(sorted(key_labels.items())))
        if key not in index:
            failures.append(f"{name}{labels} = {value:g}: roce_exporter lacks {family}{key_labels}")
        elif index[key] != value:
            failures.append(f"{name}{labels} = {value:g}, roce_exporter {family}{key_labels} = {index[key]:g}")
        else:
            matched += 1
    return matched, total, failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--node-exporter", default="/usr/bin/prometheus-node-exporter")
    ap.add_argument("--sysfs", required=True)
    ap.add_argument("--expect", type=int, help="node_exporter values the tree must yield")
    args = ap.parse_args()
    if not os.access(args.node_exporter, os.X_OK):
        print(f"SKIP: {args.node_exporter} is not installed")
        return 77
    theirs = parse(node_exporter_metrics(args.node_exporter, args.sysfs))
    # node_exporter serves every counters/ (and hw_counters/) file; ours serves the
    # unicast/multicast split, the InfiniBand-fabric counters of Ethernet ports and mlx5's
    # detail hw_counters with these flags (docs/metrics.md "Default and opt-in series").
    with Exporter(args.exporter, [f"--path.sysfs={args.sysfs}", "--path.configfs=/nonexistent",
                                  "--path.debugfs=/nonexistent",
                                  "--collector.rdma.all-port-counters=true",
                                  "--collector.rdma.all-hw-counters=true"]) as exp:
        status, body = exp.get("/metrics")
    if status != 200:
        sys.exit(f"roce_exporter answered {status}")
    ours = parse(body)
    matched, total, failures = compare(theirs, ours)
    for name, labels, value in ours:
        if name == "roce_exporter_vanished_total" and value != 0:
            failures.append(f"roce_exporter counts vanished objects: {name}{labels} = {value:g}")
    if args.expect is not None and total != args.expect:
        failures.append(f"node_exporter served {total} values, expected {args.expect}")
    if total == 0:
        failures.append("node_exporter served no node_infiniband_* value: nothing was compared")
    print(f"parity: {matched}/{total} values")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
