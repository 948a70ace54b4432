#!/usr/bin/env python3
"""Checks of the monitoring bundle: Grafana dashboards, Prometheus rules, their tests.

    check_bundle.py dashboards       every dashboard loads and is importable: datasource
                                     variable, panels with datasource, targets, units, thresholds
    check_bundle.py promql           every PromQL expression of every panel, variable and rule
                                     parses (promtool check rules on a generated rules file)
    check_bundle.py names            every metric (and selector label) used is catalogued
    check_bundle.py alerts           every alert has severity, summary, description, a
                                     runbook_url whose anchor exists, a firing and a quiet test;
                                     every recording rule has a promql_expr_test
    check_bundle.py promtool-rules   promtool check rules (lint included) on the rule files
    check_bundle.py promtool-tests   promtool test rules on dashboards/prometheus/tests/*.yml
    check_bundle.py generated        the dashboards are what generate.py writes
    check_bundle.py examples         the example Prometheus/Alertmanager configs are valid
    check_bundle.py selftest         the PromQL name finder and the YAML reader on known input

Each prints what it checked, and exits 1 naming the file, dashboard/panel/rule and the
offending name or expression; 77 (ctest SKIP_RETURN_CODE) when promtool/amtool is missing.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Set

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bundle  # noqa: E402
import promql  # noqa: E402
import yaml_subset  # noqa: E402
from bundle import rel  # noqa: E402

SKIP = 77

# The alerts the bundle promises (issue 5). Removing one fails the `alerts` check.
REQUIRED_ALERTS = [
    "RoCEPortDown", "RoCELinkFlapping", "RoCEPFCPauseStorm", "RoCEPauseOnNonPFCPriority",
    "RoCEHighCNPRate", "RoCEDiscards", "RoCERetransmits", "RoCEOpticsRxPowerLow",
    "RoCEOpticsRxPowerHigh", "RoCEOpticsTxPowerLow", "RoCEOpticsTemperatureHigh",
    "RoCEPCIeDowngraded", "RoCEConfigDrift", "RoCEExporterDown", "RoCECollectorFailing",
    "RoCELintFailing", "RoCEGPUDirectACSRedirect", "RoCEPCIeAERErrors",
]
SEVERITIES = {"critical", "warning", "info"}
REQUIRED_DASHBOARDS = ["rocewatch-cluster-overview.json", "rocewatch-nic-detail.json",
                       "rocewatch-optics.json", "rocewatch-lint-findings.json",
                       "rocewatch-gpudirect.json"]
# Panels that show data and so must say what unit it is in, and draw thresholds.
UNIT_PANELS = {"timeseries", "stat", "bargauge", "gauge", "table"}
DATASOURCE_UID = "${datasource}"


class Report:
    def __init__(self, name: str) -> None:
        self.name = name
        self.errors: List[str] = []
        self.notes: List[str] = []

    def error(self, msg: str) -> None:
        self.errors.append(msg)

    def finish(self, summary: str) -> int:
        for n in self.notes:
            print(f"note: {n}")
        if self.errors:
            for e in self.errors:
                print(f"FAIL: {e}", file=sys.stderr)
            print(f"{self.name}: {len(self.errors)} problem(s)", file=sys.stderr)
            return 1
        print(f"{self.name}: OK, {summary}")
        return 0


def find_tool(name: str, given: Optional[str]) -> Optional[str]:
    if given:
        return given if Path(given).exists() or shutil.which(given) else None
    return shutil.which(name)


# ---------------------------------------------------------------------------------------------
# (a) dashboards
# ---------------------------------------------------------------------------------------------

def check_dashboards(args) -> int:
    r = Report("dashboards")
    files = {p.name for p in bundle.DASHBOARD_DIR.glob("*.json")}
    for required in REQUIRED_DASHBOARDS:
        if required not in files:
            r.error(f"{rel(bundle.DASHBOARD_DIR / required)}: missing")
    uids: Dict[str, str] = {}
    npanels = 0
    for path in sorted(bundle.DASHBOARD_DIR.glob("*.json")):
        name = rel(path)
        try:
            dash = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            r.error(f"{name}: not JSON: {e}")
            continue
        for key in ("title", "uid", "panels", "templating", "schemaVersion"):
            if key not in dash:
                r.error(f"{name}: no {key!r}")
        uid = dash.get("uid", "")
        if not isinstance(uid, str) or not re.match(r"^[A-Za-z0-9_-]{1,40}$", uid):
            r.error(f"{name}: uid {uid!r} is not 1-40 characters of [A-Za-z0-9_-]")
        elif uid in uids:
            r.error(f"{name}: uid {uid!r} also used by {uids[uid]}")
        else:
            uids[uid] = name
        if dash.get("id") is not None:
            r.error(f"{name}: `id` must be null for import")
        sv = dash.get("schemaVersion")
        if not isinstance(sv, int) or not 36 <= sv <= 39:
            r.error(f"{name}: schemaVersion {sv!r}: expected 36-39 (Grafana 9/10)")
        inputs = dash.get("__inputs", [])
        if not any(i.get("name") == "DS_PROMETHEUS" and i.get("type") == "datasource"
                   and i.get("pluginId") == "prometheus" for i in inputs):
            r.error(f"{name}: __inputs has no DS_PROMETHEUS datasource input for prometheus")
        variables = dash.get("templating", {}).get("list", [])
        names = [v.get("name") for v in variables]
        if len(set(names)) != len(names):
            r.error(f"{name}: template variables defined twice: {names}")
        ds_vars = [v for v in variables if v.get("type") == "datasource"]
        if not any(v.get("name") == "datasource" and v.get("query") == "prometheus"
                   for v in ds_vars):
            r.error(f"{name}: no template variable `datasource` of type datasource "
                    f"(query prometheus)")
        for v in variables:
            if v.get("type") == "query":
                ds = v.get("datasource") or {}
                if not isinstance(ds, dict) or ds.get("uid") != DATASOURCE_UID:
                    r.error(f"{name}: variable ${v.get('name')} does not read from "
                            f"{DATASOURCE_UID} (datasource {ds!r})")
                if not bundle.variable_query(v):
                    r.error(f"{name}: variable ${v.get('name')} has no query")
            if v.get("includeAll") and v.get("type") in ("query", "custom") \
                    and v.get("allValue") != ".*":
                r.error(f"{name}: variable ${v.get('name')} allows All but its allValue is "
                        f"{v.get('allValue')!r}, not '.*' (series without the label would "
                        f"not match)")
        if "cluster" not in names:
            r.error(f"{name}: no `cluster` template variable")
        ids: Set[int] = set()
        for panel in bundle.iter_panels(dash.get("panels", [])):
            npanels += 1
            title = panel.get("title")
            where = f"{name}: panel {title!r} (id {panel.get('id')})"
            pid = panel.get("id")
            if not isinstance(pid, int) or pid in ids:
                r.error(f"{where}: id missing or not unique")
            ids.add(pid)
            gp = panel.get("gridPos") or {}
            if not all(isinstance(gp.get(k), int) for k in ("h", "w", "x", "y")) \
                    or gp.get("x", 0) + gp.get("w", 0) > 24:
                r.error(f"{where}: bad gridPos {gp}")
            if panel.get("type") == "row":
                continue
            if not title:
                r.error(f"{where}: no title")
            ds = panel.get("datasource")
            if not isinstance(ds, dict) or ds.get("uid") != DATASOURCE_UID:
                r.error(f"{where}: datasource is {ds!r}, not the `datasource` variable")
            targets = panel.get("targets") or []
            if not targets:
                r.error(f"{where}: no targets")
            refs = set()
            for t in targets:
                if not isinstance(t.get("expr"), str) or not t["expr"].strip():
                    r.error(f"{where}: target {t.get('refId')} has no expr")
                if t.get("refId") in refs:
                    r.error(f"{where}: refId {t.get('refId')} twice")
                refs.add(t.get("refId"))
                tds = t.get("datasource")
                if tds is not None and (not isinstance(tds, dict)
                                        or tds.get("uid") != DATASOURCE_UID):
                    r.error(f"{where}: target {t.get('refId')} datasource is {tds!r}")
            if panel.get("type") in UNIT_PANELS:
                defaults = (panel.get("fieldConfig") or {}).get("defaults") or {}
                if not defaults.get("unit"):
                    r.error(f"{where}: no unit (fieldConfig.defaults.unit)")
                th = (defaults.get("thresholds") or {}).get("steps")
                if not th:
                    r.error(f"{where}: no thresholds")
                if panel.get("type") == "timeseries" and th and len(th) > 1:
                    mode = ((defaults.get("custom") or {}).get("thresholdsStyle") or {}) \
                        .get("mode", "off")
                    if mode == "off":
                        r.error(f"{where}: has thresholds {[s.get('value') for s in th]} but "
                                f"does not draw them (custom.thresholdsStyle.mode is off)")
            for link in ((panel.get("fieldConfig") or {}).get("defaults") or {}) \
                    .get("links", []) or []:
                m = re.match(r"^/d/([^/?]+)", link.get("url", ""))
                if m and m.group(1) not in {p.stem for p in bundle.DASHBOARD_DIR.glob("*.json")}:
                    r.error(f"{where}: data link to unknown dashboard uid {m.group(1)!r}")
        _, problems = bundle.dashboard_exprs(path, dash)
        for p in problems:
            r.error(p)
    return r.finish(f"{len(uids)} dashboards, {npanels} panels")


# ---------------------------------------------------------------------------------------------
# (b) every expression parses
# ---------------------------------------------------------------------------------------------

def _promtool_check(promtool: str, exprs: List[bundle.Expr], tmp: Path) -> subprocess.CompletedProcess:
    # JSON is YAML: no quoting problems with whatever the expressions contain.
    doc = {"groups": [{"name": "bundle-expressions", "rules": [
        {"record": f"bundle:expr_{i:04d}", "expr": e.expr} for i, e in enumerate(exprs)]}]}
    tmp.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return subprocess.run([promtool, "check", "rules", "--lint=none", str(tmp)],
                          capture_output=True, text=True)


def check_promql(args) -> int:
    r = Report("promql")
    promtool = find_tool("promtool", args.promtool)
    if not promtool:
        print("SKIPPED: promtool not found (install the Debian package prometheus)")
        return SKIP
    exprs: List[bundle.Expr] = []
    for path, dash in bundle.load_dashboards().items():
        found, problems = bundle.dashboard_exprs(path, dash)
        exprs += found
        for p in problems:
            r.error(p)
    exprs += bundle.rule_exprs()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d) / "expressions.yml"
        res = _promtool_check(promtool, exprs, tmp)
        if res.returncode != 0:
            # Find the culprits one by one, so the message names them.
            for e in exprs:
                one = _promtool_check(promtool, [e], tmp)
                if one.returncode != 0:
                    msg = (one.stdout + one.stderr).strip().splitlines()
                    detail = next((l.strip() for l in msg if "parse" in l or "error" in l.lower()),
                                  msg[-1] if msg else "")
                    r.error(f"{e.where}: does not parse: {detail}\n    expr: {e.expr}")
            if not r.errors:
                r.error(f"promtool check rules failed on the generated file:\n"
                        f"{res.stdout}{res.stderr}")
    return r.finish(f"{len(exprs)} expressions parse "
                    f"({sum(e.kind in ('panel', 'variable') for e in exprs)} from dashboards, "
                    f"{sum(e.kind in ('record', 'alert') for e in exprs)} from rules)")


# ---------------------------------------------------------------------------------------------
# (c) every metric name is catalogued
# ---------------------------------------------------------------------------------------------

def known_metrics() -> Dict[str, Set[str]]:
    known: Dict[str, Set[str]] = {}
    known.update(bundle.read_catalogue())
    known.update(bundle.PROMETHEUS_SERIES)
    return known


def _expr_labels(a: promql.Analysis, known: Dict[str, Set[str]]) -> Set[str]:
    labels = set(bundle.TARGET_LABELS) | set(a.introduced_labels)
    for s in a.selectors:
        labels |= known.get(s.name or "", set())
    return labels


def check_names(args) -> int:
    r = Report("names")
    known = known_metrics()
    if len(known) < 40:
        r.error(f"{rel(bundle.CATALOGUE)}: only {len(known)} metrics read; is the table "
                f"format still `| \\`name\\` | type | labels | meaning |`?")
    exprs: List[bundle.Expr] = bundle.rule_exprs()
    # Recording rules first, in file order: their names and labels become known.
    for e in exprs:
        if e.kind != "record":
            continue
        try:
            a = promql.analyze(e.expr)
        except promql.PromQLError as err:
            r.error(f"{e.where}: cannot read expression: {err}")
            continue
        name = e.rule["record"]
        known[name] = known.get(name, set()) | _expr_labels(a, known) | e.static_labels
    for path, dash in bundle.load_dashboards().items():
        found, _ = bundle.dashboard_exprs(path, dash)
        exprs += found
    metrics_used: Set[str] = set()
    for e in exprs:
        try:
            a = promql.analyze(e.expr)
        except promql.PromQLError as err:
            r.error(f"{e.where}: cannot read expression: {err}\n    expr: {e.expr}")
            continue
        for s in a.selectors:
            if s.name is None:
                r.error(f"{e.where}: selector without a fixed metric name")
                continue
            metrics_used.add(s.name)
            if s.name not in known:
                r.error(f"{e.where}: metric {s.name!r} is not in {rel(bundle.CATALOGUE)}"
                        ", not a recording rule of the bundle, nor `up`")
                continue
            allowed = known[s.name] | bundle.TARGET_LABELS
            for label in s.labels:
                if label not in allowed:
                    r.error(f"{e.where}: {s.name} has no label {label!r} "
                            f"(it has {', '.join(sorted(known[s.name])) or 'none'})")
        if not a.selectors:
            continue
        possible = _expr_labels(a, known) | e.static_labels
        for label in a.grouping_labels:
            if label not in possible:
                r.error(f"{e.where}: groups or joins on label {label!r}, which none of "
                        f"{', '.join(sorted(set(a.metric_names)))} has")
        for label in promql.legend_labels(e.legend or ""):
            if label not in possible:
                r.error(f"{e.where}: legend uses {{{{{label}}}}}, which none of "
                        f"{', '.join(sorted(set(a.metric_names)))} has")
        if e.variable_label and e.variable_label not in possible:
            r.error(f"{e.where}: label_values of {e.variable_label!r}, which none of "
                    f"{', '.join(sorted(set(a.metric_names)))} has")
    return r.finish(f"{len(exprs)} expressions use {len(metrics_used)} metrics, all catalogued")


# ---------------------------------------------------------------------------------------------
# (f) alert conventions and test coverage
# ---------------------------------------------------------------------------------------------

_TEMPLATE_LABEL_RE = re.compile(r"\$labels\.([A-Za-z_][A-Za-z0-9_]*)")
_DURATION_RE = re.compile(r"^([0-9]+(ms|s|m|h|d|w|y))+$")


def check_alerts(args) -> int:
    r = Report("alerts")
    known = known_metrics()
    r.notes.clear()
    anchors = bundle.runbook_anchors() if bundle.RUNBOOK.exists() else {}
    if not bundle.RUNBOOK.exists():
        r.error(f"{rel(bundle.RUNBOOK)}: missing")
    alerts: Dict[str, List[bundle.Expr]] = {}
    records: List[str] = []
    for e in bundle.rule_exprs():
        a = promql.analyze(e.expr)
        if e.kind == "record":
            known[e.rule["record"]] = known.get(e.rule["record"], set()) \
                | _expr_labels(a, known) | e.static_labels
            records.append(e.rule["record"])
            continue
        rule = e.rule
        alerts.setdefault(rule["alert"], []).append(e)
        labels = rule.get("labels") or {}
        ann = rule.get("annotations") or {}
        if labels.get("severity") not in SEVERITIES:
            r.error(f"{e.where}: severity {labels.get('severity')!r} is not one of "
                    f"{sorted(SEVERITIES)}")
        for key in ("summary", "description", "runbook_url"):
            if not str(ann.get(key) or "").strip():
                r.error(f"{e.where}: no {key} annotation")
        url = str(ann.get("runbook_url") or "")
        m = re.match(r"^docs/runbook\.md#([a-z0-9_-]+)$", url)
        if not m:
            r.error(f"{e.where}: runbook_url {url!r} is not docs/runbook.md#<anchor>")
        elif m.group(1) != rule["alert"].lower():
            r.error(f"{e.where}: runbook_url anchor {m.group(1)!r} is not the alert's name "
                    f"({rule['alert'].lower()!r})")
        elif anchors and m.group(1) not in anchors:
            r.error(f"{e.where}: {rel(bundle.RUNBOOK)} has no section #{m.group(1)}")
        if "for" in rule and not _DURATION_RE.match(str(rule["for"])):
            r.error(f"{e.where}: for {rule['for']!r} is not a duration")
        possible = _expr_labels(a, known) | set(labels)
        for key, text in list(ann.items()) + list(labels.items()):
            for label in _TEMPLATE_LABEL_RE.findall(str(text)):
                if label not in possible:
                    r.error(f"{e.where}: {key} uses $labels.{label}, which the expression "
                            f"does not have")
    for name in REQUIRED_ALERTS:
        if name not in alerts:
            r.error(f"alert {name} is missing from the rules")
    # Sections of the runbook that look like alerts must be alerts.
    for anchor, text in anchors.items():
        if re.match(r"^RoCE[A-Za-z]+$", text) and text not in alerts:
            r.error(f"{rel(bundle.RUNBOOK)}: section {text!r} documents no alert of the rules")

    firing: Dict[str, int] = {}
    quiet: Dict[str, int] = {}
    tested_records: Set[str] = set()
    for path in bundle.rule_test_files():
        try:
            doc = yaml_subset.load(path.read_text(encoding="utf-8"), rel(path))
        except yaml_subset.YamlError as err:
            r.error(str(err))
            continue
        for test in doc.get("tests", []) or []:
            # A firing case: the alert fires at some evaluation. A quiet case: a test (one set
            # of input series, the healthy one) in which the alert never fires; a pending
            # evaluation inside a firing test does not count.
            fires_here: Dict[str, bool] = {}
            for case in test.get("alert_rule_test", []) or []:
                name = case.get("alertname")
                if name not in alerts:
                    r.error(f"{rel(path)}: test {test.get('name')!r} tests unknown alert {name!r}")
                fires_here[name] = fires_here.get(name, False) or bool(case.get("exp_alerts"))
            for name, fires in fires_here.items():
                if fires:
                    firing[name] = firing.get(name, 0) + 1
                else:
                    quiet[name] = quiet.get(name, 0) + 1
            for case in test.get("promql_expr_test", []) or []:
                try:
                    a = promql.analyze(case.get("expr", ""))
                except promql.PromQLError:
                    continue
                tested_records |= set(a.metric_names)
    for name in sorted(alerts):
        if not firing.get(name):
            r.error(f"alert {name}: no promtool test where it fires "
                    f"(alert_rule_test with exp_alerts in {rel(bundle.RULE_TESTS_DIR)})")
        if not quiet.get(name):
            r.error(f"alert {name}: no promtool test where it stays quiet (a test whose "
                    f"alert_rule_test cases for it all have exp_alerts: [])")
    for name in sorted(set(records)):
        if name not in tested_records:
            r.error(f"recording rule {name}: no promql_expr_test checks it")
    return r.finish(f"{len(alerts)} alerts ({sum(len(v) for v in alerts.values())} rules), "
                    f"{len(set(records))} recording names, each tested; runbook anchors exist")


# ---------------------------------------------------------------------------------------------
# (d), (e) promtool
# ---------------------------------------------------------------------------------------------

def check_promtool_rules(args) -> int:
    r = Report("promtool-rules")
    promtool = find_tool("promtool", args.promtool)
    if not promtool:
        print("SKIPPED: promtool not found (install the Debian package prometheus)")
        return SKIP
    files = bundle.rule_files()
    if not files:
        r.error(f"no *rules*.yml in {rel(bundle.RULES_DIR)}")
        return r.finish("")
    total = 0
    for path in files:
        res = subprocess.run([promtool, "check", "rules", str(path)], capture_output=True,
                             text=True)
        out = res.stdout + res.stderr
        if res.returncode != 0:
            r.error(f"{rel(path)}: promtool check rules failed:\n{out}")
            continue
        m = re.search(r"SUCCESS: (\d+) rules found", out)
        mine = sum(len(g.get("rules", []) or [])
                   for g in bundle.load_rules(path).get("groups", []))
        total += mine
        if not m or int(m.group(1)) != mine:
            r.error(f"{rel(path)}: promtool found {m.group(1) if m else '?'} rules, the checks "
                    f"read {mine}: the YAML reader of tests/dashboards misreads the file")
    return r.finish(f"{len(files)} rule file(s), {total} rules, lint clean")


def check_promtool_tests(args) -> int:
    r = Report("promtool-tests")
    promtool = find_tool("promtool", args.promtool)
    if not promtool:
        print("SKIPPED: promtool not found (install the Debian package prometheus)")
        return SKIP
    files = bundle.rule_test_files()
    if not files:
        r.error(f"no tests in {rel(bundle.RULE_TESTS_DIR)}")
        return r.finish("")
    # promtool resolves rule_files relative to the test file's directory.
    res = subprocess.run([promtool, "test", "rules"] + [p.name for p in files],
                         cwd=bundle.RULE_TESTS_DIR, capture_output=True, text=True)
    if res.returncode != 0:
        r.error(f"promtool test rules failed:\n{res.stdout}{res.stderr}")
    return r.finish(f"{len(files)} test files pass")


# ---------------------------------------------------------------------------------------------
# generated dashboards, example configs
# ---------------------------------------------------------------------------------------------

def check_generated(args) -> int:
    r = Report("generated")
    res = subprocess.run([sys.executable, str(bundle.DASHBOARD_DIR / "generate.py"), "--check"],
                         capture_output=True, text=True)
    if res.returncode != 0:
        r.error(f"dashboards/grafana/*.json differ from generate.py's output: "
                f"{res.stderr.strip()}")
    return r.finish("the dashboards match dashboards/grafana/generate.py")


def check_examples(args) -> int:
    r = Report("examples")
    promtool = find_tool("promtool", args.promtool)
    amtool = find_tool("amtool", args.amtool)
    if not promtool or not amtool:
        print("SKIPPED: promtool or amtool not found (Debian packages prometheus, "
              "prometheus-alertmanager)")
        return SKIP
    prom = bundle.EXAMPLES_DIR / "prometheus.yml"
    am = bundle.EXAMPLES_DIR / "alertmanager.yml"
    res = subprocess.run([promtool, "check", "config", str(prom)], capture_output=True,
                         text=True)
    if res.returncode != 0:
        r.error(f"{rel(prom)}: promtool check config failed:\n{res.stdout}{res.stderr}")
    res = subprocess.run([amtool, "check-config", str(am)], capture_output=True, text=True)
    if res.returncode != 0:
        r.error(f"{rel(am)}: amtool check-config failed:\n{res.stdout}{res.stderr}")
    text = prom.read_text(encoding="utf-8")
    for job in ("roce_exporter", "roce_lint"):
        if f"job_name: {job}" not in text:
            r.error(f"{rel(prom)}: no scrape job {job!r}, which the rules select on")
    return r.finish("example configs valid")


# ---------------------------------------------------------------------------------------------
# selftest of the helpers
# ---------------------------------------------------------------------------------------------

PROMQL_CASES = [
    # (expression, metric names, selector labels, grouping labels, introduced labels)
    ('sum by (netdev, priority) (rate(roce_pfc_pause_frames_total{netdev=~"ens.*", '
     'priority="3"}[5m]))', ["roce_pfc_pause_frames_total"], ["netdev", "priority"],
     ["netdev", "priority"], []),
    ("sum(rate(a_total[5m])) without (instance)", ["a_total"], [], ["instance"], []),
    ("sum BY (x) (y) AND ON(z) w", ["y", "w"], [], ["x", "z"], []),
    ("a * on(cluster, device) group_left(netdev) b", ["a", "b"], [], ["cluster", "device",
                                                                       "netdev"], []),
    ("a / ignoring(kind) group_right b", ["a", "b"], [], ["kind"], []),
    ('label_replace(up{job="x"}, "dst", "$1", "src", "(.*)")', ["up"], ["job"], [], ["dst"]),
    ('label_join(m, "new", ",", "a", "b")', ["m"], [], [], ["new"]),
    ('count_values("version", build_info)', ["build_info"], [], [], ["version"]),
    ('{__name__="foo_total", job="x"}', ["foo_total"], ["job"], [], []),
    ('{__name__=~"foo.*"}', [], [], [], []),
    ("time() - roce_lint_last_run_timestamp_seconds > 1800",
     ["roce_lint_last_run_timestamp_seconds"], [], [], []),
    ("10 * log10(clamp_min(m, 1e-7) * 1000)", ["m"], [], [], []),
    ("x offset 5m + x offset -1h30m", ["x", "x"], [], [], []),
    ("rate(x[5m:1m]) + max_over_time(y[1h:])", ["x", "y"], [], [], []),
    ("x > bool 3 or -Inf < NaN", ["x"], [], [], []),
    ("# a comment naming not_a_metric\nfoo # and another", ["foo"], [], [], []),
    ("topk(5, y) or bottomk(3, z) or quantile(0.9, q)", ["y", "z", "q"], [], [], []),
    ("vector(0) or absent(nope{a=\"}{)(\"})", ["nope"], ["a"], [], []),
    ("on_call_total + by_x - bool_metric * offset_seconds", ["on_call_total", "by_x",
                                                              "bool_metric", "offset_seconds"],
     [], [], []),
    ('sum(a) by (le) unless b{on="1", by=`raw"s`}', ["a", "b"], ["on", "by"], ["le"], []),
    ("roce:transport_events:rate5m{event='cnp_sent'} @ start()",
     ["roce:transport_events:rate5m"], ["event"], [], []),
    ("0x1F + .5 + 1e3 + Inf", [], [], [], []),
    ("x @ 1609746000", ["x"], [], [], []),
]
PROMQL_BAD = ["sum(x", "x{a=}", "rate(x[5q])", "x{a=\"b\"", "sum by x (y)", "a $ b"]

YAML_CASES = [
    ("a: |\n  x\n\n  y\n\nb: 1\n", {"a": "x\n\ny\n", "b": 1}),
    ("a: >-\n  x\n  y\n\n  z\n", {"a": "x y\nz"}),
    ("a:\n- 1\n- 2\nb: 'it''s'\n", {"a": [1, 2], "b": "it's"}),
    ("a: [1, 'b', \"c\"]\nb: {}\nc: []\n", {"a": [1, "b", "c"], "b": {}, "c": []}),
    ("a: \"x\\\"y\" # comment\n", {"a": 'x"y'}),
    ("- a: 1\n  b:\n    - c\n- d\n", [{"a": 1, "b": ["c"]}, "d"]),
    ("a: x # y\nb: 'q # r'\nc: v:w\n", {"a": "x", "b": "q # r", "c": "v:w"}),
    ("groups:\n  - name: g\n    rules:\n      - record: r:x\n        expr: |\n          a\n"
     "          * b\n        labels:\n          k: v\n",
     {"groups": [{"name": "g", "rules": [{"record": "r:x", "expr": "a\n* b\n",
                                           "labels": {"k": "v"}}]}]}),
    ("x: '1'\ny: 1.5\nz: true\nn: ~\n", {"x": "1", "y": 1.5, "z": True, "n": None}),
]
YAML_BAD = ["a: &x 1\n", "a: x\n  y\n", "a: \"open\n", "a:\n\tb: 1\n", "a: 1\na: 2\n"]


def check_selftest(args) -> int:
    r = Report("selftest")
    for expr, names, labels, grouping, introduced in PROMQL_CASES:
        try:
            a = promql.analyze(expr)
        except promql.PromQLError as e:
            r.error(f"promql.analyze({expr!r}) raised {e}")
            continue
        got = (a.metric_names, [l for s in a.selectors for l in s.labels], a.grouping_labels,
               a.introduced_labels)
        if got != (names, labels, grouping, introduced):
            r.error(f"promql.analyze({expr!r}) = {got}, want {(names, labels, grouping, introduced)}")
    for expr in PROMQL_BAD:
        try:
            promql.analyze(expr)
            r.error(f"promql.analyze({expr!r}) accepted a broken expression")
        except promql.PromQLError:
            pass
    for q, want in [('label_values(roce_port_info{cluster=~"$c", x="a,b"}, netdev)',
                     ('roce_port_info{cluster=~"$c", x="a,b"}', "netdev")),
                    ("label_values(cluster)", (None, "cluster")),
                    ("query_result(topk(3, up))", ("topk(3, up)", None)),
                    ("metrics(roce_.*)", (None, None))]:
        got = promql.split_grafana_variable_query(q)
        if got != want:
            r.error(f"split_grafana_variable_query({q!r}) = {got}, want {want}")
    sub, unknown = bundle.substitute(
        'rate(x{a=~"$netdev", b="${device}", c="[[cluster]]"}[$__rate_interval]) '
        '+ y[$__range] + $nope', {"netdev", "device", "cluster"})
    if sub != 'rate(x{a=~"ens1f0np0", b="mlx5_0", c="demo"}[5m]) + y[1h] + $nope' \
            or unknown != ["nope"]:
        r.error(f"substitute gave {sub!r}, unknown {unknown}")
    for text, want in YAML_CASES:
        try:
            got = yaml_subset.load(text)
        except yaml_subset.YamlError as e:
            r.error(f"yaml_subset.load({text!r}) raised {e}")
            continue
        if got != want:
            r.error(f"yaml_subset.load({text!r}) = {got!r}, want {want!r}")
    for text in YAML_BAD:
        try:
            yaml_subset.load(text)
            r.error(f"yaml_subset.load({text!r}) accepted unsupported input")
        except yaml_subset.YamlError:
            pass
    import rules_for_demo
    shortened = rules_for_demo.shorten_for(
        "  - alert: A\n    for: 10m\n  - alert: B\n    for: 15s  # quick\n    expr: x\n", "30s")
    if shortened != "  - alert: A\n    for: 30s\n  - alert: B\n    for: 15s  # quick\n    expr: x\n":
        r.error(f"rules_for_demo.shorten_for gave {shortened!r}")
    anchors_text = "# Runbook\n\n## RoCEPortDown\n\n```\n## not a heading\n```\n## A, b & c\n"
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "rb.md"
        p.write_text(anchors_text)
        got = sorted(bundle.runbook_anchors(p))
        if got != ["a-b--c", "roceportdown", "runbook"]:
            r.error(f"runbook_anchors = {got}")
    return r.finish(f"{len(PROMQL_CASES) + len(PROMQL_BAD)} PromQL cases, "
                    f"{len(YAML_CASES) + len(YAML_BAD)} YAML cases")


CHECKS = {
    "dashboards": check_dashboards,
    "promql": check_promql,
    "names": check_names,
    "alerts": check_alerts,
    "promtool-rules": check_promtool_rules,
    "promtool-tests": check_promtool_tests,
    "generated": check_generated,
    "examples": check_examples,
    "selftest": check_selftest,
}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("check", choices=list(CHECKS) + ["all"])
    ap.add_argument("--promtool", help="path of promtool (default: from PATH)")
    ap.add_argument("--amtool", help="path of amtool (default: from PATH)")
    args = ap.parse_args(argv)
    if args.check == "all":
        rcs = [CHECKS[c](args) for c in CHECKS]
        return 1 if any(rc == 1 for rc in rcs) else 0
    return CHECKS[args.check](args)


if __name__ == "__main__":
    sys.exit(main())
