#!/usr/bin/env python3
"""Series per NIC and scrape time per driver, on trees made from the real `ethtool -S` dumps.

Each tree is a copy of a replayed node (default tests/fixtures/mlx5-roce: 4 RoCE NICs) whose
netdevs' ethtool answers are one real dump of a driver, converted by `roce_exporter convert
ethtool-S --driver DRIVER` (so GDRVINFO names that driver and the exporter picks its table),
the way issue 41 replayed the Broadcom and Intel dumps. For each tree the real exporter is
started with the default flags, scraped SCRAPES times, and the script prints: series per NIC
(all series / RDMA devices), the ethtool collector's series per NIC, the unclassified names
per netdev, and the scrape time (median and max of the wall time of GET /metrics). It prints;
it asserts nothing (timings depend on the machine).

    bench/driver_trees.py --build build [--scrapes 50] [--node tests/fixtures/mlx5-roce]
"""

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from exporter_process import Exporter  # noqa: E402

CORPUS = ROOT / "tests" / "fixtures" / "real" / "ethtool-S"
# The driver `ethtool -i` named for each dump, by the file's prefix (PROVENANCE.md).
DRIVERS = {"mlx5-": "mlx5_core", "ice-": "ice", "bnxt-": "bnxt_en", "ionic-": "ionic"}
NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
ETHTOOL = re.compile(r"^roce_(ethtool_|pfc_|priority_)")


def driver_of(dump):
    for prefix, driver in DRIVERS.items():
        if dump.name.startswith(prefix):
            return driver
    return None


def make_tree(binary, node, dump, driver, out):
    shutil.copytree(node, out, symlinks=True)
    netdevs = sorted(p.name for p in (out / "kernel" / "ethtool").iterdir() if p.is_dir())
    for netdev in netdevs:
        for stale in ("sset_info.1", "strings.1", "stats", "drvinfo"):
            (out / "kernel" / "ethtool" / netdev / stale).unlink(missing_ok=True)
        subprocess.run([binary, "convert", "ethtool-S", "--netdev", netdev, "--driver", driver,
                        str(dump), str(out)], check=True, capture_output=True)
    return len(netdevs)


def measure(binary, tree, scrapes):
    with Exporter(binary, ["--replay", str(tree)]) as exp:
        times = []
        body = ""
        for _ in range(scrapes):
            start = time.perf_counter()
            status, body = exp.get("/metrics")
            times.append(time.perf_counter() - start)
            if status != 200:
                sys.exit(f"{tree}: /metrics answered {status}")
    series = [line for line in body.splitlines() if line and not line.startswith("#")]
    names = [NAME.match(line).group(0) for line in series]
    nics = names.count("roce_device_info") or 1
    ethtool = sum(1 for n in names if ETHTOOL.match(n))
    unclassified = [float(line.rsplit(" ", 1)[1]) for line in series
                    if line.startswith("roce_exporter_unclassified_statistics")]
    return nics, len(series), ethtool, unclassified, times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, default=Path("build"))
    ap.add_argument("--node", type=Path, default=ROOT / "tests" / "fixtures" / "mlx5-roce")
    ap.add_argument("--scrapes", type=int, default=50)
    args = ap.parse_args()
    binary = str(args.build / "exporter" / "roce_exporter")
    print(f"{'tree':44} {'NICs':>4} {'series':>7} {'per NIC':>8} {'ethtool/NIC':>11} "
          f"{'unclassified':>12} {'median ms':>9} {'max ms':>7}")
    with tempfile.TemporaryDirectory(prefix="rocewatch-driver-trees-") as tmp:
        trees = [(f"{args.node.name} (as captured)", args.node)]
        for dump in sorted(CORPUS.glob("*.txt")):
            driver = driver_of(dump)
            if driver is None:
                continue
            tree = Path(tmp) / dump.stem
            make_tree(binary, args.node, dump, driver, tree)
            trees.append((f"{dump.stem} ({driver})", tree))
        for label, tree in trees:
            nics, series, ethtool, unclassified, times = measure(binary, tree, args.scrapes)
            uncl = "/".join(f"{u:g}" for u in sorted(set(unclassified))) or "-"
            print(f"{label:44} {nics:4d} {series:7d} {series / nics:8.1f} {ethtool / nics:11.1f} "
                  f"{uncl:>12} {statistics.median(times) * 1e3:9.2f} {max(times) * 1e3:7.2f}")


if __name__ == "__main__":
    main()
