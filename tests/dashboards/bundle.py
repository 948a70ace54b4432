"""Loads the monitoring bundle (dashboards, rules, their tests) and the metric catalogue for
the checks in check_bundle.py. Python 3 standard library only."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import yaml_subset
from promql import split_grafana_variable_query

# ROCEWATCH_SOURCE_DIR points the checks at another copy of the tree (used to test the checks).
REPO = Path(os.environ.get("ROCEWATCH_SOURCE_DIR") or Path(__file__).resolve().parents[2])
DASHBOARD_DIR = REPO / "dashboards" / "grafana"
RULES_DIR = REPO / "dashboards" / "prometheus"
RULE_TESTS_DIR = RULES_DIR / "tests"
EXAMPLES_DIR = REPO / "dashboards" / "examples"
CATALOGUE = REPO / "docs" / "metrics.md"
CATALOGUE_JSON = REPO / "docs" / "metrics.json"
RUNBOOK = REPO / "docs" / "runbook.md"

# Labels every scraped series has (instance, job) or may have (cluster, a target label).
TARGET_LABELS = {"instance", "job", "cluster"}
# Series Prometheus makes itself, with their labels.
PROMETHEUS_SERIES = {"up": set()}

# Values that stand in for the dashboards' template variables when an expression is checked.
PLAUSIBLE_VALUES = {
    "cluster": "demo", "instance": "node01:9879", "device": "mlx5_0",
    "netdev": "ens1f0np0", "priority": "3", "node": "node01", "check": "qos.pfc-priorities",
    "severity": "error", "lane": "1",
}
GRAFANA_BUILTINS = {
    "__rate_interval": "5m", "__interval": "1m", "__range": "1h", "__range_s": "3600",
    "__range_ms": "3600000", "__interval_ms": "60000",
}


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


# ---------------------------------------------------------------------------------------------
# The metric catalogue
# ---------------------------------------------------------------------------------------------

_NAME_RE = re.compile(r"`([a-zA-Z_:][a-zA-Z0-9_:]*)`")


def read_catalogue(path: Path = CATALOGUE) -> Dict[str, Set[str]]:
    """Metric name -> label names. The exporter's families come from docs/metrics.json (the
    machine-readable catalogue, `roce_exporter catalogue`); the rest (roce-lint serve's own
    roce_lint_* series, prometheus-cpp's exposer_*) from the tables of docs/metrics.md (rows
    `| \\`name\\` | type | labels | meaning |`), read as tests/exporter/catalogue_test.cpp does."""
    rows: Dict[str, Set[str]] = {}
    if path == CATALOGUE and CATALOGUE_JSON.exists():
        for m in json.loads(CATALOGUE_JSON.read_text(encoding="utf-8"))["metrics"]:
            rows[m["name"]] = set(m["labels"])
    exporter_names = set(rows)
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| `"):
            continue
        cells = line.split("|")
        if len(cells) < 5:
            continue
        m = _NAME_RE.search(cells[1])
        if not m:
            continue
        if m.group(1) in exporter_names:
            continue  # docs/metrics.md's row is checked against the JSON by catalogue_test
        rows[m.group(1)] = set(_NAME_RE.findall(cells[3]))
    return rows


# ---------------------------------------------------------------------------------------------
# Expressions of the bundle
# ---------------------------------------------------------------------------------------------

@dataclass
class Expr:
    where: str                 # "dashboards/grafana/x.json: panel 'Title' (id 3), target A"
    raw: str                   # as written
    expr: str                  # template variables replaced by plausible values
    kind: str                  # panel | variable | record | alert
    legend: Optional[str] = None
    rule: Optional[Dict[str, Any]] = None
    variable_label: Optional[str] = None
    static_labels: Set[str] = field(default_factory=set)


class TemplateError(ValueError):
    pass


_VAR_RE = re.compile(r"\$\{([A-Za-z0-9_]+)(?::[A-Za-z0-9_]+)?\}|\[\[([A-Za-z0-9_]+)(?::[A-Za-z0-9_]+)?\]\]"
                     r"|\$([A-Za-z0-9_]+)")


def substitute(text: str, variables: Set[str]) -> Tuple[str, List[str]]:
    """Replaces Grafana variables with plausible values; returns (text, unknown names)."""
    unknown: List[str] = []

    def repl(m: re.Match) -> str:
        name = m.group(1) or m.group(2) or m.group(3)
        if name in GRAFANA_BUILTINS:
            return GRAFANA_BUILTINS[name]
        if name not in variables:
            unknown.append(name)
            return m.group(0)
        return PLAUSIBLE_VALUES.get(name, "x")

    return _VAR_RE.sub(repl, text), unknown


def load_dashboards() -> Dict[Path, Dict[str, Any]]:
    out = {}
    for path in sorted(DASHBOARD_DIR.glob("*.json")):
        out[path] = json.loads(path.read_text(encoding="utf-8"))
    return out


def iter_panels(panels: List[Dict[str, Any]]) -> Iterator[Dict[str, Any]]:
    for p in panels or []:
        yield p
        if p.get("type") == "row":
            yield from iter_panels(p.get("panels", []))


def variable_query(var: Dict[str, Any]) -> Optional[str]:
    q = var.get("query")
    if isinstance(q, dict):
        q = q.get("query")
    return q if isinstance(q, str) else None


def dashboard_exprs(path: Path, dash: Dict[str, Any]) -> Tuple[List[Expr], List[str]]:
    """Every PromQL expression of a dashboard (panel targets and query variables), and the
    problems met while substituting template variables."""
    problems: List[str] = []
    variables = {v.get("name") for v in dash.get("templating", {}).get("list", [])}
    out: List[Expr] = []
    name = rel(path)
    for var in dash.get("templating", {}).get("list", []):
        if var.get("type") != "query":
            continue
        q = variable_query(var) or ""
        expr, label = split_grafana_variable_query(q)
        where = f"{name}: variable ${var.get('name')}"
        if expr is None:
            continue
        sub, unknown = substitute(expr, variables)
        for u in unknown:
            problems.append(f"{where}: uses undefined variable ${u}")
        out.append(Expr(where, expr, sub, "variable", variable_label=label))
    for panel in iter_panels(dash.get("panels", [])):
        if panel.get("type") == "row":
            continue
        for t in panel.get("targets", []) or []:
            where = (f"{name}: panel {panel.get('title')!r} (id {panel.get('id')}), "
                     f"target {t.get('refId')}")
            raw = t.get("expr")
            if not isinstance(raw, str):
                continue
            sub, unknown = substitute(raw, variables)
            for u in unknown:
                problems.append(f"{where}: uses undefined variable ${u}")
            out.append(Expr(where, raw, sub, "panel", legend=t.get("legendFormat")))
    return out, problems


def rule_files() -> List[Path]:
    return sorted(RULES_DIR.glob("*rules*.yml"))


def load_rules(path: Path) -> Dict[str, Any]:
    return yaml_subset.load(path.read_text(encoding="utf-8"), rel(path))


def rule_exprs() -> List[Expr]:
    out: List[Expr] = []
    for path in rule_files():
        doc = load_rules(path)
        for group in doc.get("groups", []) or []:
            for i, rule in enumerate(group.get("rules", []) or []):
                kind = "alert" if "alert" in rule else "record"
                where = (f"{rel(path)}: group {group.get('name')!r}, rule {i + 1} "
                         f"({kind} {rule.get(kind)!r})")
                out.append(Expr(where, rule["expr"], rule["expr"], kind, rule=rule,
                                static_labels=set((rule.get("labels") or {}).keys())))
    return out


def rule_test_files() -> List[Path]:
    return sorted(RULE_TESTS_DIR.glob("*.yml"))


def runbook_anchors(path: Path = RUNBOOK) -> Dict[str, str]:
    """GitHub-style anchors of the runbook's headings -> heading text."""
    anchors: Dict[str, str] = {}
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if in_code or not m:
            continue
        text = m.group(2)
        anchor = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        base, k = anchor, 1
        while anchor in anchors:
            anchor = f"{base}-{k}"
            k += 1
        anchors[anchor] = text
    return anchors
