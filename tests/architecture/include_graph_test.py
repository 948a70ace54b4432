#!/usr/bin/env python3
"""The include graph of the project's C++: no cycle anywhere, and lint's layers point down.

Reads every `#include "…"` of the C++ sources under the folders below (paths from the
repository root, as the project writes them) and fails when
  - files include each other in a cycle (any length), or
  - a folder of lint/ includes a folder its layer does not sit above (LINT_LAYERS).
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
    "verify": {"core", "plan", "observe", "fix", "report", "run"},
    "serve": {"core", "plan", "observe", "switch", "checks", "fix", "report", "run"},
    "cli": {"core", "plan", "observe", "switch", "targets", "fix", "checks", "report", "verify",
            "serve", "run"},
}
LINT_FREE = {"lint/metric_contract.h"}
FLOOR = {"i18n"}  # below every layer


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
    # The test must see the tree it judges.
    if len(graph) < 500 or not any(lint_folder(p) == "core" for p in graph):
        failures.append(f"only {len(graph)} files read under {root}: not the repository")
    for line in failures:
        print(line)
    if failures:
        return 1
    print(f"{len(graph)} files: no include cycle, lint's layers point down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
