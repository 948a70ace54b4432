#!/usr/bin/env python3
"""The include graph of the project's C++: no cycle anywhere, and the layers point down.

Reads every `#include "…"` of the C++ sources under the folders below (paths from the
repository root, as the project writes them) and fails when
  - files include each other in a cycle (any length), or
  - a folder of lint/ includes a folder its layer does not sit above (LINT_LAYERS), or
  - a folder of exporter/ includes a folder its layer does not sit above (EXPORTER_LAYERS,
    EXPORTER_FOLDERS), other than the one designed arrow (EXPORTER_UPWARD), or
  - the two programs include each other's code, or the shared code (common/, http/) either.
A folder the tables do not name fails too, saying where it must be named.
Prints the offending chains. Usage: include_graph_test.py REPO_ROOT
"""

import os
import re
import sys

SOURCE_FOLDERS = ["common", "http", "exporter", "lint", "include", "tools", "bench", "tests"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)

# lint/'s folders, each with the folders it may include (besides itself). The core is the
# floor; commands (cli/) and the daemon (serve/) are the top. `lint/metric_contract.h` is the
# exporter's contract, written by the build, and may be included anywhere.
LINT_LAYERS = {
    # The message catalogue (en, zh): the floor beside the core, which every layer renders from.
    "i18n": set(),
    "core": set(),
    "plan": {"core"},
    "targets": {"core", "plan"},
    "switch": {"core"},
    "observe": {"core", "plan", "switch"},
    "fix": {"core", "plan"},
    "checks": {"core", "plan", "observe", "switch"},
    "report": {"core", "plan", "observe", "checks"},
    # One evaluation (observe, check, render fixes) that every command calls.
    "run": {"core", "plan", "observe", "switch", "checks", "fix"},
    "verify": {"core", "plan", "observe", "checks", "fix", "report", "run"},
    "serve": {"core", "plan", "observe", "switch", "checks", "fix", "report", "run"},
    "cli": {"core", "plan", "observe", "switch", "targets", "fix", "checks", "report", "verify",
            "serve", "run"},
}
LINT_FREE = {"lint/metric_contract.h"}
FLOOR = {"i18n"}  # below every layer

# exporter/'s folders, each in its layer; a layer may include the layers it names (besides
# itself). Rules name folders, never files: a new collector is a folder under collectors/ and
# is in that layer without an edit; a new folder directly under exporter/ is named here once,
# in the layer its code sits in (a decoder, bytes in and structs out with no I/O, in
# "decoders"; a kernel call's transport in "kernel"; a command in "cli").
EXPORTER_FOLDERS = {
    # Pure decoders (docs/architecture.md "decoder"): bytes in, structs out, no I/O. A driver
    # (drivers/<driver>/: its statistics' names and quirks) sits with them.
    "ethtool": "decoders",
    "netlink": "decoders",
    "optics": "decoders",
    "lldp": "decoders",
    "procfs": "decoders",
    "oci": "decoders",
    "drivers": "decoders",
    # The rooted sysfs, configfs and debugfs trees, and the devices found in them.
    "fs": "trees",
    "inventory": "inventory",
    # Kernel calls and their live transport (ioctl, netlink, verbs, lldpd's socket).
    "kernel": "kernel",
    # The snapshot and its section machinery; the metric types, the sink and the renderer.
    "model": "model",
    "metrics": "metrics",
    # The collector framework (its files) and the collectors (its folders).
    "collectors": "collectors",
    "pass": "pass",
    "endpoints": "endpoints",
    # Recording, replay and conversion of captures: a replay is a KernelAnswers and trees, a
    # recording runs a pass.
    "capture": "capture",
    # Flags and commands; main.cpp.
    "cli": "cli",
}
EXPORTER_LAYERS = {
    "decoders": set(),
    "trees": set(),
    "inventory": {"trees"},
    "kernel": {"decoders"},
    "model": set(),
    "metrics": {"model"},
    "collectors": {"decoders", "trees", "inventory", "kernel", "model", "metrics"},
    "pass": {"trees", "inventory", "kernel", "model", "metrics", "collectors"},
    "endpoints": {"metrics", "pass"},
    "capture": {"decoders", "trees", "inventory", "kernel", "model", "metrics", "collectors",
                "pass"},
    "cli": {"decoders", "trees", "inventory", "kernel", "model", "metrics", "collectors", "pass",
            "endpoints", "capture"},
}
# Files directly in exporter/: the logfmt log is the floor every layer may include; main.cpp
# is the top.
EXPORTER_FILES = {"exporter/log.h": None, "exporter/log.cpp": None, "exporter/main.cpp": "cli"}
# The one arrow up, by design: the snapshot holds one section per collector, so it includes
# the list of collectors (docs/architecture.md "snapshot").
EXPORTER_UPWARD = {("exporter/model/snapshot.h", "exporter/collectors/all.h")}

