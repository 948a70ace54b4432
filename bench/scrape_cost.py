#!/usr/bin/env python3
"""One exporter measured alone: CPU, median latency and context switches per scrape.

bench/compare_node_exporter.py runs four exporters interleaved on the same cores, which is
the comparison of record but moves about 15 % from run to run; a change worth less hides in
it. This starts one roce_exporter on a bench node (replayed, coalescing off), scrapes it over
one keep-alive connection, and prints per scrape: median latency, CPU (utime + stime of the
process) and context switches (voluntary and involuntary, every thread). Alternate two builds
a few times to compare them (docs/performance.md "Fourth pass").

    bench/scrape_cost.py --exporter build/exporter/roce_exporter --node /tmp/rocewatch-bench/n16 \\
        [--scrapes 500] [-- --no-collector.optics ...]
"""

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def context_switches(pid):
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                total += sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)
        except FileNotFoundError:  # a thread that just exited
            pass
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--node", required=True, help="a capture directory (bench node)")
    ap.add_argument("--scrapes", type=int, default=500)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("flags", nargs="*", help="more exporter flags (after --)")
    args = ap.parse_args()

    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen([args.exporter, "--replay", args.node, "--web.listen-address=127.0.0.1:0",
                             "--web.coalesce-window=0", *args.flags], stdout=log, stderr=log)
    try:
        port = None
        deadline = time.monotonic() + 15
        while port is None and time.monotonic() < deadline:
            log.seek(0)
            m = re.search(r"msg=listening address=[0-9.]+:(\d+)", log.read())
            port = int(m.group(1)) if m else None
            time.sleep(0.05)
        if port is None:
            log.seek(0)
            sys.exit(f"{args.exporter} did not start:\n{log.read()}")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        def scrape():
            t0 = time.perf_counter()
            conn.request("GET", "/metrics")
            body = conn.getresponse().read()
            return time.perf_counter() - t0, len(body)

        for _ in range(args.warmup):
            scrape()
        cpu0, switches0 = cpu_seconds(proc.pid), context_switches(proc.pid)
        latencies, size = [], 0
        for _ in range(args.scrapes):
            dt, size = scrape()
            latencies.append(dt)
        cpu = (cpu_seconds(proc.pid) - cpu0) / args.scrapes
        switches = (context_switches(proc.pid) - switches0) / args.scrapes
        print(f"{args.scrapes} scrapes, load average {os.getloadavg()[0]:.1f}: median "
              f"{statistics.median(latencies) * 1e3:.2f} ms, CPU {cpu * 1e3:.2f} ms, "
              f"{switches:.1f} context switches a scrape, {size} bytes"
              + (f" ({' '.join(args.flags)})" if args.flags else ""))
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main()
