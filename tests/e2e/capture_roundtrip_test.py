#!/usr/bin/env python3
"""Capture -> replay round trip: capturing what the exporter reads of a node
(here a fixture replayed as the node) and replaying the capture must give
byte-identical /metrics (run-dependent series aside), with the default flags and with
every rdma counter option on: a capture taken with the default flags keeps the counter
files the default scrape does not read (collectors/rdma/default_counters.h).

Then the same with a debugfs directory that could not be listed on the node (an
unprivileged capture: cc_params.errno holds 13 EACCES): the capture keeps the
errno, and both serve the ecn collector's unavailable count for it."""

import argparse
import difflib
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

from exporter_process import Exporter, stable_lines


EVERY_RDMA_COUNTER = ["--collector.rdma.all-hw-counters=true", "--collector.rdma.all-port-counters=true"]


def scrape(binary, replay, flags=()):
    with Exporter(binary, ["--replay", replay, *flags]) as exp:
        status, body = exp.get("/metrics")
        if status != 200:
            sys.exit(f"{replay}: /metrics answered {status}")
        return stable_lines(body)


def capture(binary, replay, cap):
    res = subprocess.run([binary, "capture", cap, "--replay", replay, "--description", "round-trip test"],
                         capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        sys.exit(f"capture failed ({res.returncode}):\n{res.stdout}{res.stderr}")


def round_trip(binary, source, cap):
    capture(binary, source, cap)
    a = scrape(binary, source)
    b = scrape(binary, cap)
    if a != b:
        print("\n".join(difflib.unified_diff(a, b, "source", "capture", lineterm="", n=1)))
        sys.exit(f"replayed capture of {source} differs from it")
    return a


def unlistable_debugfs(binary, fixture, tmp):
    cc = glob.glob(os.path.join(fixture, "debugfs", "mlx5", "*", "cc_params"))
    if not cc:
        return
    node = os.path.join(tmp, "node")
    shutil.copytree(fixture, node, symlinks=True)
    for d in cc:
        rel = os.path.relpath(d, fixture)
        shutil.rmtree(os.path.join(node, rel))
        with open(os.path.join(node, rel + ".errno"), "w") as f:
            f.write("13 EACCES\n")
    cap = os.path.join(tmp, "capture-eacces")
    lines = round_trip(binary, node, cap)
    for d in cc:
        kept = os.path.join(cap, os.path.relpath(d, fixture) + ".errno")
        if not os.path.exists(kept) or not open(kept).read().startswith("13 "):
            sys.exit(f"the capture did not keep the EACCES of {os.path.relpath(d, fixture)}")
    want = f'roce_exporter_unavailable_values{{collector="ecn"}} {len(cc)}'
    if want not in lines:
        sys.exit(f"expected {want!r} when debugfs does not list, got: "
                 f"{[l for l in lines if 'unavailable_values' in l]}")
    if any('source="debugfs"' in l for l in lines):
        sys.exit("debugfs parameters served although debugfs did not list")
    print(f"ok: an unlistable debugfs survives capture and replay ({want})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--fixture", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rocewatch-capture-") as tmp:
        cap = os.path.join(tmp, "capture")
        a = round_trip(args.exporter, args.fixture, cap)
        with open(os.path.join(cap, "capture.json")) as f:
            meta = json.load(f)
        if meta.get("format") != "rocewatch-capture" or meta.get("version") != 1:
            sys.exit(f"capture.json has the wrong format: {meta}")
        print(f"ok: {len(a)} stable lines identical after capture and replay")
        full_source = scrape(args.exporter, args.fixture, EVERY_RDMA_COUNTER)
        full_capture = scrape(args.exporter, cap, EVERY_RDMA_COUNTER)
        if full_source != full_capture:
            print("\n".join(difflib.unified_diff(full_source, full_capture, "source", "capture", lineterm="", n=1)))
            sys.exit("with every rdma counter option, the capture (taken with the default flags) serves less")
        if any(l.startswith("roce_hw_stat_total") for l in a) and len(full_source) <= len(a):
            sys.exit(f"every rdma counter option served {len(full_source)} lines, the default {len(a)}")
        print(f"ok: every rdma counter option: {len(full_source)} stable lines identical (the capture kept them)")
        unlistable_debugfs(args.exporter, args.fixture, tmp)


if __name__ == "__main__":
    main()