# The two programs share common/ and http/ and link nothing of each other: roce-lint reads the
# exporter only through the generated contract (LINT_FREE).
PROGRAMS = {"exporter": {"common", "http"}, "lint": {"common", "http"}, "common": set(),
            "http": {"common"}}


def sources(root):
    for folder in SOURCE_FOLDERS:
        for base, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = [d for d in dirs if d not in ("fixtures", "data")]
            for name in files:
                if name.endswith((".h", ".cpp", ".cc")):
                    path = os.path.join(base, name)
                    yield os.path.relpath(path, root)


def includes(root, path, known):
    """The project files `path` includes, resolved from the root or beside the file."""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        text = f.read()
    out = []
    for name in INCLUDE.findall(text):
        beside = os.path.normpath(os.path.join(os.path.dirname(path), name))
        if name in known:
            out.append(name)
        elif beside in known:
            out.append(beside)
    return out


def cycles(graph):
    """Strongly connected components with more than one file, or a file including itself."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        work = [(v, iter(graph.get(v, ())))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(graph.get(w, ()))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def lint_folder(path):
    parts = path.split("/")
    return parts[1] if parts[0] == "lint" and len(parts) > 2 else None


def exporter_layer(path):
    """The layer of an exporter/ file: None for the floor; "?" for a folder no table names."""
    parts = path.split("/")
    if parts[0] != "exporter":
        return None
    if len(parts) == 2:
        return EXPORTER_FILES.get(path, "?")
    return EXPORTER_FOLDERS.get(parts[1], "?")


def exporter_failures(graph):
    failures = []
    unnamed = sorted({p.split("/")[1] for p in graph if exporter_layer(p) == "?" and p.count("/") > 1})
    for folder in unnamed:
        failures.append(f"exporter/{folder}/ has no layer in EXPORTER_FOLDERS: name it there, in "
                        "the layer its code sits in (a decoder: \"decoders\")")
    for name in sorted(p for p in graph if exporter_layer(p) == "?" and p.count("/") == 1):
        failures.append(f"{name}: a file directly in exporter/ that EXPORTER_FILES does not name")
    for path, targets in graph.items():
        layer = exporter_layer(path)
        if layer in (None, "?"):
            continue
        for target in targets:
            other = exporter_layer(target)
            if other in (None, "?") or other == layer or (path, target) in EXPORTER_UPWARD:
                continue
            if other not in EXPORTER_LAYERS[layer]:
                failures.append(f"{path} includes {target}: exporter's {layer} "
                                f"({path.split('/')[1]}/) may not include its {other} "
                                f"({target.split('/')[1]}/)")
    # The designed arrow is named, so it must still be there.
    for path, target in sorted(EXPORTER_UPWARD):
        if target not in graph.get(path, ()):
            failures.append(f"EXPORTER_UPWARD names {path} -> {target}, which is no include")
    return failures


def program_failures(graph):
    failures = []
    for path, targets in graph.items():
        mine = path.split("/")[0]
        if mine not in PROGRAMS:
            continue
        for target in targets:
            theirs = target.split("/")[0]
            if target in LINT_FREE or theirs == mine or theirs not in PROGRAMS:
                continue
            if theirs not in PROGRAMS[mine]:
                failures.append(f"{path} includes {target}: {mine}/ may not include {theirs}/")
    return failures


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    known = set(sources(root)) | LINT_FREE
    graph = {path: includes(root, path, known) for path in sorted(known - LINT_FREE)}
    failures = []
    for component in cycles(graph):
        failures.append("include cycle: " + " <-> ".join(component))
    for path, targets in graph.items():
        layer = lint_folder(path)
        if layer is None:
            continue
        if layer not in LINT_LAYERS:
            failures.append(f"{path}: lint/{layer}/ has no layer in LINT_LAYERS")
            continue
        for target in targets:
            other = lint_folder(target)
            if target in LINT_FREE or other is None or other == layer or other in FLOOR:
                continue
            if other not in LINT_LAYERS[layer]:
                failures.append(f"{path} includes {target}: lint/{layer}/ may not include lint/{other}/")
    failures += exporter_failures(graph)
    failures += program_failures(graph)
    # The test must see the tree it judges.
    if (len(graph) < 500 or not any(lint_folder(p) == "core" for p in graph)
            or not any(exporter_layer(p) == "decoders" for p in graph)):
        failures.append(f"only {len(graph)} files read under {root}: not the repository")
    for line in failures:
        print(line)
    if failures:
        return 1
    print(f"{len(graph)} files: no include cycle, lint's and the exporter's layers point down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
