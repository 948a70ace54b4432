#!/usr/bin/env python3
"""tests/fixtures/real trees built from pastes are what tools/sysfs_paste_to_tree.py
makes of their paste.txt (so a fixture's tree holds the published bytes and nothing
else), and the converter refuses what cannot be a file name and lines it cannot read."""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "sysfs_paste_to_tree.py")
REAL = os.path.join(ROOT, "tests", "fixtures", "real")

CASES = [
    ("i40iw-no-pma", ["--format", "grep", "--class-links"]),
    ("hfi1-hw-counters", ["--format", "columns", "--dir", "class/infiniband/hfi1_0/ports/1/hw_counters"]),
]


def tree(top):
    out = {}
    for d, dirs, files in os.walk(top):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, top)
            if os.path.islink(p):
                out[rel] = "link:" + os.readlink(p)
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out[rel] = f.read()
    return out


def run(args):
    return subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in CASES:
            out = os.path.join(tmp, name)
            r = run(args + [os.path.join(REAL, name, "paste.txt"), out])
            if r.returncode != 0:
                failures.append(f"{name}: converter failed: {r.stderr}")
                continue
            if tree(os.path.join(out, "sys")) != tree(os.path.join(REAL, name, "sys")):
                failures.append(f"{name}: committed sys/ differs from the converter's output")
        bad = {
            "dotdot.txt": ("columns", "..  5\n"),
            "slash.txt": ("rdma", "link mlx5_0/1 a/b 5\n"),
            "garbage.txt": ("grep", "not a sysfs line\n"),
            "odd.txt": ("rdma", "link mlx5_0/1 rx_pkts\n"),
        }
        for fname, (fmt, text) in bad.items():
            p = os.path.join(tmp, fname)
            with open(p, "w") as f:
                f.write(text)
            extra = ["--dir", "class/x"] if fmt == "columns" else []
            r = run(["--format", fmt] + extra + [p, os.path.join(tmp, "bad-" + fname)])
            if r.returncode == 0 or "line 1" not in r.stderr:
                failures.append(f"{fname}: not refused with its line: rc={r.returncode} {r.stderr!r}")
            if os.path.exists(os.path.join(tmp, "bad-" + fname, "sys")) and fname != "odd.txt":
                failures.append(f"{fname}: wrote files although refused")
        p = os.path.join(tmp, "stat.txt")
        with open(p, "w") as f:
            f.write("link rxe0/1 sent_pkts 12 rcvd_pkts 34\n")
        r = run(["--format", "rdma", p, os.path.join(tmp, "rdma")])
        got = os.path.join(tmp, "rdma/sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts")
        if r.returncode != 0 or not os.path.isfile(got) or open(got).read() != "34\n":
            failures.append(f"rdma format: {r.returncode} {r.stderr!r}")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
