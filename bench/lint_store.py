#!/usr/bin/env python3
"""roce-lint --prometheus over whole fleets held by real engines (issue 16): for each M,
a fleet of M nodes (tools/gen/fleet.py from TEMPLATE, one 8-device node's /metrics) stored
twice, 5 minutes apart, in Prometheus 2.42 (promtool blocks) and VictoriaMetrics 1.79 (import
API) by tools/gen/fleet_store.py; then `roce-lint check --prometheus … --window 5m` and, for
comparison, `--metrics-dir … --previous-metrics-dir`. Prints wall time, roce-lint's peak RSS,
the largest answer, the query stats roce-lint and the store report, and whether exactly the
seeded faults were found.

    bench/lint_store.py --build build --template node8.prom --out /tmp/rocewatch-store [--nodes 1000,10000]
        [--engines prometheus,victoria-metrics] [--batch 100] [--concurrency 4]
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "gen"))
import fleet_store  # noqa: E402


def run(argv, stats_out):
    t0 = time.perf_counter()
    err = open(stats_out, "w")
    pid = os.fork()
    if pid == 0:
        os.dup2(err.fileno(), 2)
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    err.close()
    return time.perf_counter() - t0, ru.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def verdict(report: Path, expected):
    got = {(f["node"], f["check"], f.get("netdev")) for f in json.loads(report.read_text())["findings"]}
    return len(expected - got), len(got - expected)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, default=ROOT / "build")
    ap.add_argument("--template", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--nodes", default="1000")
    ap.add_argument("--engines", default="prometheus,victoria-metrics")
    ap.add_argument("--batch", default="100")
    ap.add_argument("--concurrency", default="4")
    ap.add_argument("--rule-cost", action="store_true",
                    help="then bench/rule_cost.py on the Prometheus store of the largest M")
    args = ap.parse_args()
    lint = str(args.build / "lint" / "roce-lint")
    for m in (int(x) for x in args.nodes.split(",")):
        fleet = args.out / f"fleet{m}"
        if not (fleet / "expected.json").exists():
            subprocess.run([sys.executable, str(ROOT / "tools/gen/fleet.py"), str(fleet), "--nodes", str(m),
                            "--template", str(args.template)], check=True)
        expected = {(e["node"], e["check"], e["netdev"]) for e in json.loads((fleet / "expected.json").read_text())}
        metrics = fleet / "metrics"
        plan = str(fleet / "plan.json")
        report = fleet / "report.json"
        wall, rss, code = run([lint, "check", plan, "--metrics-dir", str(metrics), "--previous-metrics-dir",
                               str(metrics), "--window", "5m", "--format", "json", "--output", str(report)],
                              fleet / "stats.txt")
        missed, extra = verdict(report, expected)
        print(f"\n== {m} nodes: --metrics-dir: {wall:.1f} s, peak RSS {rss:.0f} MiB, exit {code}, "
              f"missed {missed}, extra {extra}", flush=True)
        t1 = float(int(time.time()) - 120)
        t0 = t1 - 300
        for engine in args.engines.split(","):
            work = args.out / f"{engine}{m}"
            work.mkdir(parents=True, exist_ok=True)
            f0 = time.perf_counter()
            if engine == "prometheus":
                om = work / "fleet.om"
                samples = fleet_store.write_openmetrics(fleet, metrics, metrics, t0, t1, om)
                e = fleet_store.start_prometheus(om, work)
                om.unlink()
            else:
                e = fleet_store.start_victoria_metrics(work)
                samples = fleet_store.import_into_victoria_metrics(e, fleet, metrics, metrics, t0, t1)
            fill = time.perf_counter() - f0
            try:
                wall, rss, code = run([lint, "check", plan, "--prometheus", e.url, "--window", "5m",
                                       "--prometheus.time", f"{t1:.0f}", "--prometheus.stats",
                                       "--prometheus.batch", args.batch, "--timeout", "300s", "--prometheus.concurrency",
                                       args.concurrency, "--format", "json", "--output", str(report)],
                                      work / "stats.txt")
                stats = (work / "stats.txt").read_text().strip()
                missed, extra = verdict(report, expected) if code in (0, 1) else (-1, -1)
                print(f"{engine}: filled with {samples} samples in {fill:.0f} s (engine peak RSS "
                      f"{e.rss_mib():.0f} MiB)\n  roce-lint: {wall:.1f} s, peak RSS {rss:.0f} MiB, exit {code}, "
                      f"missed {missed}, extra {extra}\n  {stats}", flush=True)
            finally:
                e.stop()
            if engine == "prometheus" and args.rule_cost:
                subprocess.run([sys.executable, str(ROOT / "bench/rule_cost.py"), "--data",
                                str(work / "prometheus-data"), "--time", f"{t1:.0f}"], check=False)


if __name__ == "__main__":
    main()
