#!/usr/bin/env python3
"""The default series keep what roce-lint, the alert rules and the dashboards read; each
detail option brings its series back (docs/metrics.md "Default and opt-in series").

Starts the real exporter on a replayed node with the default flags, with every detail option
on (bench/series_per_nic.py FULL), and with each option alone, then checks:
- every roce_* family named by the rules, the dashboards or roce-lint's sources that the full
  scrape serves is served by default too;
- every label value a rule or panel selects (counter="…", level=~"a|b", sensor="…") that the
  full scrape serves is served by default too, and likewise every hw/port counter name
  roce-lint's counter checks read (a hw counter served by meaning instead, as
  roce_transport_events_total{event}, when lint's event table pairs the two);
- each option alone serves series the default leaves out, and nothing the default serves is
  lost with it; a bad option value is refused naming the flag.

    exporter_detail_options_test.py EXPORTER FIXTURE_DIR REPO_ROOT
"""

import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from exporter_process import Exporter  # noqa: E402

ROOT = Path(sys.argv[3]).resolve()
sys.path.insert(0, str(ROOT / "bench"))
from series_per_nic import FULL, NOT_DETAIL  # noqa: E402

# Options whose series the fixture cannot show, and a replayed node that can: the mlx5-roce
# fixture's switch sends no DCBX and it has no RDMA netlink answers; the demo's nodes have both.
DEMO_NODE = str(ROOT / "examples" / "demo" / "nodes" / "gpu-01")
OPTION_FIXTURE = {"--collector.lldp.full-tables=true": DEMO_NODE, "--collector.rdma.per-process=true": DEMO_NODE,
                  "--collector.rdma.per-job=true": DEMO_NODE}
SERIES = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
FAMILY = re.compile(r'\broce_[a-z0-9_]+')
# A selector in PromQL text: family{matchers}; matchers with a literal value only.
SELECTOR = re.compile(r'\b(roce_[a-z0-9_]+)\{([^{}]*)\}')
MATCHER = re.compile(r'([a-z_]+)\s*(=~|=)\s*\\?"([^"\\$]*)\\?"')
# Labels that name the scrape target or a dashboard variable, not what the exporter serves.
TARGET_LABELS = {"cluster", "job", "instance", "device", "netdev", "port", "lane"}
# Families left out by default while another serves the same thing; their readers read both
# (rules with `or`, checks the larger of the two), so the other must be served.
SERVED_INSTEAD = {
    "roce_dcb_pfc_pause_frames_total": "roce_pfc_pause_frames_total",
    "roce_link_down_events_total": "roce_ethtool_link_down_events_total",
    "roce_ets_priority_traffic_class": "roce_dcb_table_entries",
    "roce_link_detected": "roce_netdev_carrier",
}


def scrape(exporter, fixture, extra):
    with Exporter(exporter, ["--replay", fixture, *extra]) as exp:
        status, body = exp.get("/metrics")
    if status != 200:
        sys.exit(f"{extra}: /metrics answered {status}")
    series = set()
    for line in body.splitlines():
        if line and not line.startswith("#"):
            m = SERIES.match(line)
            if m:
                series.add((m.group(1), tuple(sorted(LABEL.findall(m.group(2) or "")))))
    return series


def families(series):
    return {name for name, _ in series}


def values(series, family, label):
    return {dict(labels).get(label) for name, labels in series if name == family} - {None}


def readers():
    """(path, text) of every file that reads the exporter's series."""
    paths = [ROOT / "dashboards/prometheus/rocewatch-rules.yml",
             ROOT / "dashboards/grafana/generate.py"]
    paths += sorted((ROOT / "dashboards/grafana").glob("*.json"))
    paths += sorted((ROOT / "lint").rglob("*.cpp"))
    return [(p, p.read_text()) for p in paths]


