#!/usr/bin/env python3
"""Every reference the project's texts make resolves.

- Every Markdown page (README.md, docs/*.md, the folders' READMEs): every relative link
  ([text](path#anchor)) names a file or folder of the checkout, and its anchor a heading (or an
  <a id>) of the page it names; every path in backquotes that starts with a top-level folder of
  the checkout, or names a file beside the page, exists (`lint/fix/shell.h`;
  `exporter/collectors/<name>/` is left out: a placeholder); a section cited as
  docs/page.md "Title" is a heading of that page. Pages of data (tests/fixtures/, examples/)
  name other repositories' files: only their links are checked.
- Comments of the C++ sources and of the CMake files: every path they cite that starts with a
  top-level folder (`docs/fix.md`, `tests/common/fixture_paths.h`) exists, and a docs/…#anchor
  is a heading of that page.
- Nothing cites the design notes kept outside the repository: the project's rationale is
  docs/design.md.

usage: references_test.py SOURCE_DIR
"""

import re
import subprocess
import sys
from pathlib import Path

# Paths in build/ are what a build writes; they are not in a checkout.
SKIP_PREFIXES = ("build/", "build-")
# A file a CMake rule writes as ${CMAKE_BINARY_DIR}/generated/PATH is cited by PATH (the include
# path it is found by): it exists in every build folder, never in the checkout.
GENERATED = re.compile(r"\$\{CMAKE_BINARY_DIR\}/generated/([A-Za-z0-9_./-]+)")
# Spelled in parts so that this file does not cite them itself.
OUTSIDE_NOTES = ("DESIGN" + ".md", ".." + "/shared")


def tracked_files(root: Path) -> list[str]:
    """The checkout's files (git's list; a tree without .git, a source package, walked)."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-co", "--exclude-standard"],
                             check=True, capture_output=True, text=True).stdout
        return [line for line in out.splitlines() if line and (root / line).is_file()]
    except (OSError, subprocess.CalledProcessError):
        return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                      if p.is_file() and not str(p.relative_to(root)).startswith((".git",) + SKIP_PREFIXES))


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings_of(path: Path) -> list[str]:
    out = []
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (m := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)):
            out.append(m.group(1))
    return out


def anchors_of(path: Path) -> set[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = counts.get(s, 0)
            counts[s] = n + 1
            found.add(s if n == 0 else f"{s}-{n}")
        for a in re.findall(r"""<a\s+(?:id|name)=["']([^"']+)["']""", line):
            found.add(a)
    return found


def expand_braces(text: str) -> list[str]:
    """`source.{h,cpp}` is source.h and source.cpp."""
    m = re.search(r"\{([^{}]*)\}", text)
    if not m:
        return [text]
    out = []
    for alt in m.group(1).split(","):
        out.extend(expand_braces(text[:m.start()] + alt + text[m.end():]))
    return out


PLACEHOLDER = re.compile(r"[<>*$…|]|\.\.\.|\bNAME\b|\bN\b")


def generated_files(root: Path, files: list[str]) -> set[str]:
    """The paths the CMake files write under the build folder's generated/."""
    out: set[str] = set()
    for rel in files:
        if rel.endswith("CMakeLists.txt"):
            out.update(GENERATED.findall((root / rel).read_text(encoding="utf-8")))
    return out


def path_ok(root: Path, rel: str) -> bool:
    return all((root / p.rstrip("/")).exists() for p in expand_braces(rel))


