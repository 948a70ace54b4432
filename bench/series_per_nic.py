#!/usr/bin/env python3
"""Series per RoCE NIC: starts the real roce_exporter on replayed nodes, once with the default
flags and once with every detail option on (FULL below), scrapes /metrics once each and prints
the series, the bytes, the series per NIC (all series / RDMA devices, the node's own
roce_exporter_* series included), the node's own series apart (a fixed count per node, not per
NIC), the default series per NIC without them, and the per-NIC figure the same node would have
with 8 such NICs; with --families, the series per NIC of every family.

    bench/series_per_nic.py --build build tests/fixtures/mlx5-roce /tmp/rocewatch-bench/n8 [--families]
"""

import argparse
import collections
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "e2e"))
from exporter_process import Exporter  # noqa: E402

# Every opt-in detail option (docs/metrics.md "Default and opt-in series"); exporter_detail_options_test
# fails when `roce_exporter --help` has one this list lacks.
FULL = ["--collector.dcb.full-tables=true", "--collector.ethtool.all-priorities=true",
        "--collector.ethtool.all-port-stats=true", "--collector.ecn.all-priorities=true",
        "--collector.ecn.all-sources=true", "--collector.optics.all-flags=true",
        "--collector.optics.all-thresholds=true", "--collector.rdma.all-hw-counters=true",
        "--collector.rdma.all-port-counters=true", "--collector.rdma.all-gids=true",
        "--collector.netdev.repeats=true", "--collector.ethtool_netlink.repeats=true",
        "--collector.lldp.full-tables=true", "--collector.rdma.per-process=true",
        "--collector.rdma.per-job=true"]
# Options that default to false but choose no series: exporter_detail_options_test compares
# FULL with `roce_exporter --help`'s false-by-default options less these.
NOT_DETAIL = {"--collector.rdma_cm.create-groups": "creates configfs groups (an action, not series)"}
NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")


def families(body):
    out = collections.Counter()
    for line in body.splitlines():
        if line and not line.startswith("#"):
            out[NAME.match(line).group(0)] += 1
    return out


def scrape(binary, node, extra):
    with Exporter(binary, ["--replay", str(node), *extra]) as exp:
        status, body = exp.get("/metrics")
    if status != 200:
        sys.exit(f"{node}: /metrics answered {status}")
    return body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, default=Path("build"))
    ap.add_argument("--families", action="store_true", help="also print series per NIC per family")
    ap.add_argument("nodes", nargs="+", type=Path, help="capture directories")
    args = ap.parse_args()
    binary = str(args.build / "exporter" / "roce_exporter")
    print(f"{'node':36} {'NICs':>4} {'default':>8} {'per NIC':>8} {'bytes':>8} "
          f"{'full':>8} {'per NIC':>8} {'bytes':>8}   {'own':>4} {'NIC only':>8} {'8 NICs':>7}")
    for node in args.nodes:
        default = scrape(binary, node, [])
        full = scrape(binary, node, FULL)
        fd, ff = families(default), families(full)
        nics = fd.get("roce_device_info", 0) or 1
        sd, sf = sum(fd.values()), sum(ff.values())
        # The exporter's own series (roce_exporter_*) are the node's, whatever its NIC count:
        # "own" counts them, "NIC only" is the rest per NIC, "8 NICs" the all-series figure of
        # the same node with 8 such NICs (a GPU node: one RoCE NIC per GPU).
        own = sum(v for k, v in fd.items() if k.startswith("roce_exporter_"))
        nic_only = (sd - own) / nics
        print(f"{str(node):36} {nics:4d} {sd:8d} {sd / nics:8.1f} {len(default):8d} "
              f"{sf:8d} {sf / nics:8.1f} {len(full):8d}   {own:4d} {nic_only:8.1f} "
              f"{nic_only + own / 8:7.1f}")
        if args.families:
            for name in sorted(ff, key=lambda n: (-ff[n], n)):
                print(f"    {name:58} {fd.get(name, 0) / nics:7.2f} {ff[name] / nics:7.2f}")


if __name__ == "__main__":
    main()
