#!/usr/bin/env python3
"""Whole-process comparison: roce_exporter against Debian's prometheus-node-exporter with
only its infiniband collector, both pointed at the same sysfs tree, scraped by the same
client in the same run (interleaved, one keep-alive connection each). roce_exporter runs twice: with every collector (the
kernel answers replayed from the capture), with every collector and every detail option on
(the price of full detail), and with only its rdma collector, which reads
the same sysfs files as the infiniband collector and more (hw_counters, GIDs); where the
capture holds RDMA netlink STAT_GET answers (kernel/rdma-netlink/), the rdma collector runs once
more with --collector.rdma.netlink=false, so the hw counters come from one sysfs file each: the
netlink source against the sysfs one. Reports scrape latency (median, p99), CPU seconds
per scrape and peak RSS of each, the series each serves, and the ratios.

    bench/compare_node_exporter.py --build build --node /tmp/rocewatch-bench/n16 [--scrapes 300]
"""

import argparse
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from series_per_nic import FULL  # noqa: E402  (every detail option, one list)

CLK_TCK = os.sysconf("SC_CLK_TCK")


def start(argv, port_re, log_path):
    log = open(log_path, "w+")
    proc = subprocess.Popen(argv, stdout=log, stderr=log, start_new_session=True)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        log.seek(0)
        m = re.search(port_re, log.read())
        if m:
            return proc, int(m.group(1))
        time.sleep(0.05)
    proc.kill()
    log.seek(0)
    raise SystemExit(f"{argv[0]} did not start:\n{log.read()}")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def peak_rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


class Client:
    """One keep-alive connection per exporter (what Prometheus holds), opened again if the
    server closes it."""

    def __init__(self, port):
        self.port = port
        self.conn = None

    def scrape(self):
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        t0 = time.perf_counter()
        try:
            self.conn.request("GET", "/metrics")
            resp = self.conn.getresponse()
            body = resp.read()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = None
            return self.scrape()
        dt = time.perf_counter() - t0
        if resp.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        return dt, body


def series(body):
    return sum(1 for line in body.decode().splitlines() if line and not line.startswith("#"))


def collectors(exporter: str) -> list[str]:
    """Every collector of the exporter, from its --help (one --[no-]collector.<name> flag each)."""
    text = subprocess.run([exporter, "--help"], capture_output=True, text=True, check=False)
    names = re.findall(r"--\[no-\]collector\.([a-z0-9_]+)\s", text.stdout + text.stderr)
    if "rdma" not in names:
        sys.exit(f"{exporter} --help lists no rdma collector: {names}")
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, default=Path("build"))
    ap.add_argument("--node", type=Path, required=True, help="a capture directory (bench node)")
    ap.add_argument("--scrapes", type=int, default=300)
    args = ap.parse_args()
    node_exporter = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
    if node_exporter is None:
        sys.exit("prometheus-node-exporter is not installed")
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    roce = [str(args.build / "exporter" / "roce_exporter"), "--replay", str(args.node),
            "--web.listen-address=127.0.0.1:0", "--web.coalesce-window=0"]
    # The same sysfs domain as the infiniband collector: RDMA devices, ports and their counters;
    # every other collector off, as the exporter's --help lists them.
    rdma_only = [f"--no-collector.{c}" for c in collectors(roce[0]) if c != "rdma"]
    full = FULL
    ours, our_port = start(roce, r"msg=listening address=[0-9.]+:(\d+)", tmp / "cmp-roce.log")
    ours_full, our_full_port = start(roce + full, r"msg=listening address=[0-9.]+:(\d+)",
                                     tmp / "cmp-roce-full.log")
    ours_rdma, our_rdma_port = start(roce + rdma_only, r"msg=listening address=[0-9.]+:(\d+)",
                                     tmp / "cmp-roce-rdma.log")
    netlink = (args.node / "kernel" / "rdma-netlink").is_dir()
    extra = []
    if netlink:
        sysfs_rdma, sysfs_rdma_port = start(roce + rdma_only + ["--collector.rdma.netlink=false"],
                                            r"msg=listening address=[0-9.]+:(\d+)",
                                            tmp / "cmp-roce-rdma-sysfs.log")
        extra = [("roce_exporter (rdma, sysfs)", sysfs_rdma, sysfs_rdma_port)]
    theirs, their_port = start([node_exporter, "--collector.disable-defaults", "--collector.infiniband",
                                f"--path.sysfs={args.node / 'sys'}", "--web.listen-address=127.0.0.1:0"],
                               r"address=(?:\[::\]|[0-9.]+|127\.0\.0\.1):(\d+)", tmp / "cmp-node.log")
    try:
        results = {}
        for name, proc, port in (("roce_exporter (all)", ours, our_port),
                                 ("roce_exporter (all, full)", ours_full, our_full_port),
                                 ("roce_exporter (rdma only)", ours_rdma, our_rdma_port),
                                 *extra,
                                 ("node_exporter infiniband", theirs, their_port)):
            client = Client(port)
            for _ in range(10):  # warm-up
                client.scrape()
            results[name] = {"lat": [], "cpu0": cpu_seconds(proc.pid), "proc": proc, "client": client}
        load0 = os.getloadavg()[0]
        for _ in range(args.scrapes):  # interleaved: both see the same machine state
            for name, r in results.items():
                dt, body = r["client"].scrape()
                r["lat"].append(dt)
                r["series"] = series(body)
                r["bytes"] = len(body)
        rows = []
        for name, r in results.items():
            lat = sorted(r["lat"])
            cpu = (cpu_seconds(r["proc"].pid) - r["cpu0"]) / args.scrapes
            rows.append((name, statistics.median(lat), lat[int(len(lat) * 0.99) - 1], cpu,
                         peak_rss_kib(r["proc"].pid), r["series"], r["bytes"]))
        print(f"{args.scrapes} scrapes each, keep-alive, interleaved; load average "
              f"{load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
        print(f"{'':28} {'median':>10} {'p99':>10} {'CPU/scrape':>11} {'peak RSS':>10} {'series':>8} {'bytes':>9}")
        for name, med, p99, cpu, rss, n, b in rows:
            print(f"{name:28} {med * 1e3:8.2f}ms {p99 * 1e3:8.2f}ms {cpu * 1e3:9.2f}ms {rss / 1024:8.1f}MiB {n:8d} {b:9d}")
        if netlink:
            nl = next(r for r in rows if r[0] == "roce_exporter (rdma only)")
            fs = next(r for r in rows if r[0] == "roce_exporter (rdma, sysfs)")
            print(f"rdma collector, hw counters from RDMA netlink against sysfs files: median "
                  f"{nl[1] * 1e3:.2f} vs {fs[1] * 1e3:.2f} ms, CPU per scrape {nl[3] * 1e3:.2f} vs "
                  f"{fs[3] * 1e3:.2f} ms ({fs[3] / nl[3] if nl[3] else float('inf'):.2f}x), "
                  f"series {nl[5]} vs {fs[5]}")
        else:
            print("(the capture has no RDMA netlink answers: the netlink source is not compared)")
        b = rows[-1]
        for a in rows[:-1]:
            print(f"node_exporter / {a[0]}: median latency {b[1] / a[1]:.2f}x, p99 {b[2] / a[2]:.2f}x, "
                  f"CPU per scrape {b[3] / a[3] if a[3] else float('inf'):.2f}x; it serves "
                  f"{a[5] / b[5]:.1f}x the series")
    finally:
        for p in (ours, ours_full, ours_rdma, theirs, *(e[1] for e in extra)):
            p.terminate()
            p.wait(10)


if __name__ == "__main__":
    main()