class Checker:
    def __init__(self, root: Path):
        self.root = root
        self.files = tracked_files(root)
        self.generated = frozenset(generated_files(root, self.files))
        self.tops = sorted({f.split("/", 1)[0] for f in self.files if "/" in f})
        self.anchors: dict[Path, set[str]] = {}
        self.errors: list[str] = []

    def anchor_ok(self, page: Path, anchor: str) -> bool:
        if page not in self.anchors:
            self.anchors[page] = anchors_of(page)
        return anchor in self.anchors[page]

    def is_repo_path(self, token: str) -> bool:
        """A path of the checkout: its first folder is one of ours and, when it goes deeper, so
        is its second (include/uapi/linux/ethtool.h is the kernel's, include/rocewatch/ ours)."""
        parts = token.split("/")
        if len(parts) < 2 or parts[0] not in self.tops or token.startswith(SKIP_PREFIXES):
            return False
        return len(parts) < 3 or (self.root / parts[0] / parts[1]).is_dir()

    def check_repo_path(self, where: str, token: str, base: Path | None = None) -> None:
        """`token` names a file of the checkout (or, from a page in a folder, of that folder)."""
        token = token.rstrip(".,:;)")
        path, _, anchor = token.partition("#")
        if PLACEHOLDER.search(path) or path in self.generated:
            return
        if PLACEHOLDER.search(anchor):
            anchor = ""
        if base is not None and base != self.root and path_ok(base, path):
            root = base
        elif self.is_repo_path(path):
            root = self.root
        else:
            return
        if not path_ok(root, path):
            self.errors.append(f"{where}: {path} does not exist")
            return
        if anchor and path.endswith(".md") and not self.anchor_ok(root / path, anchor):
            self.errors.append(f"{where}: {path} has no heading or <a id> #{anchor}")

    def sections(self, where: str, text: str) -> None:
        """docs/fix.md "Output": a section named by its heading, in quotes."""
        for path, title in re.findall(r'(docs/[\w.-]+\.md) "([^"]+)"', text):
            page = self.root / path
            if not page.exists():
                continue  # check_repo_path says so
            if not any(h.lower().startswith(title.lower()) for h in headings_of(page)):
                self.errors.append(f'{where}: {path} has no section "{title}"')

    def markdown(self, rel: str, paths: bool = True) -> None:
        """Links always; paths in backquotes where `paths` (not in data's provenance notes,
        which name files of other repositories)."""
        page = self.root / rel
        in_code = False
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{rel}:{n}"
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                    continue
                path, _, anchor = target.partition("#")
                dest = (page.parent / path).resolve() if path else page
                if not dest.exists():
                    self.errors.append(f"{where}: link {target}: {path} does not exist")
                elif anchor and dest.suffix == ".md" and not self.anchor_ok(dest, anchor):
                    self.errors.append(f"{where}: link {target}: no heading or <a id> #{anchor}")
            for code in re.findall(r"`([^`\s]+)`", line) if paths else []:
                self.check_repo_path(where, code, page.parent)
            self.sections(where, line)

    def comments(self, rel: str) -> None:
        cmake = rel.endswith(("CMakeLists.txt", ".cmake"))
        for n, line in enumerate((self.root / rel).read_text(encoding="utf-8",
                                                             errors="replace").splitlines(), 1):
            if cmake:
                m = re.search(r"(?:^|\s)#(.*)$", line)
            else:
                m = re.search(r"//(.*)$", line)
                # `//` inside a string literal ("http://…") is not a comment.
                if m and line[:m.start()].count('"') % 2 == 1:
                    m = None
            if not m:
                continue
            for token in re.findall(r"[A-Za-z0-9_.][A-Za-z0-9_./{},#*<>$…-]*", m.group(1)):
                self.check_repo_path(f"{rel}:{n}", token)
            self.sections(f"{rel}:{n}", m.group(1))

    def outside_notes(self, rel: str) -> None:
        try:
            text = (self.root / rel).read_text(encoding="utf-8")
        except (UnicodeDecodeError, IsADirectoryError):
            return
        for n, line in enumerate(text.splitlines(), 1):
            if any(notes in line for notes in OUTSIDE_NOTES):
                self.errors.append(f"{rel}:{n}: cites notes outside the repository "
                                   "(the project's rationale is docs/design.md)")

    def run(self) -> list[str]:
        for rel in self.files:
            data = rel.startswith(("examples/", "tests/fixtures/", "tests/fuzz/corpus/"))
            if rel.endswith(".md"):  # README.md, docs/*.md and every other page
                self.markdown(rel, paths=not data)
            if data:
                continue  # data, not text the project writes about itself
            if rel.endswith((".h", ".cpp", ".cc", "CMakeLists.txt", ".cmake")):
                self.comments(rel)
            self.outside_notes(rel)
        return self.errors


def main() -> int:
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
    errors = Checker(root).run()
    for e in errors:
        print(e)
    if errors:
        print(f"{len(errors)} references do not resolve")
        return 1
    print("every reference resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
