#!/usr/bin/env python3
"""tests/fixtures/real/gpu-topology/<host>/sys is exactly what tools/lspci_to_sysfs_tree.py makes
of <host>/published.md (so the tree holds what the report printed and nothing else), and the
converter refuses, naming the line, what it cannot read."""

import os
import subprocess
import sys
import tempfile

from paste_trees_test import tree  # the same comparison of two trees

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "lspci_to_sysfs_tree.py")
REAL = os.path.join(ROOT, "tests", "fixtures", "real", "gpu-topology")
HOSTS = ["asus-esc8000a-e12", "puget-wrx90"]


def run(src, out):
    return subprocess.run([sys.executable, TOOL, src, out], capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for host in HOSTS:
            out = os.path.join(tmp, host)
            r = run(os.path.join(REAL, host, "published.md"), out)
            if r.returncode != 0:
                failures.append(f"{host}: converter failed: {r.stderr}")
                continue
            got, want = tree(os.path.join(out, "sys")), tree(os.path.join(REAL, host, "sys"))
            if got != want:
                diff = sorted(set(got) ^ set(want)) or sorted(k for k in got if got[k] != want[k])
                failures.append(f"{host}: committed sys/ differs from the converter's output: {diff[:5]}")
        bad = {
            "unknown-cap.md": "```\n$ lspci -tv\n-[0000:00]-+-01.0-[01]----00.0  NVIDIA Corporation X\n```\n"
                              "```\n$ sudo lspci -vvv -s 01:00.0\n01:00.0 3D controller: NVIDIA Corporation X\n"
                              "        Capabilities: [40] Frobnicator\n```\n",
            "lost.md": "```\n$ lspci -tv\n   +-00.0  Lost\n```\n",
            "dotdot.md": "```\n$ lspci -tv\n-[0000:00]-+-01.0  Mellanox Technologies X\n```\n"
                         "```\n$ nvidia-smi topo -m\n  NIC0: ..\n```\n",
        }
        for name, text in bad.items():
            p = os.path.join(tmp, name)
            with open(p, "w") as f:
                f.write(text)
            r = run(p, os.path.join(tmp, "bad-" + name))
            if r.returncode == 0 or not ("line " in r.stderr or "file name" in r.stderr):
                failures.append(f"{name}: not refused with where: rc={r.returncode} {r.stderr!r}")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
