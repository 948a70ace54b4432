#!/usr/bin/env python3
"""Series per NIC and scrape time per driver, on trees made from the real `ethtool -S` dumps.

Each tree is a copy of a replayed node (default tests/fixtures/mlx5-roce: 4 RoCE NICs) whose
netdevs' ethtool answers are one real dump of a driver, converted by `roce_exporter convert
ethtool-S --driver DRIVER` (so GDRVINFO names that driver and the exporter picks its table),
the way issue 41 replayed the Broadcom and Intel dumps. For bnxt_en and ice the RDMA side is
that driver's too: the PCI functions are bound to it, each port's hw_counters/ holds the RDMA
driver's own names (bnxt_re's 92 of a Thor port, irdma's 46 on E810, Linux 6.8:
tools/gen/vendor_answers.py), irdma's ports have no PMA counters/, and mlx5's ECN sysfs and
debugfs are gone. For each tree the real exporter is
started with the default flags, scraped SCRAPES times, and the script prints: series per NIC
(all series / RDMA devices), the ethtool collector's series per NIC, the unclassified names
per netdev, and the scrape time (median and max of the wall time of GET /metrics). It prints;
it asserts nothing (timings depend on the machine).

    bench/driver_trees.py --build build [--scrapes 50] [--node tests/fixtures/mlx5-roce]
"""

import argparse
import os
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
sys.path.insert(0, str(ROOT / "tools" / "gen"))
from exporter_process import Exporter  # noqa: E402
import vendor_answers as va  # noqa: E402

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


# The RDMA side of a driver's tree: its hw counter names, and whether its ports answer PMA.
RDMA_SIDES = {"bnxt_en": (va.BNXT_RE_HW_COUNTERS, True), "ice": (va.IRDMA_HW_COUNTERS, False)}


def make_tree(binary, node, dump, driver, out):
    shutil.copytree(node, out, symlinks=True)
    netdevs = sorted(p.name for p in (out / "kernel" / "ethtool").iterdir() if p.is_dir())
    for netdev in netdevs:
        for stale in ("sset_info.1", "strings.1", "stats", "drvinfo"):
            (out / "kernel" / "ethtool" / netdev / stale).unlink(missing_ok=True)
        subprocess.run([binary, "convert", "ethtool-S", "--netdev", netdev, "--driver", driver,
                        str(dump), str(out)], check=True, capture_output=True)
    if driver in RDMA_SIDES:
        use_rdma_side(out, driver, *RDMA_SIDES[driver])
    return len(netdevs)


def use_rdma_side(tree, driver, hw_counters, pma):
    """Binds the tree's RDMA devices to `driver` and gives their ports its hw counters."""
    sys_dir = tree / "sys"
    (sys_dir / "bus" / "pci" / "drivers" / driver).mkdir(parents=True, exist_ok=True)
    for ib in sorted((sys_dir / "class" / "infiniband").iterdir()):
        function = ib.resolve().parent.parent
        link = function / "driver"
        link.unlink()
        link.symlink_to(os.path.relpath(sys_dir / "bus" / "pci" / "drivers" / driver, function))
        for port in sorted((ib / "ports").iterdir()):
            hw = port / "hw_counters"
            hw.mkdir(exist_ok=True)
            for f in hw.iterdir():
                if f.name != "lifespan":
                    f.unlink()
            for i, name in enumerate(hw_counters):
                (hw / name).write_text(f"{1000 + i}\n")
            if not pma:
                shutil.rmtree(port / "counters", ignore_errors=True)
    for net in (sys_dir / "class" / "net").iterdir():
        shutil.rmtree(net.resolve() / "ecn", ignore_errors=True)
    shutil.rmtree(tree / "debugfs" / "mlx5", ignore_errors=True)


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
