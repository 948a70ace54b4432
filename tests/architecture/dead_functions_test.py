#!/usr/bin/env python3
"""No dead function: every function the project's code declares is used somewhere.

A function declared in a header (or defined in a .cpp) of common/, http/, exporter/, lint/ or
include/ whose name occurs nowhere in the project's C++ (those folders, tools/, bench/, tests/)
except where a function of that name is declared or defined is dead: this test fails and names
it. The compiler does not see this kind: -Wunused-function sees only file-local functions, and
a function declared in a header may be called from any file. Names are compared as words, with
comments and string literals taken out, so an overloaded or common name (`Add`, `size`) is
taken as used; overrides (called through their base) are skipped.

Usage: dead_functions_test.py REPO_ROOT
"""

import collections
import os
import re
import sys

SOURCE_FOLDERS = ["common", "http", "exporter", "lint", "include", "tools", "bench", "tests"]
DECLARING = ("common/", "http/", "exporter/", "lint/", "include/")

# Dead functions left where they are, each with why and until when. Kept short.
LEFT: set[str] = set()  # dead functions left on purpose, each with a comment saying why

NOT_CODE = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"([^(\s]{0,16})\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.S)
WORD = re.compile(r"\b[A-Za-z_]\w*\b")
# A name being declared or defined: after its return type (a word, or `>`, `*`, `&` written
# against the type), maybe qualified (`Class::Name`), before its parameters.
DECLARED = re.compile(r"(?:(\w+)|(?<=[\w>\]])[>*&]+)\s+[*&]*((?:\w+::)*)([A-Za-z_]\w*)\s*\(")
NOT_TYPES = {"return", "new", "else", "case", "throw", "co_return", "co_await", "co_yield",
             "sizeof", "alignof", "decltype", "delete", "typename", "operator", "if", "while",
             "for", "switch", "explicit", "const", "not", "and", "or"}


def code_of(text):
    """The text without comments and with every string and character literal emptied."""
    return NOT_CODE.sub(lambda m: " " if m.group(0).startswith("/") else '""', text)


def dead_functions(files):
    """{name: file declaring it} for every function whose name is used nowhere but where a
    function of that name is declared or defined. `files`: {path: C++ text}."""
    code = {path: code_of(text) for path, text in files.items()}
    occurrences = collections.Counter()
    for text in code.values():
        occurrences.update(WORD.findall(text))
    declarations = collections.Counter()
    overrides = set()
    declared_in = {}
    # Headers first, so that a function is named where it is declared.
    for path, text in sorted(code.items(), key=lambda item: (not item[0].endswith(".h"), item[0])):
        for m in DECLARED.finditer(text):
            if m.group(1) in NOT_TYPES:
                continue
            name = m.group(3)
            declarations[name] += 1
            ends = [i for i in (text.find(";", m.end()), text.find("{", m.end())) if i >= 0]
            rest = text[m.end():min(ends) if ends else len(text)]
            if "override" in rest or "virtual" in text[max(0, m.start() - 40):m.start(3)]:
                overrides.add(name)
            if path.startswith(DECLARING):
                declared_in.setdefault(name, path)
    return {name: path for name, path in declared_in.items()
            if name not in overrides and name not in NOT_TYPES
            and occurrences[name] <= declarations[name]}


def self_test():
    """The analysis finds a dead function and passes a used one (so the test can fail)."""
    files = {
        "lint/x/a.h": "// Used() is called below.\nint Used(int a);\nstd::string& Dead();\n"
                      "struct S : B { void Hook() override; };",
        "lint/x/a.cpp": '#include "lint/x/a.h"\nint Used(int a) { return a; }\n'
                        'std::string& Dead() { static std::string s = "Dead()"; return s; }\n'
                        "void S::Hook() {}\nint Caller() { return 1 && Used(2); }",
        "tests/x_test.cpp": "TEST(X, Y) { EXPECT_EQ(Caller(), 1); }",
    }
    found = dead_functions(files)
    return sorted(found) == ["Dead"], found


def sources(root):
    for folder in SOURCE_FOLDERS:
        for base, dirs, names in os.walk(os.path.join(root, folder)):
            dirs[:] = [d for d in dirs if d not in ("fixtures", "data")]
            for name in names:
                if name.endswith((".h", ".cpp", ".cc")):
                    path = os.path.join(base, name)
                    yield os.path.relpath(path, root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    ok, found = self_test()
    if not ok:
        print(f"self-test: expected exactly Dead, found {sorted(found)}")
        return 1
    files = {}
    for path in sources(root):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            files[path] = f.read()
    if len(files) < 500:
        print(f"only {len(files)} files read under {root}: not the repository")
        return 1
    dead = dead_functions(files)
    failures = [f"{path}: {name} is declared but used nowhere (remove it)"
                for name, path in sorted(dead.items(), key=lambda item: (item[1], item[0]))
                if name not in LEFT]
    for name in sorted(LEFT - set(dead)):
        print(f"note: {name} is no longer dead or gone; take it out of LEFT")
    for line in failures:
        print(line)
    if failures:
        return 1
    print(f"{len(files)} files: every declared function is used"
          + (f" (left for now: {', '.join(sorted(LEFT & set(dead)))})" if LEFT & set(dead) else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
