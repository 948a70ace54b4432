"""Finds the metric names and label names a PromQL expression uses, without evaluating it.

Not a full parser (promtool is the judge of syntax): a tokenizer and a walk that knows
enough of the grammar to tell a metric name from everything else that looks like an
identifier — function and aggregation names, keywords (`by`, `on`, `group_left`, `bool`,
`and`, `offset`…, case-insensitive as in PromQL), label names inside `{}` and in
by/without/on/ignoring/group_left/group_right lists, string literals, numbers (`Inf`,
`NaN`, `1e-7`, `0x1f`), durations and subquery ranges (`[5m:1m]`), and comments.
`{__name__="x"}` counts as metric `x`. The destination labels of label_replace/label_join
and the label of count_values are reported as labels the expression introduces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

__all__ = ["PromQLError", "Selector", "Analysis", "analyze", "legend_labels",
           "split_grafana_variable_query"]


class PromQLError(ValueError):
    pass


@dataclass
class Selector:
    name: Optional[str]  # None when the name is only matched by a regex on __name__
    labels: List[str]    # label names of the matchers, __name__ excluded
    pos: int


@dataclass
class Analysis:
    selectors: List[Selector] = field(default_factory=list)
    grouping_labels: List[str] = field(default_factory=list)
    introduced_labels: List[str] = field(default_factory=list)
    functions: List[str] = field(default_factory=list)

    @property
    def metric_names(self) -> List[str]:
        return [s.name for s in self.selectors if s.name]


AGGREGATORS = {"sum", "avg", "count", "min", "max", "group", "stddev", "stdvar", "topk",
               "bottomk", "quantile", "count_values", "limitk", "limit_ratio"}
BINARY_KEYWORDS = {"and", "or", "unless", "atan2", "bool"}
GROUPING_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right"}
NUMBER_WORDS = {"inf", "nan"}

_DURATION = r"(?:[0-9]+(?:ms|[smhdwy]))+"
_TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`)
  | (?P<duration>""" + _DURATION + r"""(?![A-Za-z0-9_:.]))
  | (?P<number>(?:0[xX][0-9a-fA-F]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)(?![A-Za-z0-9_:]))
  | (?P<ident>[A-Za-z_:][A-Za-z0-9_:]*)
  | (?P<matchop>=~|!~|!=|==|<=|>=|=)
  | (?P<op>[-+*/%^<>@])
  | (?P<punct>[(){}\[\],])
""", re.VERBOSE)

_RANGE_RE = re.compile(r"^\s*(?:" + _DURATION + r")\s*(?::\s*(?:" + _DURATION + r")?\s*)?$")


@dataclass
class _Tok:
    kind: str
    text: str
    pos: int


def _tokenize(expr: str) -> List[_Tok]:
    toks: List[_Tok] = []
    i = 0
    while i < len(expr):
        if expr[i] == "[":
            # A range or a subquery: [5m], [1h:30s], [5m:]. Checked here, since inside the
            # brackets `:1m` is not an identifier.
            j = expr.find("]", i)
            if j < 0:
                raise PromQLError(f"unclosed [ at {i}")
            if not _RANGE_RE.match(expr[i + 1:j]):
                raise PromQLError(f"not a range or subquery duration: {expr[i:j + 1]!r} at {i}")
            toks.append(_Tok("range", expr[i:j + 1], i))
            i = j + 1
            continue
        m = _TOKEN_RE.match(expr, i)
        if not m:
            raise PromQLError(f"unexpected character {expr[i]!r} at {i}")
        kind = m.lastgroup or ""
        if kind not in ("ws", "comment"):
            toks.append(_Tok(kind, m.group(0), i))
        i = m.end()
    return toks


