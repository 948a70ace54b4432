#!/usr/bin/env python3
"""roce-lint over whole fleets: for each M, generate M nodes of /metrics and their plan
(tools/gen/fleet.py, with seeded faults), run `roce-lint check --metrics-dir` as a
process, and report wall time, CPU time and peak RSS, and whether every seeded fault
was found (and nothing else). One run per M, each in a fresh child process.

    bench/lint_fleet.py --build build --template node8.prom --out /tmp/rocewatch-bench [--nodes 100,1000,10000]
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_check(lint: Path, fleet: Path, report: Path):
    """Runs one check in a child; returns (wall, cpu, peak RSS KiB, exit code)."""
    argv = [str(lint), "check", str(fleet / "plan.json"), "--metrics-dir", str(fleet / "metrics"),
            "--format", "json", "--output", str(report)]
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, default=ROOT / "build")
    ap.add_argument("--template", type=Path, required=True, help="one healthy node's /metrics")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--nodes", default="100,1000,10000")
    args = ap.parse_args()
    lint = args.build / "lint" / "roce-lint"
    rows, ok = [], True
    for m in (int(x) for x in args.nodes.split(",")):
        fleet = args.out / f"fleet{m}"
        if not (fleet / "expected.json").exists():
            subprocess.run([sys.executable, str(ROOT / "tools/gen/fleet.py"), str(fleet), "--nodes", str(m),
                            "--template", str(args.template)], check=True)
        mb = sum(p.stat().st_size for p in (fleet / "metrics").iterdir()) / 1e6
        report = fleet / "report.json"
        wall, cpu, rss_kib, code = run_check(lint, fleet, report)
        findings = json.loads(report.read_text())["findings"]
        got = {(f["node"], f["check"], f.get("netdev")) for f in findings}
        want = {(e["node"], e["check"], e["netdev"]) for e in json.loads((fleet / "expected.json").read_text())}
        missed, extra = len(want - got), len(got - want)
        ok = ok and missed == 0 and extra == 0 and code == 1
        rows.append((m, mb, wall, cpu, rss_kib / 1024, len(want), missed, extra))
    print(f"{'nodes':>7} {'metrics':>9} {'wall':>8} {'CPU':>8} {'MB/s':>7} {'peak RSS':>9} {'faults':>7} "
          f"{'missed':>7} {'extra':>6}")
    for m, mb, wall, cpu, rss, want, missed, extra in rows:
        print(f"{m:7d} {mb:7.0f}MB {wall:7.2f}s {cpu:7.2f}s {mb / wall:7.0f} {rss:7.0f}MiB {want:7d} "
              f"{missed:7d} {extra:6d}")
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        print(f"growth {a[0]} -> {b[0]} nodes ({b[0] / a[0]:.0f}x): wall {b[2] / a[2]:.1f}x, "
              f"peak RSS {b[4] / a[4]:.1f}x")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
