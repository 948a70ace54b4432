"""A reader for the subset of YAML that Prometheus rule files and promtool tests use.

Python's standard library has no YAML parser, and the checks of the monitoring bundle must
run without third-party packages. Rule files need little of YAML: block mappings and block
sequences, plain / single-quoted / double-quoted scalars on one line, literal and folded
block scalars (| |- > >-), comments, and the empty flow collections [] and {}. Anything
else (anchors, tags, multi-line plain or quoted scalars, flow collections with content
beyond simple scalars, multiple documents) is rejected with the file and line, rather than
read wrongly. The checks also compare what this reader finds with what promtool finds (the
number of rules), so a misreading cannot pass unnoticed.
"""

from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

__all__ = ["YamlError", "load"]


class YamlError(ValueError):
    pass


_KEY_RE = re.compile(r"""^(?P<key>[^\s'"#\-\[\]{}][^:#]*?|"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*:(?:\s+|$)""")
_INT_RE = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
_FLOAT_RE = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_blank(line: str) -> bool:
    s = line.strip()
    return s == "" or s.startswith("#")


def _strip_comment(text: str) -> str:
    """Drops a trailing ` # comment` outside quotes."""
    quote = None
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if quote == '"' and c == "\\":
                i += 2
                continue
            if c == quote:
                if quote == "'" and i + 1 < len(text) and text[i + 1] == "'":
                    i += 2
                    continue
                quote = None
        elif c in "'\"" and (i == 0 or text[i - 1] in " \t[,{:"):
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
        i += 1
    return text.rstrip()


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "/": "/",
            " ": " ", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v"}


