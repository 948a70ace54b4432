#!/usr/bin/env python3
"""Capture -> replay round trip: capturing what the exporter reads of a node
(here a fixture replayed as the node) and replaying the capture must give
byte-identical /metrics (run-dependent series aside)."""

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile

from exporter_process import Exporter, stable_lines


def scrape(binary, replay):
    with Exporter(binary, ["--replay", replay]) as exp:
        status, body = exp.get("/metrics")
        if status != 200:
            sys.exit(f"{replay}: /metrics answered {status}")
        return stable_lines(body)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--fixture", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rocewatch-capture-") as tmp:
        cap = os.path.join(tmp, "capture")
        res = subprocess.run([args.exporter, "capture", cap, "--replay", args.fixture,
                              "--description", "round-trip test"],
                             capture_output=True, text=True, timeout=60)
        if res.returncode != 0:
            sys.exit(f"capture failed ({res.returncode}):\n{res.stdout}{res.stderr}")
        with open(os.path.join(cap, "capture.json")) as f:
            meta = json.load(f)
        if meta.get("format") != "rocewatch-capture" or meta.get("version") != 1:
            sys.exit(f"capture.json has the wrong format: {meta}")
        a = scrape(args.exporter, args.fixture)
        b = scrape(args.exporter, cap)
    if a != b:
        print("\n".join(difflib.unified_diff(a, b, "fixture", "capture", lineterm="", n=1)))
        sys.exit("replayed capture differs from the source")
    print(f"ok: {len(a)} stable lines identical after capture and replay")


if __name__ == "__main__":
    main()
