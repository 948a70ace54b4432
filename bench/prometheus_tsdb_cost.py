#!/usr/bin/env python3
"""What the exporter's series cost a real Prometheus: starts EXPORTERS replayed roce_exporters
of one bench node (default flags, then every detail option on), a real Prometheus
(/usr/bin/prometheus, 127.0.0.1, a free port) scraping them every --interval for --seconds,
then reads the TSDB's head series and the process's memory from Prometheus's own metrics and
prints them with the bytes per head series, and the extrapolation to a 10,000-node x 8-NIC fleet.

    bench/prometheus_tsdb_cost.py --build build --node /tmp/rocewatch-bench/n8 [--exporters 4]
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "e2e"))
from exporter_process import Exporter, free_port  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from series_per_nic import FULL  # noqa: E402  (every detail option, one list)
FLEET_NICS = 10_000 * 8


def query(port, expr):
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=10) as r:
        res = json.load(r)["data"]["result"]
    return float(res[0]["value"][1]) if res else 0.0


def run(args, extra):
    prometheus = shutil.which("prometheus") or "/usr/bin/prometheus"
    exporters = [Exporter(str(args.build / "exporter" / "roce_exporter"),
                          ["--replay", str(args.node), *extra]) for _ in range(args.exporters)]
    try:
        for e in exporters:
            e.__enter__()
        _, body = exporters[0].get("/metrics")
        nics = sum(1 for line in body.splitlines() if line.startswith("roce_device_info{"))
        with tempfile.TemporaryDirectory(prefix="series-prom-") as tmp:
            targets = ", ".join(f"'127.0.0.1:{e.port}'" for e in exporters)
            cfg = Path(tmp) / "prometheus.yml"
            port = free_port()
            cfg.write_text(f"global:\n  scrape_interval: {args.interval}s\n"
                           f"scrape_configs:\n  - job_name: roce\n    static_configs:\n"
                           f"      - targets: [{targets}]\n"
                           f"  - job_name: prometheus\n    static_configs:\n"
                           f"      - targets: ['127.0.0.1:{port}']\n")
            log = open(Path(tmp) / "prometheus.log", "w")
            proc = subprocess.Popen([prometheus, f"--config.file={cfg}",
                                     f"--storage.tsdb.path={tmp}/data",
                                     f"--web.listen-address=127.0.0.1:{port}"],
                                    stdout=log, stderr=log, start_new_session=True)
            try:
                time.sleep(args.seconds)
                head = query(port, 'prometheus_tsdb_head_series{job="prometheus"}')
                own = query(port, 'sum(scrape_samples_scraped{job="roce"})')
                heap = query(port, 'go_memstats_heap_inuse_bytes{job="prometheus"}')
                rss = float(open(f"/proc/{proc.pid}/status").read().split("VmRSS:")[1].split()[0]) * 1024
            finally:
                proc.terminate()
                proc.wait(20)
        return {"nics": nics * args.exporters, "scraped": own, "head": head, "rss": rss, "heap": heap}
    finally:
        for e in exporters:
            e.__exit__(None, None, None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, default=Path("build"))
    ap.add_argument("--node", type=Path, required=True)
    ap.add_argument("--exporters", type=int, default=4)
    ap.add_argument("--interval", type=int, default=2)
    ap.add_argument("--seconds", type=int, default=40)
    args = ap.parse_args()
    rows = {"default": run(args, []), "full": run(args, FULL)}
    print(f"{args.exporters} exporters replaying {args.node}, scraped every {args.interval}s "
          f"for {args.seconds}s")
    print(f"{'':8} {'NICs':>5} {'scraped':>8} {'head series':>12} {'RSS':>9} {'heap in use':>12}")
    for name, r in rows.items():
        print(f"{name:8} {r['nics']:5d} {r['scraped']:8.0f} {r['head']:12.0f} "
              f"{r['rss'] / 2**20:7.1f}Mi {r['heap'] / 2**20:10.1f}Mi")
    d, f = rows["default"], rows["full"]
    per_series = (f["heap"] - d["heap"]) / max(f["head"] - d["head"], 1)
    per_series_rss = (f["rss"] - d["rss"]) / max(f["head"] - d["head"], 1)
    print(f"marginal cost: {per_series:.0f} B heap, {per_series_rss:.0f} B RSS per head series")
    for name, r in rows.items():
        fleet = r["scraped"] / r["nics"] * FLEET_NICS
        print(f"10,000 x 8-NIC fleet, {name}: {fleet / 1e6:.1f} M series, "
              f"~{fleet * per_series / 2**30:.0f} GiB heap, ~{fleet * per_series_rss / 2**30:.0f} GiB RSS")


if __name__ == "__main__":
    main()