def _unquote(s: str) -> str:
    if s[0] == "`":
        return s[1:-1]
    body = s[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def analyze(expr: str) -> Analysis:
    """The selectors, grouping labels, introduced labels and functions of a PromQL expr."""
    toks = _tokenize(expr)
    out = Analysis()
    # Stack of open parentheses: ("call", function name, argument index) or ("paren",).
    stack: List[list] = []
    i = 0
    n = len(toks)

    def peek(k: int) -> Optional[_Tok]:
        return toks[k] if k < n else None

    def label_list(k: int, what: str) -> int:
        """Reads `( label, label … )` starting at toks[k] == '('; returns the index after."""
        if not (peek(k) and toks[k].text == "("):
            raise PromQLError(f"expected ( after {what} at {toks[k - 1].pos}")
        k += 1
        while True:
            t = peek(k)
            if t is None:
                raise PromQLError(f"unclosed label list after {what}")
            if t.text == ")":
                return k + 1
            if t.kind != "ident":
                raise PromQLError(f"expected a label name in {what}(…), got {t.text!r} at {t.pos}")
            out.grouping_labels.append(t.text)
            k += 1
            if peek(k) and toks[k].text == ",":
                k += 1

    def matchers(k: int, name: Optional[str], pos: int) -> int:
        """Reads `{ label op "value", … }` starting at toks[k] == '{'."""
        labels: List[str] = []
        k += 1
        while True:
            t = peek(k)
            if t is None:
                raise PromQLError(f"unclosed {{ at {pos}")
            if t.text == "}":
                k += 1
                break
            op, val = peek(k + 1), peek(k + 2)
            if t.kind != "ident" or op is None or op.kind != "matchop" or op.text == "==" \
                    or val is None or val.kind != "string":
                raise PromQLError(f"malformed label matcher at {t.pos}")
            if t.text == "__name__":
                if op.text == "=":
                    if name is not None:
                        raise PromQLError(f"metric name given twice at {t.pos}")
                    name = _unquote(val.text)
            else:
                labels.append(t.text)
            k += 3
            if peek(k) and toks[k].text == ",":
                k += 1
        out.selectors.append(Selector(name, labels, pos))
        return k

    while i < n:
        t = toks[i]
        nxt = peek(i + 1)
        if t.kind == "ident":
            low = t.text.lower()
            if low in BINARY_KEYWORDS:
                i += 1
            elif low in GROUPING_KEYWORDS:
                if nxt is not None and nxt.text == "(":
                    i = label_list(i + 1, t.text)
                elif low in ("group_left", "group_right"):
                    i += 1
                else:
                    raise PromQLError(f"expected ( after {t.text} at {t.pos}")
            elif low == "offset":
                i += 1
                if peek(i) and toks[i].text == "-":
                    i += 1
                if not (peek(i) and toks[i].kind == "duration"):
                    raise PromQLError(f"expected a duration after offset at {t.pos}")
                i += 1
            elif nxt is not None and nxt.text == "(":
                out.functions.append(t.text)
                stack.append(["call", t.text, 0])
                i += 2
            elif low in AGGREGATORS and nxt is not None and nxt.kind == "ident" \
                    and nxt.text.lower() in ("by", "without"):
                out.functions.append(t.text)
                i = label_list(i + 2, nxt.text)
                if not (peek(i) and toks[i].text == "("):
                    raise PromQLError(f"expected ( after {t.text} … ({nxt.text} …)")
                stack.append(["call", t.text, 0])
                i += 1
            elif low in NUMBER_WORDS:
                i += 1
            else:
                if nxt is not None and nxt.text == "{":
                    i = matchers(i + 1, t.text, t.pos)
                else:
                    out.selectors.append(Selector(t.text, [], t.pos))
                    i += 1
        elif t.text == "{":
            i = matchers(i, None, t.pos)
        elif t.text == "(":
            stack.append(["paren"])
            i += 1
        elif t.text == ")":
            if not stack:
                raise PromQLError(f"unbalanced ) at {t.pos}")
            stack.pop()
            i += 1
        elif t.text == ",":
            if not stack or stack[-1][0] != "call":
                raise PromQLError(f"unexpected , at {t.pos}")
            stack[-1][2] += 1
            i += 1
        elif t.kind == "string":
            if stack and stack[-1][0] == "call":
                fn, arg = stack[-1][1], stack[-1][2]
                if (fn in ("label_replace", "label_join") and arg == 1) or \
                        (fn == "count_values" and arg == 0):
                    out.introduced_labels.append(_unquote(t.text))
            i += 1
        elif t.text == "}" or t.text == "]":
            raise PromQLError(f"unbalanced {t.text} at {t.pos}")
        else:
            i += 1
    if stack:
        raise PromQLError("unclosed (")
    return out


_LEGEND_RE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def legend_labels(legend: str) -> List[str]:
    """Label names a Grafana legend format uses ({{netdev}}); `__auto` uses none."""
    return _LEGEND_RE.findall(legend or "")


def split_grafana_variable_query(query: str) -> Tuple[Optional[str], Optional[str]]:
    """A Prometheus template-variable query as (PromQL expression, label) to check.

    label_values(expr, label) -> (expr, label); label_values(label) -> (None, label);
    query_result(expr) -> (expr, None); metrics(regex) / label_names() -> (None, None).
    """
    q = query.strip()
    m = re.match(r"^label_values\s*\((.*)\)\s*$", q, re.S)
    if m:
        inner = m.group(1).strip()
        depth = 0
        quote = None
        split_at = -1
        for k, c in enumerate(inner):
            if quote:
                if c == "\\":
                    continue
                if c == quote:
                    quote = None
            elif c in "\"'`":
                quote = c
            elif c in "({[":
                depth += 1
            elif c in ")}]":
                depth -= 1
            elif c == "," and depth == 0:
                split_at = k
        if split_at < 0:
            return None, inner
        return inner[:split_at].strip(), inner[split_at + 1:].strip()
    m = re.match(r"^query_result\s*\((.*)\)\s*$", q, re.S)
    if m:
        return m.group(1).strip(), None
    if re.match(r"^(metrics|label_names)\s*\(", q):
        return None, None
    return q, None
