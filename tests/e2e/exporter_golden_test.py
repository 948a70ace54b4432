#!/usr/bin/env python3
"""Golden end-to-end test: the real roce_exporter on a fixture, scraped over HTTP.

Compares /metrics (run-dependent series filtered) with a checked-in file and
runs `promtool check metrics` on the full output. --update rewrites the golden
file from the current output.
"""

import argparse
import difflib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from exporter_process import Exporter, stable_lines

CATALOGUE = Path(__file__).resolve().parents[2] / "docs" / "metrics.json"
# A collector's own series, one each per collector, and the value each has when the collector
# has nothing to report: succeeded, no parse error, nothing unavailable, nothing vanished.
SELF_SERIES = re.compile(r'^roce_exporter_(collector_success|parse_errors_total|unavailable_values|'
                         r'vanished_total)\{collector="([^"]*)"\} (\S+)$')
QUIET = {"collector_success": "1", "parse_errors_total": "0", "unavailable_values": "0",
         "vanished_total": "0"}


def without_quiet_collectors(lines):
    """The lines without the own series of a collector that wrote no family on this page and
    reports nothing (QUIET): so that adding a collector changes a golden only where the
    fixture gives it something to say. A collector that failed or counted an error keeps
    its series, with or without families."""
    collector_of = {m["name"]: m["collector"]
                    for m in json.loads(CATALOGUE.read_text(encoding="utf-8"))["metrics"]}
    writing = set()
    for line in lines:
        if line and not line.startswith("#"):
            family = re.split(r"[{ ]", line, 1)[0]
            for name in (family, re.sub(r"_(bucket|sum|count)$", "", family)):
                if name in collector_of and not name.startswith("roce_exporter_"):
                    writing.add(collector_of[name])
    out = []
    for line in lines:
        m = SELF_SERIES.match(line)
        if m and m.group(2) not in writing and QUIET[m.group(1)] == m.group(3):
            continue
        out.append(line)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("extra", nargs="*", help="extra exporter flags")
    args = ap.parse_args()

    with Exporter(args.exporter, ["--replay", args.fixture, *args.extra]) as exp:
        status, body = exp.get("/metrics")
        if status != 200:
            sys.exit(f"/metrics answered {status}")
        landing_status, landing = exp.get("/")
        missing_status, _ = exp.get("/does-not-exist")

    failures = []
    if landing_status != 200 or 'href="/metrics"' not in landing:
        failures.append(f"landing page: status {landing_status}, link to /metrics missing")
    if missing_status != 404:
        failures.append(f"/does-not-exist answered {missing_status}, want 404")

    got = without_quiet_collectors(stable_lines(body))
    if args.update:
        with open(args.golden, "w") as f:
            f.write("\n".join(got) + "\n")
        print(f"wrote {args.golden} ({len(got)} lines)")
    else:
        with open(args.golden) as f:
            want = f.read().splitlines()
        if got != want:
            diff = difflib.unified_diff(want, got, "golden", "scraped", lineterm="", n=1)
            failures.append("output differs from the golden file "
                            "(rerun with --update if the change is intended):\n" + "\n".join(diff))

    promtool = shutil.which("promtool")
    if promtool is None:
        failures.append("promtool not found (install the 'prometheus' package)")
    else:
        res = subprocess.run([promtool, "check", "metrics"], input=body, text=True,
                             capture_output=True)
        if res.returncode != 0:
            failures.append("promtool check metrics:\n" + res.stdout + res.stderr)

    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print(f"ok: {len(got)} stable lines match, promtool clean")


if __name__ == "__main__":
    main()
