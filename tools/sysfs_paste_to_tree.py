#!/usr/bin/env python3
"""Turn a pasted sysfs read-out (a bug report, an issue comment) into a sysfs tree.

The values are the paste's bytes; the directory layout is the kernel's
(drivers/infiniband/core/sysfs.c): `counters/` and `hw_counters/` under
ports/<n>, a device-wide `hw_counters/` beside `ports/`, and
/sys/class/infiniband/<dev> a symlink into /sys/devices/.../infiniband/<dev>.
Each file holds the value and a newline, as the kernel prints it.

Formats (--format):
  grep     lines `PATH:VALUE`, as `grep -s . /sys/.../counters/*` prints them.
           PATH is absolute under /sys. With --class-links, every
           devices/.../infiniband/<dev> found gets its class/infiniband/<dev> link.
  columns  lines `NAME VALUE` (any run of blanks between), as
           `for i in *; do printf "%-20.20s  %s\\n" "$i" "$(<$i)"; done` prints them
           in one directory; --dir names that directory (relative to sys/).
           Lines without a value (a paste cut short) are skipped and counted.
  rdma     `rdma statistic show` lines: `link DEV/PORT NAME VALUE NAME VALUE ...`;
           each pair becomes class/infiniband/DEV/ports/PORT/hw_counters/NAME.

A name is refused (with its line number) when it is empty, `.` or `..`, or holds
`/` or a NUL: it becomes a file name. Nothing is written outside OUT/sys.

Usage: sysfs_paste_to_tree.py --format grep|columns|rdma [--dir REL] [--class-links] PASTE OUT
"""

import argparse
import os
import re
import sys


_COMPONENT = r"(?:pci[0-9a-f]{4}:[0-9a-f]{2}|[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|[^/:]+)"
GREP_LINE = re.compile(r"(/sys(?:/" + _COMPONENT + r")+):(.*)")


class PasteError(Exception):
    pass


def safe_component(name, where):
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise PasteError(f"{where}: {name!r} cannot be a file name")
    return name


def safe_rel(path, where):
    parts = [p for p in path.split("/") if p]
    for p in parts:
        safe_component(p, where)
    if not parts:
        raise PasteError(f"{where}: empty path")
    return os.path.join(*parts)


def parse_grep(lines):
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        # PCI directories hold colons too (pci0000:05, 0000:09:00.0); no other
        # component does, so the value starts at the first other colon.
        m = GREP_LINE.match(line)
        if not m:
            raise PasteError(f"line {n}: not `/sys/...:VALUE`: {line!r}")
        path, value = m.group(1), m.group(2)
        out.append((safe_rel(path[len("/sys/"):], f"line {n}"), value))
    return out, 0


def parse_columns(lines, rel_dir):
    out, skipped = [], 0
    base = safe_rel(rel_dir, "--dir")
    for n, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) == 1:
            skipped += 1
            continue
        name, value = fields[0], " ".join(fields[1:])
        out.append((os.path.join(base, safe_component(name, f"line {n}")), value))
    return out, skipped


def parse_rdma(lines):
    out = []
    for n, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        if fields[0] != "link" or len(fields) < 2 or not re.fullmatch(r"[^/]+/\d+", fields[1]):
            raise PasteError(f"line {n}: not `link DEV/PORT NAME VALUE ...`: {line!r}")
        dev, port = fields[1].split("/")
        pairs = fields[2:]
        if len(pairs) % 2:
            raise PasteError(f"line {n}: a counter without a value")
        for name, value in zip(pairs[0::2], pairs[1::2]):
            rel = os.path.join("class/infiniband", safe_component(dev, f"line {n}"), "ports", port,
                               "hw_counters", safe_component(name, f"line {n}"))
            out.append((rel, value))
    return out, 0


def write_tree(entries, out_dir, class_links):
    sys_dir = os.path.join(out_dir, "sys")
    seen = set()
    for rel, value in entries:
        if rel in seen:
            raise PasteError(f"{rel}: given twice")
        seen.add(rel)
        path = os.path.join(sys_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(value + "\n")
    if class_links:
        for rel in sorted(seen):
            m = re.match(r"(devices/.*?/infiniband/([^/]+))/", rel)
            if not m:
                continue
            link = os.path.join(sys_dir, "class/infiniband", m.group(2))
            if os.path.lexists(link):
                continue
            os.makedirs(os.path.dirname(link), exist_ok=True)
            os.symlink(os.path.relpath(os.path.join(sys_dir, m.group(1)), os.path.dirname(link)), link)
    return len(seen)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--format", required=True, choices=["grep", "columns", "rdma"])
    ap.add_argument("--dir", help="columns: the directory the paste lists, relative to sys/")
    ap.add_argument("--class-links", action="store_true")
    ap.add_argument("paste")
    ap.add_argument("out")
    args = ap.parse_args(argv)
    try:
        with open(args.paste, encoding="utf-8") as f:
            lines = f.read().splitlines()
        if args.format == "grep":
            entries, skipped = parse_grep(lines)
        elif args.format == "columns":
            if not args.dir:
                raise PasteError("--format columns needs --dir")
            entries, skipped = parse_columns(lines, args.dir)
        else:
            entries, skipped = parse_rdma(lines)
        written = write_tree(entries, args.out, args.class_links)
    except (PasteError, OSError) as e:
        print(f"{args.paste}: {e}", file=sys.stderr)
        return 1
    print(f"{written} files written under {os.path.join(args.out, 'sys')}"
          + (f", {skipped} lines without a value skipped" if skipped else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
