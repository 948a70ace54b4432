#!/usr/bin/env python3
"""roce-lint --prometheus over whole fleets held by real engines (issue 16): for each M,
a fleet of M nodes (tools/gen/fleet.py from TEMPLATE, one 8-device node's /metrics) stored
twice, 5 minutes apart, in Prometheus 2.42 (promtool blocks) and VictoriaMetrics 1.79 (import
API) by tools/gen/fleet_store.py; then `roce-lint check --prometheus … --window 5m` and, for
comparison, `--metrics-dir … --previous-metrics-dir`. Prints wall time, roce-lint's CPU and
peak RSS, the store's CPU seconds while roce-lint ran, the largest answer, the query stats
roce-lint and the store report, and whether exactly the seeded faults (and the same findings
as --metrics-dir) were found.

The stores hold what the exporter served (TEMPLATE: a default scrape of today's exporter), or
with --families asked only the families roce-lint asks for (recorded from its queries to a
stand-in, fleet_store.families_asked). Prometheus's blocks are written --slice nodes at a time
(one promtool run and one block each); VictoriaMetrics gets one node a request on --streams
connections. The fill's wall time, the store's disk use and its peak RSS are printed. A
store's data directory is deleted after its run unless --keep; --reuse runs on a directory an
earlier --keep left (its time from the blocks). --start import-then-scrapes stores the fleet the
way a real one starts instead: one import, then a scrape a minute (every series new at the
import), and the findings must still equal --metrics-dir's.

    bench/lint_store.py --build build --template node8.prom --out /tmp/rocewatch-store [--nodes 1000,10000]
        [--engines prometheus,victoria-metrics] [--batch 100] [--concurrency 4] [--keep] [--reuse]
        [--families all|asked] [--slice 1000] [--streams 4] [--vm-memory 6GiB] [--start import-then-scrapes]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "gen"))
import fleet_store  # noqa: E402


def run(argv, stats_out):
    """(wall s, CPU s, peak RSS MiB, exit code) of a child whose stderr goes to stats_out."""
    t0 = time.perf_counter()
    err = open(stats_out, "w")
    pid = os.fork()
    if pid == 0:
        os.dup2(err.fileno(), 2)
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    err.close()
    return (time.perf_counter() - t0, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024,
            os.waitstatus_to_exitcode(status))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def findings(report: Path):
    return json.loads(report.read_text())["findings"]


def verdict(found, expected):
    got = {(f["node"], f["check"], f.get("netdev")) for f in found}
    return len(expected - got), len(got - expected)


def same_findings(a, b):
    k = lambda f: (f["node"], f["check"], f.get("device", ""), f.get("port", ""), f.get("netdev", ""),
                   f.get("expected", ""), f.get("found", ""))
    return {k(f) for f in a} == {k(f) for f in b}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, default=ROOT / "build")
    ap.add_argument("--template", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--nodes", default="1000")
    ap.add_argument("--engines", default="prometheus,victoria-metrics")
    ap.add_argument("--batch", default="100")
    ap.add_argument("--concurrency", default="4")
    ap.add_argument("--max-bytes", default="32MiB")
    ap.add_argument("--families", choices=("all", "asked"), default="all")
    ap.add_argument("--start", choices=("twice", "import-then-scrapes"), default="twice",
                    help="twice: every series stored 5 minutes apart; import-then-scrapes: the way a "
                         "real fleet starts, one import 7 minutes before the query, then a scrape a minute")
    ap.add_argument("--slice", type=int, default=1000, help="nodes per promtool block")
    ap.add_argument("--streams", type=int, default=4, help="parallel VictoriaMetrics import requests")
    ap.add_argument("--vm-memory", default=None, help="VictoriaMetrics -memory.allowedBytes")
    ap.add_argument("--keep", action="store_true", help="keep each store's data directory")
    ap.add_argument("--reuse", action="store_true", help="query a data directory an earlier --keep left")
    ap.add_argument("--rule-cost", action="store_true",
                    help="then bench/rule_cost.py on the Prometheus store of the largest M (implies --keep)")
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
        wall, cpu, rss, code = run([lint, "check", plan, "--metrics-dir", str(metrics), "--previous-metrics-dir",
                                    str(metrics), "--window", "5m", "--format", "json", "--output", str(report)],
                                   fleet / "stats.txt")
        reference = findings(report)
        missed, extra = verdict(reference, expected)
        print(f"\n== {m} nodes: --metrics-dir: {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {rss:.0f} MiB, "
              f"exit {code}, missed {missed}, extra {extra}", flush=True)
        families = fleet_store.families_asked(lint, fleet) if args.families == "asked" else None
        # A multiple of 60 s: `promtool tsdb create-blocks-from rules` (bench/rule_cost.py) evaluates
        # at multiples of its --eval-interval, so a rule is evaluated exactly at t1, where a 5m
        # rate() has both observations (at 10,000 nodes t1 was not, and the rate rules recorded nothing).
        t1 = float((int(time.time()) - 120) // 60 * 60)
        t0 = t1 - 300
        if args.start == "twice":
            observations = [(t0, metrics), (t1, metrics)]
        else:  # the import at t1 - 420 s, then one scrape a minute up to t1
            observations = [(t1 - 420 + 60 * k, metrics) for k in range(8)]
        for engine in args.engines.split(","):
            work = args.out / f"{engine}{m}"
            work.mkdir(parents=True, exist_ok=True)
            f0 = time.perf_counter()
            samples = 0
            if engine == "prometheus":
                data = work / "prometheus-data"
                if args.reuse and data.exists():
                    metas = [json.loads(p.read_text()) for p in data.glob("*/meta.json")]
                    t1 = float(int(max(x["maxTime"] for x in metas) / 1000))
                    e = fleet_store.start_prometheus(None, work, keep_data=True)
                else:
                    data.mkdir(parents=True, exist_ok=True)
                    for b in data.iterdir():
                        shutil.rmtree(b, ignore_errors=True)
                    om = work / "fleet.om"
                    for first in range(0, m, args.slice):
                        samples += fleet_store.write_openmetrics(fleet, observations, om, families,
                                                                 slice(first, first + args.slice))
                        fleet_store.add_blocks(om, data, work / "prometheus.log")
                        om.unlink()
                        print(f"  promtool: nodes {first} to {min(m, first + args.slice)} in "
                              f"{time.perf_counter() - f0:.0f} s", flush=True)
                    e = fleet_store.start_prometheus(None, work, keep_data=True)
            else:
                e = fleet_store.start_victoria_metrics(work, keep_data=args.reuse, memory=args.vm_memory)
                if not args.reuse:
                    samples = fleet_store.import_into_victoria_metrics(e, fleet, observations, families,
                                                                       streams=args.streams)
                else:
                    t1 = float((work / "t1").read_text())
            (work / "t1").write_text(f"{t1:.0f}")
            fill = time.perf_counter() - f0
            store_dir = work / ("prometheus-data" if engine == "prometheus" else "vm-data")
            disk = int(subprocess.run(["du", "-sb", str(store_dir)], capture_output=True, text=True).stdout.split()[0])
            fill_rss = e.rss_mib()
            print(f"{engine}: {samples} samples ({samples / len(observations) / m:.0f} series a node) stored in {fill:.0f} s, "
                  f"{disk / 2**20:.0f} MiB on disk, store peak RSS {fill_rss:.0f} MiB so far", flush=True)
            try:
                store_cpu0 = cpu_seconds(e.proc.pid)
                wall, cpu, rss, code = run([lint, "check", plan, "--prometheus", e.url, "--window", "5m",
                                            "--prometheus.time", f"{t1:.0f}", "--prometheus.stats",
                                            "--prometheus.batch", args.batch, "--timeout", "300s",
                                            "--prometheus.concurrency", args.concurrency, "--max-bytes",
                                            args.max_bytes, "--format", "json", "--output", str(report)],
                                           work / "stats.txt")
                store_cpu = cpu_seconds(e.proc.pid) - store_cpu0
                stats = (work / "stats.txt").read_text().strip()
                got = findings(report) if code in (0, 1) else []
                missed, extra = verdict(got, expected) if code in (0, 1) else (-1, -1)
                same = same_findings(got, reference)
                print(f"{engine}: {'reused' if args.reuse else f'filled with {samples} samples in {fill:.0f} s'} "
                      f"(engine peak RSS {e.rss_mib():.0f} MiB)\n"
                      f"  roce-lint: {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {rss:.0f} MiB, exit {code}, "
                      f"missed {missed}, extra {extra}, same findings as --metrics-dir: {same}\n"
                      f"  store: {store_cpu:.1f} s CPU while roce-lint ran\n  {stats}", flush=True)
            finally:
                e.stop()
            if engine == "prometheus" and args.rule_cost:
                subprocess.run([sys.executable, str(ROOT / "bench/rule_cost.py"), "--data",
                                str(work / "prometheus-data"), "--time", f"{t1:.0f}"], check=False)
            if not (args.keep or args.rule_cost):
                shutil.rmtree(work / ("prometheus-data" if engine == "prometheus" else "vm-data"), ignore_errors=True)


if __name__ == "__main__":
    main()
