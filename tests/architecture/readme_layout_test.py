#!/usr/bin/env python3
"""README.md's "Layout" block is true for exporter/, lint/ and tests/.

The block is the fenced text under "## Layout": one entry per top-level folder ("lint/   …"),
its text running until the next entry. Fails when a folder directly under exporter/, lint/ or
tests/ is not named (as `name/`) in its entry, and when an entry names a `name/` that is no
folder anywhere under it (nor a top-level folder, which the entry refers to: http/, docs/).

Usage: readme_layout_test.py REPO_ROOT
"""

import os
import re
import sys

CHECKED = ["exporter", "lint", "tests"]
ENTRY = re.compile(r"^(\S+)/\s", re.M)  # a line that starts an entry: "lint/     roce-lint: …"
NAMED = re.compile(r"(?<![\w./<>*-])([a-z_][a-z0-9_]*)/")


def layout_block(readme):
    at = readme.find("\n## Layout")
    if at < 0:
        return None
    fence = readme.find("```", at)
    end = readme.find("```", fence + 3)
    if fence < 0 or end < 0:
        return None
    return readme[readme.find("\n", fence) + 1:end]


def entries(block):
    """{top-level folder: the text of its entry}."""
    starts = [(m.start(), m.group(1)) for m in ENTRY.finditer(block)]
    out = {}
    for i, (start, name) in enumerate(starts):
        stop = starts[i + 1][0] if i + 1 < len(starts) else len(block)
        out[name] = block[start + len(name) + 1:stop]
    return out


def folders_under(root, top):
    """The folders at any depth under `top`, by name, and those directly under it."""
    anywhere, direct = set(), set()
    for base, dirs, _ in os.walk(os.path.join(root, top)):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
        anywhere.update(dirs)
        if os.path.normpath(base) == os.path.normpath(os.path.join(root, top)):
            direct.update(dirs)
    return anywhere, direct


def failures_of(root, readme):
    block = layout_block(readme)
    if block is None:
        return ["README.md has no fenced block under '## Layout'"]
    found = entries(block)
    failures = []
    top_level = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))}
    for top in CHECKED:
        if top not in found:
            failures.append(f"README.md's layout has no entry for {top}/")
            continue
        named = set(NAMED.findall(found[top]))
        anywhere, direct = folders_under(root, top)
        if not direct:
            failures.append(f"{top}/ has no folder under {root}: not the repository")
        for folder in sorted(direct - named):
            failures.append(f"{top}/{folder}/ is not named in README.md's layout ({top}/ entry)")
        # A name of a top-level folder (http/, docs/) is a reference to it, not one of these.
        for folder in sorted(named - anywhere - top_level):
            failures.append(f"README.md's layout names {folder}/ in its {top}/ entry: no such "
                            f"folder under {top}/")
    return failures


def self_test():
    """A block missing a folder and naming a gone one fails; the true one passes."""
    readme = ("# x\n\n## Layout\n\n```\nlint/   roce-lint: core/, gone/\n"
              "        more words, cli/\ntests/  t/\n```\n")
    entry = entries(layout_block(readme))
    return (set(NAMED.findall(entry["lint"])) == {"core", "gone", "cli"}
            and set(NAMED.findall(entry["tests"])) == {"t"})


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    if not self_test():
        print("self-test: the layout block is not read as written")
        return 1
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    failures = failures_of(root, readme)
    for line in failures:
        print(line)
    if failures:
        return 1
    print("README.md's layout names every folder of " + ", ".join(t + "/" for t in CHECKED))
    return 0


if __name__ == "__main__":
    sys.exit(main())
