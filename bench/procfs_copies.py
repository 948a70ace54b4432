#!/usr/bin/env python3
"""A sysfs tree of N copies of the real mlx5_0 of prometheus/procfs's public fixture
(tests/fixtures/real/procfs-sysfs, its PROVENANCE): InfiniBand-layout ports without `lid`,
`sm_lid` or a uverbs device, as node_exporter's own tests see them. The bench of what absent
files cost a scrape (docs/performance.md "What is absent costs nothing") runs on it:

    python3 bench/procfs_copies.py /tmp/procfs16 --devices 16
    build/exporter/roce_exporter --path.sysfs=/tmp/procfs16 ...

The copies are named mlx5_0 … mlx5_<N-1>; their values are the original's.
"""

import argparse
import shutil
import sys
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "tests/fixtures/real/procfs-sysfs"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--devices", type=int, default=16)
    args = ap.parse_args()
    if not 1 <= args.devices <= 256:
        sys.exit("--devices: 1 to 256")
    source = FIXTURE / "class/infiniband/mlx5_0"
    target = args.out / "class/infiniband"
    if args.out.exists():
        shutil.rmtree(args.out)
    target.mkdir(parents=True)
    for i in range(args.devices):
        shutil.copytree(source, target / f"mlx5_{i}", symlinks=True)
    print(f"{args.out}: {args.devices} copies of {source.relative_to(FIXTURE.parents[2])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
