#!/usr/bin/env python3
"""Extracts part of a ttar text archive (prometheus/procfs's testdata/fixtures.ttar).

The format, as prometheus/procfs's own `ttar` script writes and reads it:

    Directory: <path>          a directory (created with its parents)
    Path: <path>               names the next entry; then one of
      Lines: <N>               N lines of content follow; a line containing an
                               unescaped "EOF" ends without a newline, "NULLBYTE"
                               stands for a NUL byte ("\\EOF", "\\NULLBYTE" are the
                               literal words)
      SymlinkTo: <target>      a symbolic link
    Mode: <octal>              the mode of the entry just named
    # ...                      comments between entries

Only entries whose path starts with one of the given prefixes are written, links kept as
links. A path that would leave the output directory (absolute, or with "..") is refused.

    ttar_extract.py ARCHIVE OUTDIR --strip fixtures/sys --keep class/infiniband
"""

import argparse
import os
import re
import sys


def unescape(line):
    """One content line's bytes: (text, ends_without_newline)."""
    no_newline = re.search(r"(?<!\\)EOF", line) is not None
    line = re.sub(r"(?<!\\)NULLBYTE", "\x00", line)
    line = line.replace("\\NULLBYTE", "NULLBYTE")
    line = re.sub(r"(?<!\\)EOF", "", line)
    line = line.replace("\\EOF", "EOF")
    return line, no_newline


def parse(lines):
    """Yields ("dir", path, mode) / ("file", path, bytes, mode) / ("link", path, target)."""
    i = 0
    pending = None  # the entry named by Path:/Directory:, waiting for its Mode:
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("#") or line == "":
            continue
        m = re.match(r"^(Directory|Path|Lines|Mode|SymlinkTo): (.*)$", line)
        if not m:
            raise ValueError(f"line {i}: unknown keyword: {line!r}")
        key, value = m.groups()
        if key == "Directory":
            if pending:
                yield pending
            pending = ["dir", value, None]
        elif key == "Path":
            if pending:
                yield pending
            pending = ["path", value, None]
        elif key == "Lines":
            if not pending or pending[0] != "path":
                raise ValueError(f"line {i}: Lines: without a Path:")
            n = int(value)
            data = []
            for _ in range(n):
                if i >= len(lines):
                    raise ValueError(f"line {i}: archive ends inside {pending[1]}")
                text, no_newline = unescape(lines[i])
                i += 1
                data.append(text if no_newline else text + "\n")
            pending = ["file", pending[1], "".join(data).encode("latin-1"), None]
        elif key == "SymlinkTo":
            if not pending or pending[0] != "path":
                raise ValueError(f"line {i}: SymlinkTo: without a Path:")
            yield ["link", pending[1], value]
            pending = None
        elif key == "Mode":
            if pending:
                pending[-1] = int(value, 8)
                yield pending
                pending = None
    if pending:
        yield pending


def safe_rel(path, strip):
    if not path.startswith(strip + "/") and path != strip:
        return None
    rel = path[len(strip):].lstrip("/")
    parts = rel.split("/")
    if rel.startswith("/") or any(p in ("..",) for p in parts):
        raise ValueError(f"refusing a path that leaves the output: {path!r}")
    return rel


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("archive")
    ap.add_argument("outdir")
    ap.add_argument("--strip", required=True, help="archive prefix that becomes OUTDIR")
    ap.add_argument("--keep", action="append", required=True, help="prefix (below --strip) to keep")
    args = ap.parse_args()
    # The archive is text; read it byte-for-byte (latin-1) so no byte is reinterpreted.
    with open(args.archive, encoding="latin-1", newline="") as f:
        lines = f.read().split("\n")
    kept = 0
    for entry in parse(lines):
        kind, path = entry[0], entry[1]
        rel = safe_rel(path, args.strip)
        if rel is None or not any(rel == k or rel.startswith(k.rstrip("/") + "/") for k in args.keep):
            continue
        dest = os.path.join(args.outdir, rel)
        if kind == "dir":
            os.makedirs(dest, exist_ok=True)
            if entry[2] is not None:
                os.chmod(dest, entry[2])
        elif kind == "file":
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(entry[2])
            if entry[3] is not None:
                os.chmod(dest, entry[3])
        elif kind == "link":
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            if os.path.lexists(dest):
                os.remove(dest)
            os.symlink(entry[2], dest)
        elif kind == "path":
            raise ValueError(f"{path}: a Path: with neither Lines: nor SymlinkTo:")
        kept += 1
    print(f"{kept} entries written to {args.outdir}", file=sys.stderr)


if __name__ == "__main__":
    main()
