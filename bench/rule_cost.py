#!/usr/bin/env python3
"""The cost of each recording rule of dashboards/prometheus/rocewatch-rules.yml on a real
store: starts Prometheus 2.42 on an existing TSDB directory (e.g. the one bench/lint_store.py
built, kept with --keep), evaluates every rule's expression once at TIME with stats=all, and
prints the store's own figures: samples touched (totalQueryableSamples), peak samples, series
returned, and evaluation time.

A backfilled store holds no recorded series, so the `cluster:*` rules, which sum the `roce:*`
ones, would read nothing. First, `promtool tsdb create-blocks-from rules` evaluates every
recording rule at TIME against the store and writes the recorded series as blocks into it
(the way an operator backfills new rules); Prometheus is restarted on them, so each
`cluster:*` rule reads the `roce:*` series a running Prometheus would have recorded.

    bench/rule_cost.py --data /tmp/rocewatch-store/prometheus1000/prometheus-data --time 1764588000
"""

import argparse
import json
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "gen"))
import fleet_store  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--time", type=float, required=True)
    ap.add_argument("--rules", type=Path, default=ROOT / "dashboards/prometheus/rocewatch-rules.yml")
    ap.add_argument("--only", default="", help="time only the rules whose name starts with this")
    args = ap.parse_args()
    conf = args.data.parent / "rule-cost.yml"
    conf.write_text("global:\n  scrape_interval: 1m\n")
    log = args.data.parent / "rule-cost.log"

    def start():
        port = fleet_store.free_port()
        proc = subprocess.Popen(["nice", "prometheus", f"--config.file={conf}", f"--storage.tsdb.path={args.data}",
                                 f"--web.listen-address=127.0.0.1:{port}", "--storage.tsdb.retention.time=10y"],
                                stdout=log.open("a"), stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        fleet_store.wait_ready(url, proc, log, timeout=600)
        return proc, url

    proc, url = start()
    try:
        if not list(args.data.glob("*/recorded")):
            out = args.data.parent / "recorded-blocks"
            shutil.rmtree(out, ignore_errors=True)
            t0 = time.perf_counter()
            # promtool stops at the first failed query: an HTTP 503 from a Prometheus busy merging
            # overlapping blocks ended a 2,000-node run after 8 minutes. Try again from scratch.
            for attempt in range(1, 4):
                shutil.rmtree(out, ignore_errors=True)
                done = subprocess.run(["nice", "promtool", "tsdb", "create-blocks-from", "rules", f"--url={url}",
                                       f"--start={args.time - 60:.0f}", f"--end={args.time + 60:.0f}",
                                       "--eval-interval=60s", f"--output-dir={out}", str(args.rules)],
                                      stdout=log.open("a"), stderr=subprocess.STDOUT)
                if done.returncode == 0:
                    break
                print(f"promtool create-blocks-from rules failed (exit {done.returncode}, attempt {attempt}); "
                      f"see {log}", flush=True)
                if attempt == 3:
                    sys.exit("promtool create-blocks-from rules failed three times")
                time.sleep(30 * attempt)
            print(f"recorded series backfilled by promtool in {time.perf_counter() - t0:.0f} s", flush=True)
            for block in out.iterdir():
                if (block / "meta.json").exists():
                    (block / "recorded").write_text("made by bench/rule_cost.py\n")
                    shutil.move(str(block), str(args.data / block.name))
            proc.terminate()
            proc.wait()
            proc, url = start()
        rules = [r for g in yaml.safe_load(args.rules.read_text())["groups"] for r in g["rules"]
                 if "record" in r and r["record"].startswith(args.only)]
        print(f"{'rule':<45} {'series':>8} {'samples touched':>16} {'peak':>9} {'eval s':>8} {'wall s':>7}")
        for r in rules:
            body = urllib.parse.urlencode({"query": r["expr"], "time": f"{args.time:.3f}", "stats": "all"}).encode()
            t0 = time.perf_counter()
            with urllib.request.urlopen(urllib.request.Request(url + "/api/v1/query", data=body), timeout=600) as resp:
                doc = json.load(resp)
            wall = time.perf_counter() - t0
            stats = doc["data"].get("stats", {})
            print(f"{r['record']:<45} {len(doc['data']['result']):>8} "
                  f"{stats.get('samples', {}).get('totalQueryableSamples', 0):>16} "
                  f"{stats.get('samples', {}).get('peakSamples', 0):>9} "
                  f"{stats.get('timings', {}).get('evalTotalTime', 0):>8.3f} {wall:>7.2f}", flush=True)
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
