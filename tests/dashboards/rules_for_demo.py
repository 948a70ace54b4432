#!/usr/bin/env python3
"""Writes a copy of the rocewatch rules whose `for:` durations are at most --max-for.

    python3 tests/dashboards/rules_for_demo.py --max-for 30s \
        dashboards/prometheus/rocewatch-rules.yml /tmp/demo/rocewatch-rules.yml

The shipped rules wait as long as production needs (2-15 minutes) before an alert fires.
A demo or an end-to-end test that wants every seeded fault in Alertmanager within a minute
loads this copy instead; the expressions, labels and annotations stay the same. Lines
other than `for:` are not touched, so the copy is as valid as the original (check it with
`promtool check rules`). Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Optional, Sequence

_UNITS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}
_PART_RE = re.compile(r"([0-9]+)(ms|s|m|h|d|w|y)")
_FOR_RE = re.compile(r"^(\s+for:\s*)([0-9a-z]+)(\s*(#.*)?)$")


def seconds(duration: str) -> float:
    if not re.fullmatch(r"(?:[0-9]+(?:ms|[smhdwy]))+", duration):
        raise ValueError(f"not a Prometheus duration: {duration!r}")
    return sum(int(n) * _UNITS[u] for n, u in _PART_RE.findall(duration))


def shorten_for(text: str, max_for: str) -> str:
    limit = seconds(max_for)
    out = []
    for line in text.split("\n"):
        m = _FOR_RE.match(line)
        if m and seconds(m.group(2)) > limit:
            line = m.group(1) + max_for + m.group(3)
        out.append(line)
    return "\n".join(out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-for", required=True, help="longest `for:` to keep, e.g. 30s")
    ap.add_argument("src", type=Path)
    ap.add_argument("dst", type=Path)
    args = ap.parse_args(argv)
    try:
        text = shorten_for(args.src.read_text(encoding="utf-8"), args.max_for)
    except ValueError as e:
        print(f"rules_for_demo: {e}", file=sys.stderr)
        return 2
    args.dst.parent.mkdir(parents=True, exist_ok=True)
    args.dst.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