class _Parser:
    def __init__(self, text: str, name: str) -> None:
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()  # the newline that ends the last line opens no new one
        for n, line in enumerate(self.lines):
            if line[:len(line) - len(line.lstrip())].count("\t"):
                raise YamlError(f"{name}:{n + 1}: tab in indentation")
        self.name = name
        self.pos = 0

    def error(self, msg: str, line: Optional[int] = None) -> YamlError:
        n = (self.pos if line is None else line) + 1
        return YamlError(f"{self.name}:{n}: {msg}")

    def skip_blank(self) -> None:
        while self.pos < len(self.lines) and _is_blank(self.lines[self.pos]):
            self.pos += 1

    def eof(self) -> bool:
        self.skip_blank()
        return self.pos >= len(self.lines)

    # -- nodes -----------------------------------------------------------------------------

    def parse_document(self) -> Any:
        if self.eof():
            return None
        line = self.lines[self.pos]
        if line.strip() in ("---",):
            self.pos += 1
            if self.eof():
                return None
        value = self.parse_node(_indent(self.lines[self.pos]))
        if not self.eof():
            raise self.error("unexpected content (wrong indentation?)")
        return value

    def parse_node(self, indent: int) -> Any:
        self.skip_blank()
        content = self.lines[self.pos][indent:]
        if content.startswith("- ") or content.rstrip() == "-":
            return self.parse_seq(indent)
        if _KEY_RE.match(content):
            return self.parse_map(indent)
        # A lone scalar at block level (the value of a key on the next line).
        value = self.parse_inline(_strip_comment(content.strip()), self.pos)
        self.pos += 1
        return value

    def parse_map(self, indent: int) -> dict:
        out: dict = {}
        while not self.eof():
            line = self.lines[self.pos]
            ind = _indent(line)
            if ind < indent:
                break
            if ind > indent:
                raise self.error(f"unexpected indentation {ind} (expected {indent})")
            content = line[indent:]
            if content.startswith("- "):
                break
            m = _KEY_RE.match(content)
            if not m:
                raise self.error("expected `key: value`")
            key = m.group("key").strip()
            if key[0] in "'\"":
                key = self.parse_inline(key, self.pos)
            if key in out:
                raise self.error(f"duplicate key {key!r}")
            rest = content[m.end():]
            key_line = self.pos
            self.pos += 1
            out[key] = self.parse_value(rest, indent, key_line)
        return out

    def parse_value(self, rest: str, indent: int, line_no: int) -> Any:
        rest_nc = _strip_comment(rest).strip()
        if rest_nc.startswith(("|", ">")):
            return self.parse_block_scalar(rest_nc, indent, line_no)
        if rest_nc.startswith(("&", "*", "!")):
            raise self.error("anchors, aliases and tags are not supported", line_no)
        if rest_nc == "":
            if self.eof():
                return None
            nxt = self.lines[self.pos]
            ind = _indent(nxt)
            if ind > indent:
                return self.parse_node(ind)
            if ind == indent and (nxt[ind:].startswith("- ") or nxt[ind:].rstrip() == "-"):
                return self.parse_seq(indent)
            return None
        value = self.parse_inline(rest_nc, line_no)
        # A plain scalar continued on the next, deeper line is not supported.
        save = self.pos
        if not self.eof() and _indent(self.lines[self.pos]) > indent:
            raise self.error("multi-line scalars are not supported (use | or >)", self.pos)
        self.pos = save
        return value

    def parse_seq(self, indent: int) -> list:
        out: list = []
        while not self.eof():
            line = self.lines[self.pos]
            ind = _indent(line)
            if ind < indent:
                break
            if ind > indent:
                raise self.error(f"unexpected indentation {ind} (expected {indent})")
            content = line[indent:]
            if not (content.startswith("- ") or content.rstrip() == "-"):
                break
            after = content[1:]
            body = after.lstrip(" ")
            if _strip_comment(body).strip() == "":
                self.pos += 1
                if self.eof() or _indent(self.lines[self.pos]) <= indent:
                    out.append(None)
                else:
                    out.append(self.parse_node(_indent(self.lines[self.pos])))
                continue
            item_indent = indent + 1 + (len(after) - len(body))
            if _KEY_RE.match(body) or body.startswith(("- ",)):
                # "- key: value" opens a mapping whose keys line up with `key`.
                self.lines[self.pos] = " " * item_indent + body
                out.append(self.parse_node(item_indent))
            else:
                line_no = self.pos
                self.pos += 1
                out.append(self.parse_value(body, indent, line_no))
        return out

    def parse_block_scalar(self, header: str, indent: int, line_no: int) -> str:
        m = re.match(r"^([|>])([-+]?)([1-9]?)([-+]?)$", header)
        if not m:
            raise self.error(f"unsupported block scalar header {header!r}", line_no)
        style = m.group(1)
        chomp = m.group(2) or m.group(4)
        if m.group(3):
            raise self.error("explicit indentation indicators are not supported", line_no)
        raw: List[str] = []
        block_indent = None
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            if line.strip() == "":
                raw.append("")
                self.pos += 1
                continue
            ind = _indent(line)
            if block_indent is None:
                if ind <= indent:
                    break
                block_indent = ind
            if ind < block_indent:
                break
            raw.append(line[block_indent:])
            self.pos += 1
        # Trailing blank lines belong to the chomping, not to the content.
        trailing = 0
        while raw and raw[-1] == "":
            raw.pop()
            trailing += 1
        if style == "|":
            text = "\n".join(raw)
        else:
            text = ""
            prev_more = False
            for i, l in enumerate(raw):
                more = l.startswith(" ")
                if i == 0:
                    text = l
                elif l == "":
                    text += "\n"
                elif raw[i - 1] == "" or more or prev_more:
                    text += ("" if raw[i - 1] == "" else "\n") + l
                else:
                    text += " " + l
                prev_more = more
        if not raw:
            return ""
        if chomp == "-":
            return text
        if chomp == "+":
            return text + "\n" * (1 + trailing)
        return text + "\n"

    # -- scalars ---------------------------------------------------------------------------

    def parse_inline(self, text: str, line_no: int) -> Any:
        if text.startswith('"'):
            value, end = self._double_quoted(text, line_no)
            if text[end:].strip():
                raise self.error(f"unexpected text after string: {text[end:]!r}", line_no)
            return value
        if text.startswith("'"):
            value, end = self._single_quoted(text, line_no)
            if text[end:].strip():
                raise self.error(f"unexpected text after string: {text[end:]!r}", line_no)
            return value
        if text.startswith("["):
            return self._flow_seq(text, line_no)
        if text.startswith("{"):
            if text.replace(" ", "") == "{}":
                return {}
            raise self.error("flow mappings are not supported", line_no)
        if text.startswith(("&", "*", "!", "%", "@", "`")):
            raise self.error(f"unsupported scalar {text!r}", line_no)
        return _plain(text)

    def _double_quoted(self, text: str, line_no: int) -> Tuple[str, int]:
        out = []
        i = 1
        while i < len(text):
            c = text[i]
            if c == "\\":
                if i + 1 >= len(text):
                    break
                e = text[i + 1]
                if e in _ESCAPES:
                    out.append(_ESCAPES[e])
                    i += 2
                elif e in "xuU":
                    n = {"x": 2, "u": 4, "U": 8}[e]
                    out.append(chr(int(text[i + 2:i + 2 + n], 16)))
                    i += 2 + n
                else:
                    raise self.error(f"unknown escape \\{e}", line_no)
                continue
            if c == '"':
                return "".join(out), i + 1
            out.append(c)
            i += 1
        raise self.error("unterminated double-quoted string (multi-line strings are not "
                         "supported)", line_no)

    def _single_quoted(self, text: str, line_no: int) -> Tuple[str, int]:
        out = []
        i = 1
        while i < len(text):
            c = text[i]
            if c == "'":
                if i + 1 < len(text) and text[i + 1] == "'":
                    out.append("'")
                    i += 2
                    continue
                return "".join(out), i + 1
            out.append(c)
            i += 1
        raise self.error("unterminated single-quoted string (multi-line strings are not "
                         "supported)", line_no)

    def _flow_seq(self, text: str, line_no: int) -> list:
        if not text.endswith("]"):
            raise self.error("flow sequence must end on its line", line_no)
        inner = text[1:-1].strip()
        if not inner:
            return []
        items = []
        i = 0
        while i < len(inner):
            while i < len(inner) and inner[i] == " ":
                i += 1
            if inner[i] == '"':
                v, end = self._double_quoted(inner[i:], line_no)
                i += end
            elif inner[i] == "'":
                v, end = self._single_quoted(inner[i:], line_no)
                i += end
            else:
                j = inner.find(",", i)
                j = len(inner) if j < 0 else j
                token = inner[i:j].strip()
                if any(ch in token for ch in "[]{}"):
                    raise self.error("nested flow collections are not supported", line_no)
                v = _plain(token)
                i = j
            items.append(v)
            while i < len(inner) and inner[i] == " ":
                i += 1
            if i < len(inner):
                if inner[i] != ",":
                    raise self.error("expected , in flow sequence", line_no)
                i += 1
        return items


def _plain(text: str) -> Any:
    if text in ("null", "Null", "NULL", "~", ""):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT_RE.match(text):
        return int(text)
    if _FLOAT_RE.match(text):
        return float(text)
    return text


def load(text: str, name: str = "<yaml>") -> Any:
    """Parses one YAML document of the supported subset; raises YamlError naming the line."""
    return _Parser(text, name).parse_document()