def main():
    exporter, fixture = sys.argv[1], sys.argv[2]
    default = scrape(exporter, fixture, [])
    full = scrape(exporter, fixture, FULL)
    failures = []
    if not default < full:
        failures.append("the full scrape does not serve a superset of the default one")

    texts = readers()
    # Families.
    for path, text in texts:
        for name in sorted(set(FAMILY.findall(text)) & families(full) - families(default)):
            if SERVED_INSTEAD.get(name) in families(default):
                continue
            failures.append(f"{name} (read by {path.relative_to(ROOT)}) is not served by default")
    # Label values selected by rules and panels.
    checked = 0
    for path, text in texts:
        if path.suffix == ".cpp":
            continue
        for family, matchers in SELECTOR.findall(text.replace('\\"', '"')):
            for label, op, value in MATCHER.findall(matchers):
                if label in TARGET_LABELS:
                    continue
                wanted = value.split("|") if op == "=~" else [value]
                for v in wanted:
                    if v in values(full, family, label):
                        checked += 1
                        if v not in values(default, family, label):
                            failures.append(f"{family}{{{label}=\"{v}\"}} (read by "
                                            f"{path.relative_to(ROOT)}) is not served by default")
    if checked == 0:
        failures.append("no rule or panel selector matched a served label value")
    # Counter names roce-lint's counter checks read (string literals in its sources).
    lint_words = set()
    for path, text in texts:
        if path.suffix == ".cpp":
            lint_words |= set(re.findall(r'"([A-Za-z0-9_]+)"', text))
    # A hw counter the driver's table maps to a transport event is served by meaning by default
    # and raw only with --collector.rdma.all-hw-counters; roce-lint reads its raw mlx5 name only
    # from an exporter without roce_transport_events_total (its table pairs the two).
    as_event = dict((raw, event) for event, raw in re.findall(
        r'\{"([a-z_]+)", K::k[A-Za-z]+, "([a-z_]+)"\}',
        (ROOT / "lint/checks/counters/transport_events.cpp").read_text()))
    if not as_event:
        failures.append("no event/counter pair read from lint/checks/counters/transport_events.cpp")
    for family in ("roce_hw_stat_total", "roce_port_stat_total"):
        for counter in sorted(lint_words & values(full, family, "counter")):
            checked += 1
            if family == "roce_hw_stat_total" and counter in as_event and \
                    as_event[counter] in values(default, "roce_transport_events_total", "event"):
                continue
            if counter not in values(default, family, "counter"):
                failures.append(f"{family}{{counter=\"{counter}\"}} (read by lint/) is not "
                                "served by default")

    # FULL is every option --help says defaults to false (less NOT_DETAIL's), no more.
    helped = subprocess.run([exporter, "--help"], capture_output=True, text=True, timeout=30).stdout
    off_by_default = set(re.findall(r"^\s*(--collector\.[a-z_]+\.[a-z-]+)=VALUE .*\(default: false\)$", helped,
                                    re.MULTILINE)) - set(NOT_DETAIL)
    listed = {option.split("=")[0] for option in FULL}
    for missing in sorted(off_by_default - listed):
        failures.append(f"{missing} defaults to false in --help but bench/series_per_nic.py FULL lacks it")
    for extra in sorted(listed - off_by_default):
        failures.append(f"bench/series_per_nic.py FULL names {extra}, which --help has not as false by default")

    # Each option alone, on the fixture that has what it adds.
    for option in FULL:
        where = OPTION_FIXTURE.get(option, fixture)
        base, most = (default, full) if where == fixture else (scrape(exporter, where, []), scrape(exporter, where, FULL))
        alone = scrape(exporter, where, [option])
        if not base < alone:
            failures.append(f"{option} serves nothing more than the default on {where}")
        if not alone <= most:
            failures.append(f"{option} serves series the full scrape lacks on {where}")
    bad = subprocess.run([exporter, "--replay", fixture, "--collector.rdma.all-hw-counters=yes",
                          "--web.listen-address=127.0.0.1:0"],
                         capture_output=True, text=True, timeout=30)
    if bad.returncode == 0 or "--collector.rdma.all-hw-counters" not in bad.stderr:
        failures.append(f"a bad option value: rc {bad.returncode}, stderr {bad.stderr[-300:]!r}")

    if failures:
        sys.exit("\n".join(failures))
    print(f"ok: {len(default)} default series, {len(full)} full; {checked} read label values "
          f"served by default; {len(FULL)} options each bring series back")


if __name__ == "__main__":
    main()
