#!/usr/bin/env python3
"""(Re)generate the rocewatch Grafana dashboards beside this file.

    python3 dashboards/grafana/generate.py           # rewrite the *.json dashboards
    python3 dashboards/grafana/generate.py --check   # exit 1 if a checked-in file differs

The dashboards are Grafana 9/10 JSON (schemaVersion 38) for import ("Import dashboard", the
HTTP API, or file provisioning). Every panel and every query variable reads from the
`datasource` template variable; the `DS_PROMETHEUS` input chooses its default at import.

They are generated so that the four dashboards share one look (units, legends, thresholds,
variables) and so that a change is reviewed here rather than in 3000 lines of JSON. Edit this
file, run it, and commit both. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

HERE = Path(__file__).resolve().parent

DS = {"type": "prometheus", "uid": "${datasource}"}
GRAFANA_MIN_VERSION = "9.4.0"
SCHEMA_VERSION = 38
TAGS = ["rocewatch", "rdma", "roce"]

# Selectors shared by the exporter dashboards. Every exporter series carries the target labels
# `instance` (and `cluster` where it is set); `=~` with the All value `.*` also matches an
# absent `cluster` label.
CI = 'cluster=~"$cluster", instance=~"$instance"'
CC = 'cluster=~"$cluster"'  # the per-cluster recording rules carry no instance
CID = CI + ', device=~"$device"'
CIN = CI + ', netdev=~"$netdev"'
CINP = CIN + ', priority=~"$priority"'
CIDN = CI + ', device=~"$device", netdev=~"$netdev"'

# roce_transport_events_total's events (by meaning, for every driver with a table: docs/metrics.md
# "Drivers") that the panels show; RETRANSMIT_EVENTS are those RoCERetransmits alerts on.
CNP_EVENTS = "cnp_sent|cnp_handled"
RETRANSMIT_EVENTS = ("out_of_sequence|sequence_error_nak|implied_nak_sequence_error|retransmits|"
                     "local_ack_timeout|retry_exceeded")

NIC_DETAIL_URL = ("/d/rocewatch-nic-detail/rocewatch-nic-detail?${__url_time_range}"
                  "&var-datasource=${datasource}&var-cluster=${__field.labels.cluster}"
                  "&var-instance=${__field.labels.instance}&var-netdev=${__field.labels.netdev}")
OPTICS_URL = ("/d/rocewatch-optics/rocewatch-optics?${__url_time_range}"
              "&var-datasource=${datasource}&var-cluster=${__field.labels.cluster}"
              "&var-instance=${__field.labels.instance}&var-netdev=${__field.labels.netdev}")


# --------------------------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------------------------

def steps(*pairs) -> Dict[str, Any]:
    """Absolute thresholds: steps('green', None, 'red', 1) -> base green, red from 1."""
    out = []
    for i in range(0, len(pairs), 2):
        out.append({"color": pairs[i], "value": pairs[i + 1]})
    return {"mode": "absolute", "steps": out}


OK_ONLY = steps("green", None)
BAD_FROM_1 = steps("green", None, "red", 1)


def target(expr: str, legend: str = "", *, instant: bool = False, table: bool = False,
           ref: str = "A") -> Dict[str, Any]:
    t: Dict[str, Any] = {
        "datasource": DS,
        "refId": ref,
        "expr": expr,
        "legendFormat": legend or "__auto",
        "range": not instant,
        "instant": instant,
        "editorMode": "code",
    }
    if table:
        t["format"] = "table"
    return t


def _refs(targets: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
    out = []
    for i, t in enumerate(targets):
        t = dict(t)
        t["refId"] = chr(ord("A") + i)
        out.append(t)
    return out


def _field_config(unit: str, thresholds: Dict[str, Any], *, decimals: Optional[int] = None,
                  min_: Optional[float] = None, max_: Optional[float] = None,
                  mappings: Optional[list] = None, links: Optional[list] = None,
                  custom: Optional[dict] = None, color: Optional[dict] = None) -> Dict[str, Any]:
    d: Dict[str, Any] = {"unit": unit, "thresholds": thresholds,
                         "color": color or {"mode": "thresholds"}, "mappings": mappings or []}
    if decimals is not None:
        d["decimals"] = decimals
    if min_ is not None:
        d["min"] = min_
    if max_ is not None:
        d["max"] = max_
    if links:
        d["links"] = links
    if custom is not None:
        d["custom"] = custom
    return {"defaults": d, "overrides": []}


def timeseries(title: str, description: str, targets: Sequence[Dict[str, Any]], unit: str, *,
               thresholds: Dict[str, Any] = OK_ONLY, draw_thresholds: str = "off",
               min_: Optional[float] = None, max_: Optional[float] = None,
               bars: bool = False, stack: bool = False, overrides: Optional[list] = None,
               decimals: Optional[int] = None) -> Dict[str, Any]:
    custom = {
        "drawStyle": "bars" if bars else "line",
        "lineWidth": 1,
        "fillOpacity": 80 if bars else 10,
        "gradientMode": "none",
        "showPoints": "never",
        "spanNulls": False,
        "axisPlacement": "auto",
        "stacking": {"mode": "normal" if stack else "none", "group": "A"},
        "thresholdsStyle": {"mode": draw_thresholds},
    }
    fc = _field_config(unit, thresholds, min_=min_, max_=max_, custom=custom, decimals=decimals,
                       color={"mode": "palette-classic"})
    fc["overrides"] = overrides or []
    return {
        "type": "timeseries",
        "title": title,
        "description": description,
        "datasource": DS,
        "targets": _refs(targets),
        "fieldConfig": fc,
        "options": {
            "legend": {"displayMode": "table", "placement": "bottom", "showLegend": True,
                       "calcs": ["mean", "max", "lastNotNull"]},
            "tooltip": {"mode": "multi", "sort": "desc"},
        },
    }


def stat(title: str, description: str, targets: Sequence[Dict[str, Any]], unit: str,
         thresholds: Dict[str, Any], *, mappings: Optional[list] = None,
         color_mode: str = "background", text_mode: str = "auto",
         decimals: Optional[int] = None, links: Optional[list] = None,
         overrides: Optional[list] = None) -> Dict[str, Any]:
    fc = _field_config(unit, thresholds, mappings=mappings, decimals=decimals, links=links)
    fc["overrides"] = overrides or []
    return {
        "type": "stat",
        "title": title,
        "description": description,
        "datasource": DS,
        "targets": _refs(targets),
        "fieldConfig": fc,
        "options": {
            "reduceOptions": {"calcs": ["lastNotNull"], "fields": "", "values": False},
            "colorMode": color_mode,
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "textMode": text_mode,
        },
    }


def bargauge(title: str, description: str, targets: Sequence[Dict[str, Any]], unit: str,
             thresholds: Dict[str, Any], *, max_: Optional[float] = None,
             links: Optional[list] = None) -> Dict[str, Any]:
    fc = _field_config(unit, thresholds, min_=0, max_=max_, links=links)
    return {
        "type": "bargauge",
        "title": title,
        "description": description,
        "datasource": DS,
        "targets": _refs(targets),
        "fieldConfig": fc,
        "options": {
            "reduceOptions": {"calcs": ["lastNotNull"], "fields": "", "values": False},
            "orientation": "horizontal",
            "displayMode": "gradient",
            "showUnfilled": True,
            "minVizHeight": 10,
            "minVizWidth": 0,
        },
    }


def table(title: str, description: str, targets: Sequence[Dict[str, Any]], unit: str, *,
          thresholds: Dict[str, Any] = OK_ONLY, hide: Sequence[str] = (),
          rename: Optional[Dict[str, str]] = None, order: Sequence[str] = (),
          sort_by: Optional[str] = None, sort_desc: bool = True,
          value_color: bool = True, mappings: Optional[list] = None,
          links: Optional[list] = None, merge: bool = False) -> Dict[str, Any]:
    hidden = {"Time": True, "__name__": True, "job": True}
    hidden.update({h: True for h in hide})
    transformations: List[Dict[str, Any]] = []
    if merge:
        transformations.append({"id": "merge", "options": {}})
    transformations.append({
        "id": "organize",
        "options": {
            "excludeByName": hidden,
            "indexByName": {name: i for i, name in enumerate(order)},
            "renameByName": rename or {},
        },
    })
    fc = _field_config(unit, thresholds, mappings=mappings, links=links,
                       custom={"align": "auto", "displayMode": "auto", "inspect": False})
    if value_color:
        fc["overrides"].append({
            "matcher": {"id": "byRegexp", "options": "^Value.*"},
            "properties": [{"id": "custom.displayMode", "value": "color-background"}],
        })
    panel = {
        "type": "table",
        "title": title,
        "description": description,
        "datasource": DS,
        "targets": _refs([dict(t, format="table", instant=True, range=False) for t in targets]),
        "fieldConfig": fc,
        "options": {"showHeader": True, "footer": {"show": False, "reducer": ["sum"],
                                                    "fields": ""},
                    "cellHeight": "sm"},
        "transformations": transformations,
    }
    if sort_by:
        panel["options"]["sortBy"] = [{"displayName": sort_by, "desc": sort_desc}]
    return panel


def override_regex(pattern: str, props: Dict[str, Any]) -> Dict[str, Any]:
    return {"matcher": {"id": "byRegexp", "options": pattern},
            "properties": [{"id": k, "value": v} for k, v in props.items()]}


# Thresholds of the modules drawn as dashed lines: orange for warning, red for alarm.
THRESHOLD_LINES = [
    override_regex(".*warning.*", {"custom.lineStyle": {"fill": "dash", "dash": [10, 10]},
                                   "custom.fillOpacity": 0,
                                   "color": {"mode": "fixed", "fixedColor": "orange"}}),
    override_regex(".*alarm.*", {"custom.lineStyle": {"fill": "dash", "dash": [4, 6]},
                                 "custom.fillOpacity": 0,
                                 "color": {"mode": "fixed", "fixedColor": "red"}}),
]

# Transmit drawn below the axis, receive above.
TX_BELOW = [override_regex(".*(tx|transmit).*", {"custom.transform": "negative-Y"})]

PORT_STATE_MAPPINGS = [{"type": "value", "options": {
    "1": {"text": "DOWN", "color": "red", "index": 0},
    "2": {"text": "INIT", "color": "orange", "index": 1},
    "3": {"text": "ARMED", "color": "orange", "index": 2},
    "4": {"text": "ACTIVE", "color": "green", "index": 3},
    "5": {"text": "ACTIVE_DEFER", "color": "orange", "index": 4},
}}]
ON_OFF_MAPPINGS = [{"type": "value", "options": {
    "0": {"text": "off", "color": "red", "index": 0},
    "1": {"text": "on", "color": "green", "index": 1},
}}]
# Global pause is wrong where PFC runs: "on" in red.
ON_OFF_GLOBAL_PAUSE = [{"type": "value", "options": {
    "0": {"text": "off", "color": "green", "index": 0},
    "1": {"text": "on", "color": "red", "index": 1},
}}]
PRESENT_MAPPINGS = [{"type": "value", "options": {
    "0": {"text": "no", "color": "red", "index": 0},
    "1": {"text": "yes", "color": "green", "index": 1},
}}]
SEVERITY_COLORS = [
    override_regex("^critical$", {"color": {"mode": "fixed", "fixedColor": "dark-red"}}),
    override_regex("^error$", {"color": {"mode": "fixed", "fixedColor": "red"}}),
    override_regex("^warning$", {"color": {"mode": "fixed", "fixedColor": "orange"}}),
    override_regex("^info$", {"color": {"mode": "fixed", "fixedColor": "blue"}}),
]


# --------------------------------------------------------------------------------------------
# Template variables
# --------------------------------------------------------------------------------------------

def datasource_var() -> Dict[str, Any]:
    return {
        "name": "datasource", "label": "Data source", "type": "datasource",
        "query": "prometheus", "regex": "", "hide": 0, "refresh": 1,
        "includeAll": False, "multi": False, "options": [],
        "current": {"selected": False, "text": "Prometheus", "value": "${DS_PROMETHEUS}"},
    }


def query_var(name: str, label: str, query: str, *, multi: bool = True,
              include_all: bool = True, hide: int = 0) -> Dict[str, Any]:
    v: Dict[str, Any] = {
        "name": name, "label": label, "type": "query", "datasource": DS,
        "definition": query,
        "query": {"query": query, "refId": "StandardVariableQuery"},
        "refresh": 2, "regex": "", "sort": 1, "hide": hide,
        "multi": multi, "includeAll": include_all, "options": [],
        "current": {"selected": True, "text": ["All"], "value": ["$__all"]} if include_all
        else {},
    }
    if include_all:
        v["allValue"] = ".*"
    return v


def custom_var(name: str, label: str, values: Sequence[str]) -> Dict[str, Any]:
    return {
        "name": name, "label": label, "type": "custom", "query": ",".join(values),
        "hide": 0, "multi": True, "includeAll": True, "allValue": ".*",
        "current": {"selected": True, "text": ["All"], "value": ["$__all"]},
        "options": [{"selected": True, "text": "All", "value": "$__all"}]
        + [{"selected": False, "text": v, "value": v} for v in values],
    }


def exporter_vars(*names: str) -> List[Dict[str, Any]]:
    """The variables of the exporter dashboards, in order, each narrowing the next."""
    all_vars = {
        "cluster": query_var("cluster", "Cluster",
                             "label_values(roce_exporter_build_info, cluster)"),
        "instance": query_var("instance", "Instance",
                              'label_values(roce_exporter_build_info{cluster=~"$cluster"}, '
                              "instance)"),
        "device": query_var("device", "RDMA device",
                            'label_values(roce_port_info{cluster=~"$cluster", '
                            'instance=~"$instance"}, device)'),
        "netdev": query_var("netdev", "Netdev",
                            'label_values(roce_port_info{cluster=~"$cluster", '
                            'instance=~"$instance", device=~"$device"}, netdev)'),
        "priority": custom_var("priority", "Priority", [str(p) for p in range(8)]),
    }
    return [datasource_var()] + [all_vars[n] for n in names]


# --------------------------------------------------------------------------------------------
# Layout and the dashboard envelope
# --------------------------------------------------------------------------------------------

class Layout:
    """Places panels left to right on Grafana's 24-column grid, rows full width."""

    def __init__(self) -> None:
        self.panels: List[Dict[str, Any]] = []
        self.x = 0
        self.y = 0
        self.row_h = 0
        self.next_id = 1

    def _newline(self) -> None:
        if self.x:
            self.y += self.row_h
            self.x = 0
            self.row_h = 0

    def row(self, title: str) -> None:
        self._newline()
        self.panels.append({"type": "row", "title": title, "collapsed": False, "panels": [],
                            "id": self.next_id,
                            "gridPos": {"h": 1, "w": 24, "x": 0, "y": self.y}})
        self.next_id += 1
        self.y += 1

    def add(self, panel: Dict[str, Any], w: int, h: int) -> None:
        if self.x + w > 24:
            self._newline()
        panel = dict(panel)
        panel["id"] = self.next_id
        self.next_id += 1
        panel["gridPos"] = {"h": h, "w": w, "x": self.x, "y": self.y}
        self.panels.append(panel)
        self.x += w
        self.row_h = max(self.row_h, h)


def dashboard(uid: str, title: str, description: str, layout: Layout,
              variables: List[Dict[str, Any]], *, refresh: str = "30s",
              time_from: str = "now-3h") -> Dict[str, Any]:
    panel_types = sorted({p["type"] for p in layout.panels if p["type"] != "row"})
    names = {"timeseries": "Time series", "stat": "Stat", "bargauge": "Bar gauge",
             "table": "Table"}
    return {
        "__inputs": [{
            "name": "DS_PROMETHEUS", "label": "Prometheus",
            "description": "The Prometheus that scrapes roce_exporter and roce-lint serve",
            "type": "datasource", "pluginId": "prometheus", "pluginName": "Prometheus",
        }],
        "__elements": {},
        "__requires": [
            {"type": "grafana", "id": "grafana", "name": "Grafana",
             "version": GRAFANA_MIN_VERSION},
            {"type": "datasource", "id": "prometheus", "name": "Prometheus", "version": "1.0.0"},
        ] + [{"type": "panel", "id": t, "name": names[t], "version": ""} for t in panel_types],
        "annotations": {"list": [{
            "builtIn": 1, "datasource": {"type": "grafana", "uid": "-- Grafana --"},
            "enable": True, "hide": True, "iconColor": "rgba(0, 211, 255, 1)",
            "name": "Annotations & Alerts", "type": "dashboard",
        }]},
        "description": description,
        "editable": True,
        "fiscalYearStartMonth": 0,
        "graphTooltip": 1,
        "id": None,
        "links": [{
            "type": "dashboards", "tags": ["rocewatch"], "asDropdown": True,
            "includeVars": True, "keepTime": True, "title": "rocewatch", "icon": "external link",
            "targetBlank": False, "tooltip": "", "url": "",
        }],
        "liveNow": False,
        "panels": layout.panels,
        "refresh": refresh,
        "schemaVersion": SCHEMA_VERSION,
        "style": "dark",
        "tags": TAGS,
        "templating": {"list": variables},
        "time": {"from": time_from, "to": "now"},
        "timepicker": {},
        "timezone": "",
        "title": title,
        "uid": uid,
        "version": 1,
        "weekStart": "",
    }


# --------------------------------------------------------------------------------------------
# The dashboards
# --------------------------------------------------------------------------------------------

def cluster_overview() -> Dict[str, Any]:
    L = Layout()
    ci = CI
    nic_link = [{"title": "NIC detail", "url": NIC_DETAIL_URL}]

    L.row("Fleet health")
    L.add(stat("RoCE ports ACTIVE",
               "RoCE ports in state ACTIVE, of all RoCE ports the exporters see "
               "(cluster:roce_ports_active:sum, cluster:roce_ports:count).",
               [target(f"sum(cluster:roce_ports_active:sum{{{CC}}})", "ACTIVE", instant=True),
                target(f"sum(cluster:roce_ports:count{{{CC}}})", "total", instant=True)],
               "none", OK_ONLY, color_mode="value", text_mode="value_and_name"), 5, 4)
    L.add(stat("RoCE ports not ACTIVE", "RoCE ports in any state but ACTIVE (alert RoCEPortDown).",
               [target(f"sum(cluster:roce_ports_not_active:count{{{CC}}}) or vector(0)",
                       "not ACTIVE", instant=True)],
               "none", BAD_FROM_1), 4, 4)
    L.add(stat("Exporters down", "roce_exporter targets Prometheus cannot scrape "
               "(alert RoCEExporterDown).",
               [target(f"sum(cluster:roce_exporters_down:count{{{CC}}}) or vector(0)", "down",
                       instant=True)],
               "none", BAD_FROM_1), 4, 4)
    L.add(stat("Open lint findings", "Findings of the last roce-lint run, by severity "
               "(roce_lint_findings). Details on the rocewatch lint findings dashboard.",
               [target('sum by (severity) (roce_lint_findings{cluster=~"$cluster"})',
                       "{{severity}}", instant=True)],
               "none", OK_ONLY, color_mode="value", text_mode="value_and_name",
               overrides=SEVERITY_COLORS), 6, 4)
    L.add(stat("Lint: nodes", "Nodes of the plan as roce-lint saw them in its last run "
               "(roce_lint_nodes).",
               [target('sum by (state) (roce_lint_nodes{cluster=~"$cluster"})', "{{state}}",
                       instant=True)],
               "none", OK_ONLY, color_mode="value", text_mode="value_and_name",
               overrides=[override_regex("^failed$", {"color": {"mode": "fixed",
                                                                  "fixedColor": "red"}}),
                          override_regex("^unreachable$", {"color": {"mode": "fixed",
                                                                       "fixedColor": "orange"}})]),
          5, 4)

    L.row("Traffic")
    L.add(bargauge("Top talkers (RDMA bytes/s, rx + tx)",
                   "The NICs that move the most RDMA data (port_rcv_data + port_xmit_data), "
                   "5-minute rate. Click a bar for the NIC.",
                   [target("topk(10, sum by (cluster, instance, device, netdev) "
                           f"(roce:port_received_bytes:rate5m{{{ci}}} "
                           f"+ roce:port_transmitted_bytes:rate5m{{{ci}}}))",
                           "{{instance}} {{netdev}}", instant=True)],
                   "Bps", OK_ONLY, links=nic_link), 12, 9)
    L.add(timeseries("Fleet RDMA throughput", "Sum over the selected clusters "
                     "(cluster:roce_port_*_bytes:rate5m); transmit below the axis.",
                     [target(f"sum(cluster:roce_port_received_bytes:rate5m{{{CC}}})", "receive"),
                      target(f"sum(cluster:roce_port_transmitted_bytes:rate5m{{{CC}}})",
                             "transmit")],
                     "Bps", overrides=TX_BELOW), 12, 9)

    L.row("Lossless fabric: PFC, ECN/CNP, drops")
    L.add(bargauge("Top PFC pause rates (frames/s)",
                   "PFC pause frames per second by NIC, priority and direction (rx: the switch "
                   "pauses this NIC; tx: this NIC pauses the switch).",
                   [target("topk(10, roce:pfc_pause_frames:rate5m"
                           f'{{{ci}, priority=~"$priority"}})',
                           "{{instance}} {{netdev}} p{{priority}} {{direction}}", instant=True)],
                   "pps", OK_ONLY, links=nic_link), 8, 9)
    L.add(bargauge("Top paused time",
                   "Fraction of time a priority was paused (rate of the pause duration). "
                   "Above 50 % for 2 minutes raises RoCEPFCPauseStorm.",
                   [target("topk(10, roce:pfc_pause_duration_seconds:rate5m"
                           f'{{{ci}, priority=~"$priority"}})',
                           "{{instance}} {{netdev}} p{{priority}} {{direction}}", instant=True)],
                   "percentunit", steps("green", None, "orange", 0.1, "red", 0.5), max_=1,
                   links=nic_link), 8, 9)
    L.add(bargauge("Top CNPs sent/handled (CNP/s)",
                   "CNPs sent as notification point (event cnp_sent: this host receives "
                   "ECN-marked traffic) and handled as reaction point (cnp_handled: this "
                   "host's flows are slowed), for every driver that counts them. Above 10k/s "
                   "for 15 minutes raises RoCEHighCNPRate.",
                   [target("topk(10, roce:transport_events:rate5m"
                           f'{{{ci}, event=~"{CNP_EVENTS}"}})',
                           "{{instance}} {{netdev}} {{event}}", instant=True)],
                   "pps", steps("green", None, "orange", 10000), links=nic_link), 8, 9)
    L.add(bargauge("Top drops (packets/s)",
                   "Discards the NICs count, by reason (roce:discarded_packets:rate5m). Above "
                   "1/s for 10 minutes raises RoCEDiscards.",
                   [target(f"topk(10, roce:discarded_packets:rate5m{{{ci}}})",
                           "{{instance}} {{netdev}} {{reason}} {{priority}}", instant=True)],
                   "pps", steps("green", None, "red", 1), links=nic_link), 8, 9)
    L.add(bargauge("Top retransmissions and sequence errors by event (events/s)",
                   "RDMA transport errors by NIC and event (roce:transport_events:rate5m). On "
                   "a healthy lossless fabric they stand still; above 1/s for 10 minutes "
                   "raises RoCERetransmits.",
                   [target("topk(10, roce:transport_events:rate5m"
                           f'{{{ci}, event=~"{RETRANSMIT_EVENTS}"}})',
                           "{{instance}} {{netdev}} {{event}}", instant=True)],
                   "pps", steps("green", None, "red", 1), links=nic_link), 8, 9)
    L.add(bargauge("Top link flaps (carrier changes in the last hour)",
                   "Carrier changes in the last hour (roce:netdev_carrier_changes:increase1h); "
                   "each flap is two (down, up).",
                   [target("topk(10, roce:netdev_carrier_changes:increase1h"
                           f"{{{ci}}})", "{{instance}} {{netdev}}", instant=True)],
                   "none", steps("green", None, "orange", 1, "red", 3), links=nic_link), 8, 9)

    L.row("Optics and PCIe")
    L.add(stat("Optics alarms raised by modules",
               "Modules raising an alarm flag of their own (roce_module_flags_raised, kind "
               "alarm; cluster:roce_module_alarms:count).",
               [target(f"sum(cluster:roce_module_alarms:count{{{CC}}}) or vector(0)", "alarms",
                       instant=True)],
               "none", BAD_FROM_1), 4, 5)
    L.add(stat("Optics warnings raised by modules",
               "Modules raising a warning flag of their own (roce_module_flags_raised, kind "
               "warning; cluster:roce_module_warnings:count).",
               [target(f"sum(cluster:roce_module_warnings:count{{{CC}}}) or vector(0)", "warnings",
                       instant=True)],
               "none", steps("green", None, "orange", 1)), 4, 5)
    L.add(table("Optical lanes outside their module's warning thresholds",
                "Lanes whose RX or TX power (dBm) is beyond the warning thresholds their "
                "own module declares (alerts RoCEOpticsRxPowerLow/High, RoCEOpticsTxPowerLow).",
                [target(f"(roce:module_lane_rx_power:dbm{{{ci}}} "
                        "< on(cluster, job, instance, netdev) group_left() "
                        'roce:module_threshold_power:dbm{sensor="rx_power_watts", '
                        'level="low_warning"}) '
                        f"or (roce:module_lane_rx_power:dbm{{{ci}}} "
                        "> on(cluster, job, instance, netdev) group_left() "
                        '(roce:module_threshold_power:dbm{sensor="rx_power_watts", '
                        'level="high_warning"} > -40)) '
                        f"or (roce:module_lane_tx_power:dbm{{{ci}}} "
                        "< on(cluster, job, instance, netdev) group_left() "
                        'roce:module_threshold_power:dbm{sensor="tx_power_watts", '
                        'level="low_warning"})')],
                "dBm", rename={"__name__": "reading"}, hide=["cluster"],
                order=["instance", "netdev", "lane"], value_color=False,
                links=[{"title": "Optics", "url": OPTICS_URL}]), 8, 5)
    L.add(table("NICs with PCIe below its maximum",
                "Current PCIe bandwidth (width x speed) as a fraction of the maximum "
                "(roce:pcie_link_bandwidth:ratio); alert RoCEPCIeDowngraded.",
                [target(f"roce:pcie_link_bandwidth:ratio{{{ci}}} < 1")],
                "percentunit", thresholds=steps("red", None, "green", 1),
                hide=["cluster"], order=["instance", "device"], sort_by="Value",
                sort_desc=False), 8, 5)

    L.row("Configuration (roce-lint)")
    L.add(bargauge("Open findings by check",
                   "Open roce-lint findings counted by check; the lint findings dashboard has "
                   "each one.",
                   [target('count by (check) (roce_lint_finding{cluster=~"$cluster"} == 1)',
                           "{{check}}", instant=True)],
                   "none", steps("green", None, "orange", 1)), 12, 8)
    L.add(bargauge("Open findings by node",
                   "Open roce-lint findings counted by node of the plan.",
                   [target('count by (node) (roce_lint_finding{cluster=~"$cluster"} == 1)',
                           "{{node}}", instant=True)],
                   "none", steps("green", None, "orange", 1)), 12, 8)

    return dashboard("rocewatch-cluster-overview", "rocewatch / Cluster overview",
                     "The RoCE fabric from the hosts' side: port states, lint findings, top "
                     "talkers, PFC pause, CNPs, drops, optics and PCIe of every NIC.",
                     L, exporter_vars("cluster", "instance", "priority"))


def nic_detail() -> Dict[str, Any]:
    L = Layout()

    L.row("State")
    L.add(stat("Port state", "Logical state of the RDMA port (roce_port_state); ACTIVE is "
               "the only good one.",
               [target(f"roce_port_state{{{CID}}}", "{{instance}} {{device}}/{{port}}",
                       instant=True)],
               "none", steps("red", None, "green", 4), mappings=PORT_STATE_MAPPINGS,
               text_mode="value_and_name"), 6, 4)
    L.add(stat("Port rate", "Rate the port reports (roce_port_rate_bytes_per_second), in bits "
               "per second.",
               [target(f"roce_port_rate_bytes_per_second{{{CID}}} * 8",
                       "{{instance}} {{device}}", instant=True)],
               "bps", OK_ONLY, color_mode="value", text_mode="value_and_name"), 6, 4)
    L.add(stat("MTU (netdev / active RoCE)", "Netdev MTU (roce_netdev_mtu_bytes, 9000 "
               "wanted) and the RoCE path MTU the port runs (roce_port_active_mtu_bytes, "
               "4096 wanted).",
               [target(f"roce_netdev_mtu_bytes{{{CIN}}}", "{{netdev}} netdev", instant=True),
                target(f"roce_port_active_mtu_bytes{{{CID}}}", "{{device}} RoCE",
                       instant=True)],
               "bytes", steps("orange", None, "green", 4096), text_mode="value_and_name",
               decimals=0), 6, 4)
    L.add(stat("Carrier changes in range", "Link flaps: carrier transitions "
               "(roce_netdev_carrier_changes_total) in the time range; each flap is two.",
               [target(f"increase(roce_netdev_carrier_changes_total{{{CIN}}}[$__range])",
                       "{{netdev}}", instant=True)],
               "none", steps("green", None, "orange", 1, "red", 3), decimals=0,
               text_mode="value_and_name"), 6, 4)

    L.row("Throughput")
    L.add(timeseries("RDMA throughput", "Bytes per second through the RDMA port "
                     "(port_rcv_data/port_xmit_data x 4); transmit below the axis.",
                     [target(f"rate(roce_port_received_bytes_total{{{CID}}}[$__rate_interval])",
                             "{{instance}} {{device}} receive"),
                      target("rate(roce_port_transmitted_bytes_total"
                             f"{{{CID}}}[$__rate_interval])",
                             "{{instance}} {{device}} transmit")],
                     "Bps", overrides=TX_BELOW), 12, 8)
    L.add(timeseries("Ethernet port throughput vs link speed",
                     "All traffic of the physical port (ethtool rx/tx_bytes_phy), RDMA and "
                     "TCP alike, against the link speed.",
                     [target(f"rate(roce_ethtool_rx_bytes_total{{{CIN}}}[$__rate_interval])",
                             "{{instance}} {{netdev}} rx"),
                      target(f"rate(roce_ethtool_tx_bytes_total{{{CIN}}}[$__rate_interval])",
                             "{{instance}} {{netdev}} tx"),
                      target(f"roce_ethtool_link_speed_bytes_per_second{{{CIN}}}",
                             "{{instance}} {{netdev}} link speed")],
                     "Bps", overrides=[override_regex(".*link speed.*", {
                         "custom.lineStyle": {"fill": "dash", "dash": [10, 10]},
                         "custom.fillOpacity": 0,
                         "color": {"mode": "fixed", "fixedColor": "red"}})]), 12, 8)

    L.row("PFC (priority flow control)")
    L.add(timeseries("PFC pause frames per priority",
                     "Pause frames per second per priority. rx: the switch paused this NIC; "
                     "tx: this NIC paused the switch (ethtool statistics, and dcbnl's for the "
                     "priorities mlx5's ethtool leaves out). Pause on a priority without PFC "
                     "raises RoCEPauseOnNonPFCPriority.",
                     [target(f"rate(roce_pfc_pause_frames_total{{{CINP}}}[$__rate_interval]) "
                             "or rate(roce_dcb_pfc_pause_frames_total"
                             f"{{{CINP}}}[$__rate_interval])",
                             "{{instance}} {{netdev}} p{{priority}} {{direction}}")],
                     "pps"), 12, 8)
    L.add(timeseries("Fraction of time paused",
                     "Seconds paused per second per priority (rate of the pause duration). "
                     "Above 50 % for 2 minutes raises RoCEPFCPauseStorm.",
                     [target("rate(roce_pfc_pause_duration_seconds_total"
                             f"{{{CINP}}}[$__rate_interval])",
                             "{{instance}} {{netdev}} p{{priority}} {{direction}}")],
                     "percentunit", thresholds=steps("green", None, "orange", 0.1, "red", 0.5),
                     draw_thresholds="line+area", min_=0, max_=1), 12, 8)
    L.add(timeseries("Pause-storm watchdog events",
                     "The NIC's pause-storm prevention: warning events (pause sent longer than "
                     "the warning threshold) and error events (the NIC stopped sending pause).",
                     [target("increase(roce_ethtool_tx_pause_storm_warning_events_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{instance}} {{netdev}} warning"),
                      target("increase(roce_ethtool_tx_pause_storm_error_events_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{instance}} {{netdev}} error")],
                     "none", thresholds=steps("green", None, "red", 1), draw_thresholds="line",
                     bars=True), 6, 7)
    L.add(stat("PFC enabled per priority", "PFC setting of each priority (roce_pfc_enabled, "
               "from dcbnl): the RoCE priority (usually 3) must be on, the others off. By "
               "default the exporter serves the priorities with PFC on, those its DSCPs map "
               "to and those counting pause frames (all eight when PFC is on nowhere).",
               [target(f"roce_pfc_enabled{{{CINP}}}", "{{netdev}} p{{priority}}",
                       instant=True)],
               "none", steps("text", None), mappings=ON_OFF_MAPPINGS,
               text_mode="value_and_name"), 5, 7)
    L.add(stat("ECN enabled per priority", "ECN/DCQCN per priority at the notification point "
               "(np, the receiver that sends CNPs) and the reaction point (rp, the sender "
               "that slows down), roce_ecn_enabled: on for the RoCE priority at both. By "
               "default only priorities with ECN or PFC on are served.",
               [target(f"roce_ecn_enabled{{{CINP}}}", "{{netdev}} {{point}} p{{priority}}",
                       instant=True)],
               "none", steps("text", None), mappings=ON_OFF_MAPPINGS,
               text_mode="value_and_name"), 5, 7)
    L.add(stat("Trust mode", "What the NIC classifies received packets by "
               "(roce_qos_trust_info): RoCE wants dscp.",
               [target(f"roce_qos_trust_info{{{CIN}}}", "{{netdev}}: {{mode}}", instant=True)],
               "none", steps("text", None), text_mode="name", color_mode="value"), 4, 7)
    L.add(stat("802.3x global pause", "Global (link-level) pause, roce_pause_rx_enabled / "
               "roce_pause_tx_enabled: must be off where PFC is used.",
               [target(f"roce_pause_rx_enabled{{{CIN}}}", "{{netdev}} rx", instant=True),
                target(f"roce_pause_tx_enabled{{{CIN}}}", "{{netdev}} tx", instant=True)],
               "none", steps("green", None, "red", 1), mappings=ON_OFF_GLOBAL_PAUSE,
               text_mode="value_and_name"), 4, 7)

    L.add(table("Both ends of the link: PFC per priority",
                "The priorities each end of the cable has PFC on: the NIC (roce_pfc_enabled, "
                "from dcbnl) and the switch port at the other end (roce_lldp_peer_pfc_enabled, "
                "its LLDP DCBX PFC TLV as the node's lldpd received it), with the switch and "
                "port (roce_lldp_neighbor_info). A priority on one end only raises "
                "RoCEPeerPFCMismatch; a switch sending no DCBX has no rows here "
                "(roce_lldp_peer_dcbx_sent 0: roce-lint check --switch-config reads its "
                "configuration instead).",
                [target(f'label_replace(roce_pfc_enabled{{{CINP}}} == 1, "end", "NIC", "", "") '
                        f'or label_replace(roce_lldp_peer_pfc_enabled{{{CINP}}} == 1, "end", '
                        '"switch port", "", "") * on(cluster, job, instance, netdev) '
                        'group_left(system_name, port_id) topk by (cluster, job, instance, '
                        f'netdev) (1, roce_lldp_neighbor_info{{{CIN}}})')],
                "none", hide=["Value", "cluster"],
                order=["instance", "netdev", "priority", "end", "system_name", "port_id"],
                rename={"system_name": "switch", "port_id": "switch port"},
                sort_by="netdev", sort_desc=False, value_color=False), 24, 7)

    L.row("Drops and ECN")
    L.add(timeseries("Discards",
                     "Packets the NIC dropped, per priority (rx_prio*_discards, _buf_discard, "
                     "_cong_discard) and port-wide (rx/tx_discards_phy, rx_out_of_buffer, "
                     "outbound_pci_buffer_overflow).",
                     [target(f"rate(roce_priority_discards_total{{{CINP}}}[$__rate_interval])",
                             "{{netdev}} p{{priority}} discards"),
                      target("rate(roce_priority_buffer_discards_total"
                             f"{{{CINP}}}[$__rate_interval])",
                             "{{netdev}} p{{priority}} buffer discards"),
                      target("rate(roce_priority_congestion_discards_total"
                             f"{{{CINP}}}[$__rate_interval])",
                             "{{netdev}} p{{priority}} congestion discards"),
                      target("rate(roce_ethtool_rx_discarded_packets_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} rx_discards_phy"),
                      target("rate(roce_ethtool_tx_discarded_packets_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} tx_discards_phy"),
                      target("rate(roce_ethtool_rx_out_of_buffer_packets_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} rx_out_of_buffer"),
                      target("rate(roce_ethtool_pcie_outbound_buffer_overflow_packets_total"
                             f"{{{CIN}}}[$__rate_interval])",
                             "{{netdev}} PCIe buffer overflow")],
                     "pps", thresholds=steps("green", None, "red", 1), draw_thresholds="line"),
          12, 8)
    L.add(timeseries("ECN-marked packets",
                     "Packets that arrived with ECN Congestion Experienced, per priority "
                     "(rx_prio*_marked) and as the RDMA device counts them "
                     "(event ecn_marked).",
                     [target("rate(roce_priority_ecn_marked_packets_total"
                             f"{{{CINP}}}[$__rate_interval])",
                             "{{netdev}} p{{priority}} marked"),
                      target("rate(roce_transport_events_total"
                             f'{{{CID}, event="ecn_marked"}}[$__rate_interval])',
                             "{{device}} ecn_marked")],
                     "pps"), 12, 8)

    L.row("RDMA transport (DCQCN, retransmissions)")
    L.add(timeseries("CNPs sent/handled",
                     "cnp_sent: CNPs this NIC sent as notification point (it receives "
                     "ECN-marked traffic). cnp_handled: CNPs its flows reacted to.",
                     [target("rate(roce_transport_events_total"
                             f'{{{CID}, event=~"{CNP_EVENTS}"}}[$__rate_interval])',
                             "{{device}} {{event}}")],
                     "pps", thresholds=steps("green", None, "orange", 10000),
                     draw_thresholds="dashed"), 12, 8)
    L.add(timeseries("Retransmissions and sequence errors by event",
                     "Transport errors of the RDMA device by event: out-of-sequence packets, "
                     "NAK sequence errors, retransmissions, ACK timeouts, exhausted retries, "
                     "duplicate requests. They stand still on a healthy lossless fabric.",
                     [target("rate(roce_transport_events_total"
                             f'{{{CID}, event=~"{RETRANSMIT_EVENTS}|duplicate_request"}}'
                             "[$__rate_interval])", "{{device}} {{event}}")],
                     "pps", thresholds=steps("green", None, "red", 1), draw_thresholds="dashed"),
          12, 8)

    L.row("Link and physical layer")
    L.add(timeseries("Link flaps",
                     "Carrier changes (roce_netdev_carrier_changes_total) and PHY link-down "
                     "events (link_down_events_phy) per interval.",
                     [target("increase(roce_netdev_carrier_changes_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} carrier changes"),
                      target("increase(roce_ethtool_link_down_events_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} link down (PHY)")],
                     "none", bars=True, thresholds=steps("green", None, "red", 1),
                     draw_thresholds="line"), 8, 7)
    L.add(timeseries("Physical errors",
                     "Frames with bad FCS, symbol errors, and bits FEC corrected: rising "
                     "corrections precede errors on a degrading link.",
                     [target("rate(roce_ethtool_rx_crc_error_frames_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} CRC errors"),
                      target("rate(roce_ethtool_rx_symbol_errors_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} symbol errors"),
                      target("rate(roce_ethtool_rx_fec_corrected_bit_errors_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} FEC corrected bits")],
                     "cps"), 8, 7)
    L.add(table("Link settings", "Duplex, connector and autonegotiation of the port "
                "(roce_ethtool_link_info) and why the link is down, where it is "
                "(roce_link_down_reason_info).",
                [target(f"roce_ethtool_link_info{{{CIN}}}"),
                 target(f"roce_link_down_reason_info{{{CIN}}}")],
                "none", hide=["cluster", "Value #A", "Value #B"], merge=True,
                order=["instance", "netdev"], value_color=False), 8, 7)

    L.row("Link quality (FEC)")
    L.add(timeseries("FEC blocks: uncorrectable and corrected",
                     "Codewords FEC could not correct (roce_fec_uncorrectable_blocks_total: each "
                     "a lost frame, alert RoCEFECUncorrectable) and codewords it corrected "
                     "(roce_fec_corrected_blocks_total), per port, per second.",
                     [target("rate(roce_fec_uncorrectable_blocks_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} uncorrectable"),
                      target("rate(roce_fec_corrected_blocks_total"
                             f"{{{CIN}}}[$__rate_interval])", "{{netdev}} corrected")],
                     "cps", thresholds=steps("green", None, "red", 0.001), draw_thresholds="line",
                     overrides=[override_regex(".* uncorrectable$",
                                               {"custom.axisPlacement": "right"})]), 8, 7)
    L.add(timeseries("Pre-FEC bit error ratio",
                     "Bits FEC corrected per bit on the line (roce_fec_corrected_bits_total, or "
                     "mlx5's rx_corrected_bits_phy, over the link speed): the margin before "
                     "blocks become uncorrectable; RS(544,514) corrects up to about 2.4e-4 "
                     "(roce-lint counters.fec-ber).",
                     [target("(rate(roce_fec_corrected_bits_total"
                             f"{{{CIN}}}[$__rate_interval]) or rate("
                             f"roce_ethtool_rx_fec_corrected_bit_errors_total{{{CIN}}}"
                             "[$__rate_interval])) / on(cluster, job, instance, netdev) "
                             f"(roce_ethtool_link_speed_bytes_per_second{{{CIN}}} * 8)",
                             "{{netdev}}")],
                     "sci", min_=0, thresholds=steps("green", None, "orange", 1e-5, "red", 2.4e-4),
                     draw_thresholds="dashed"), 8, 7)
    L.add(table("FEC encoding", "The FEC encoding each port runs (roce_fec_active_info) and is "
                "configured for (roce_fec_configured_info); both ends of a link must agree "
                "(roce-lint link.fec-mode).",
                [target(f'label_replace(roce_fec_active_info{{{CIN}}}, "kind", "active", "", "")'
                        f' or label_replace(roce_fec_configured_info{{{CIN}}}, "kind", '
                        '"configured", "", "")')],
                "none", hide=["cluster", "Value"], order=["instance", "netdev", "kind", "mode"],
                value_color=False), 8, 7)

    L.row("Jobs")
    L.add(table("Jobs on this NIC",
                "The pods, Slurm jobs and systemd units whose processes hold QPs on the RDMA "
                "device now (roce_rdma_job_qps, exporter flag --collector.rdma.per-job: 16 jobs a "
                "device, the rest as kind folded; kernel users as kind kernel), a pod with its "
                "namespace and name where the exporter reads them (roce_rdma_job_pod_info, flag "
                "--collector.rdma.pod-names-root). roce-lint's counters.pause-storm and "
                "counters.cnp-storm name the same jobs.",
                [target(f"roce_rdma_job_qps{{{CID}}} * on(cluster, instance, device, workload) "
                        f"group_left(pod_namespace, pod_name) roce_rdma_job_pod_info{{{CID}}} "
                        f"or on(cluster, instance, device, kind, workload) roce_rdma_job_qps{{{CID}}}")],
                "none", hide=["cluster"],
                order=["instance", "device", "kind", "pod_namespace", "pod_name", "workload", "qos"],
                rename={"Value": "QPs"}, sort_by="QPs", value_color=False), 24, 7)

    L.row("PCIe")
    L.add(timeseries("PCIe link width (current vs max)",
                     "Lanes the PCIe link trained at, and the most it supports "
                     "(alert RoCEPCIeDowngraded).",
                     [target(f"roce_pcie_link_width{{{CID}}}", "{{device}} {{kind}}")],
                     "prefix:x", min_=0, decimals=0), 8, 7)
    L.add(timeseries("PCIe link speed (current vs max)",
                     "Transfer rate per lane the PCIe link trained at, and the most it "
                     "supports: 32 GT/s is Gen5, 16 Gen4, 8 Gen3.",
                     [target(f"roce_pcie_link_speed_transfers_per_second{{{CID}}} / 1e9",
                             "{{device}} {{kind}}")],
                     "suffix: GT/s", min_=0), 8, 7)
    L.add(timeseries("PCIe outbound stalls",
                     "Share of time outbound PCIe reads and writes waited for credits: a host "
                     "that cannot take the NIC's rate.",
                     [target(f"roce_ethtool_pcie_outbound_read_stalled_ratio{{{CIN}}}",
                             "{{netdev}} read"),
                      target(f"roce_ethtool_pcie_outbound_write_stalled_ratio{{{CIN}}}",
                             "{{netdev}} write")],
                     "percentunit", min_=0, thresholds=steps("green", None, "orange", 0.3),
                     draw_thresholds="dashed"), 8, 7)

    return dashboard("rocewatch-nic-detail", "rocewatch / NIC detail",
                     "One NIC (or a few): throughput, per-priority PFC pause and pause time, "
                     "discards, ECN, CNPs, retransmissions, link flaps and PCIe.",
                     L, exporter_vars("cluster", "instance", "device", "netdev", "priority"),
                     time_from="now-1h")


def optics() -> Dict[str, Any]:
    L = Layout()

    L.row("Modules")
    L.add(table("Transceivers", "Identity of each module (roce_module_info) and whether the "
                "exporter could read its EEPROM (roce_module_read_success).",
                [target(f"roce_module_info{{{CIN}}}"),
                 target(f"roce_module_read_success{{{CIN}}}")],
                "none", hide=["cluster", "Value #A"], merge=True,
                rename={"Value #B": "EEPROM read"}, mappings=PRESENT_MAPPINGS,
                order=["instance", "netdev", "identifier", "vendor", "part_number",
                       "serial", "revision", "spec", "connector", "media"]), 24, 6)

    L.row("Temperature and supply")
    L.add(timeseries("Module temperature",
                     "Temperature of each module against its own high warning/alarm "
                     "thresholds (dashed).",
                     [target(f"roce_module_temperature_celsius{{{CIN}}}",
                             "{{instance}} {{netdev}}"),
                      target(f'roce_module_threshold{{{CIN}, sensor="temperature_celsius", '
                             'level=~"high_warning|high_alarm"}',
                             "{{instance}} {{netdev}} {{level}}")],
                     "celsius", overrides=THRESHOLD_LINES), 12, 8)
    L.add(timeseries("Module supply voltage",
                     "Supply voltage of each module against its own warning thresholds "
                     "(dashed).",
                     [target(f"roce_module_voltage_volts{{{CIN}}}", "{{instance}} {{netdev}}"),
                      target(f'roce_module_threshold{{{CIN}, sensor="voltage_volts", '
                             'level=~"high_warning|low_warning"}',
                             "{{instance}} {{netdev}} {{level}}")],
                     "volt", overrides=THRESHOLD_LINES), 12, 8)

    L.row("Lanes")
    L.add(timeseries("RX power per lane (dBm)",
                     "Received optical power per lane, 10 log10(mW), against the module's own "
                     "warning thresholds (dashed). A dark lane reads -40 dBm.",
                     [target(f"roce:module_lane_rx_power:dbm{{{CIN}}}",
                             "{{instance}} {{netdev}} lane {{lane}}"),
                      target(f'roce:module_threshold_power:dbm{{{CIN}, sensor="rx_power_watts", '
                             'level=~"low_warning|high_warning"}',
                             "{{instance}} {{netdev}} {{level}}")],
                     "dBm", overrides=THRESHOLD_LINES, decimals=2), 12, 9)
    L.add(timeseries("TX power per lane (dBm)",
                     "Transmitted optical power per lane, 10 log10(mW), against the module's "
                     "own warning thresholds (dashed).",
                     [target(f"roce:module_lane_tx_power:dbm{{{CIN}}}",
                             "{{instance}} {{netdev}} lane {{lane}}"),
                      target(f'roce:module_threshold_power:dbm{{{CIN}, sensor="tx_power_watts", '
                             'level=~"low_warning|high_warning"}',
                             "{{instance}} {{netdev}} {{level}}")],
                     "dBm", overrides=THRESHOLD_LINES, decimals=2), 12, 9)
    L.add(timeseries("Laser bias current per lane",
                     "TX bias current per lane against the module's own warning thresholds "
                     "(dashed). Bias rising at constant TX power: an ageing laser.",
                     [target(f"roce_module_lane_tx_bias_amperes{{{CIN}}}",
                             "{{instance}} {{netdev}} lane {{lane}}"),
                      target(f'roce_module_threshold{{{CIN}, sensor="tx_bias_amperes", '
                             'level=~"low_warning|high_warning"}',
                             "{{instance}} {{netdev}} {{level}}")],
                     "amp", overrides=THRESHOLD_LINES), 12, 8)
    L.add(table("Flags raised by the modules",
                "Alarm and warning flags the modules set (roce_module_flag = 1), by sensor and "
                "lane.",
                [target(f"roce_module_flag{{{CIN}}} == 1")],
                "none", hide=["cluster", "Value"], order=["instance", "netdev", "sensor",
                                                           "lane", "level"],
                value_color=False), 12, 8)

    return dashboard("rocewatch-optics", "rocewatch / Optics",
                     "Transceiver DOM: temperature, voltage, per-lane bias and TX/RX power in "
                     "dBm against each module's own thresholds.",
                     L, exporter_vars("cluster", "instance", "device", "netdev"),
                     time_from="now-24h", refresh="1m")


def lint_findings() -> Dict[str, Any]:
    L = Layout()
    sel = ('cluster=~"$cluster", node=~"$node", check=~"$check", severity=~"$severity", '
           'netdev=~"$netdev"')

    L.row("roce-lint")
    L.add(stat("Open findings", "Findings of the last run by severity (roce_lint_findings).",
               [target('sum by (severity) (roce_lint_findings{cluster=~"$cluster", '
                       'instance=~"$instance"})', "{{severity}}", instant=True)],
               "none", OK_ONLY, color_mode="value", text_mode="value_and_name",
               overrides=SEVERITY_COLORS), 8, 4)
    L.add(stat("Nodes", "Nodes of the plan in the last run: passed, failed (has findings), "
               "unreachable (no metrics).",
               [target('sum by (state) (roce_lint_nodes{cluster=~"$cluster", '
                       'instance=~"$instance"})', "{{state}}", instant=True)],
               "none", OK_ONLY, color_mode="value", text_mode="value_and_name"), 6, 4)
    L.add(stat("Last run succeeded", "roce_lint_run_success of the last run.",
               [target('roce_lint_run_success{cluster=~"$cluster", instance=~"$instance"}',
                       "{{instance}}", instant=True)],
               "none", steps("red", None, "green", 1), mappings=[{"type": "value", "options": {
                   "0": {"text": "failed", "color": "red", "index": 0},
                   "1": {"text": "ok", "color": "green", "index": 1}}}]), 4, 4)
    L.add(stat("Last run age", "Time since roce-lint last completed a run; over 30 minutes "
               "raises RoCELintFailing.",
               [target('time() - roce_lint_last_run_timestamp_seconds{cluster=~"$cluster", '
                       'instance=~"$instance"}', "{{instance}}", instant=True)],
               "s", steps("green", None, "orange", 600, "red", 1800)), 3, 4)
    L.add(stat("Run duration", "How long the last roce-lint run took.",
               [target('roce_lint_run_duration_seconds{cluster=~"$cluster", '
                       'instance=~"$instance"}', "{{instance}}", instant=True)],
               "s", OK_ONLY, color_mode="value"), 3, 4)

    L.row("Findings")
    L.add(table("Open findings by node and check",
                "Every open finding (roce_lint_finding = 1). `roce-lint check` prints each "
                "one with what was expected, what was found and the fixing command.",
                [target(f"roce_lint_finding{{{sel}}} == 1")],
                "none", hide=["cluster", "Value", "instance"],
                order=["node", "device", "netdev", "check", "severity"], sort_by="node",
                sort_desc=False, value_color=False), 24, 12)
    L.add(timeseries("Findings over time", "Open findings by severity, run after run.",
                     [target('sum by (severity) (roce_lint_findings{cluster=~"$cluster", '
                             'instance=~"$instance", severity=~"$severity"})', "{{severity}}")],
                     "none", stack=True, overrides=SEVERITY_COLORS, decimals=0), 12, 8)
    L.add(bargauge("Findings by check", "Open findings counted by check.",
                   [target(f"count by (check) (roce_lint_finding{{{sel}}} == 1)", "{{check}}",
                           instant=True)],
                   "none", steps("green", None, "orange", 1)), 6, 8)
    L.add(bargauge("Findings by node", "Open findings counted by node.",
                   [target(f"count by (node) (roce_lint_finding{{{sel}}} == 1)", "{{node}}",
                           instant=True)],
                   "none", steps("green", None, "orange", 1)), 6, 8)

    L.row("Cabling")
    L.add(table("Cabling as the nodes see it (LLDP)",
                "Each netdev's LLDP neighbour from the exporters' lldp collector "
                "(roce_lldp_neighbor_info): the switch (System Name) and port it is cabled to. "
                "The plan's switch_port is compared with it by roce-lint (cabling.* checks).",
                [target("roce_lldp_neighbor_info == 1")],
                "none", hide=["Value", "chassis_id_subtype", "port_id_subtype"],
                order=["instance", "netdev", "system_name", "port_id", "port_description",
                       "chassis_id", "management_address"],
                rename={"instance": "node", "system_name": "switch", "port_id": "seen port"},
                sort_by="instance", sort_desc=False, value_color=False), 14, 10)
    L.add(table("Cabling mismatches",
                "Open cabling findings: a NIC on another port or rail than planned, two NICs on "
                "one rail, link up without a neighbour, one switch port seen twice. "
                "`roce-lint check` prints the planned and seen ports and which cable to move.",
                [target('roce_lint_finding{cluster=~"$cluster", node=~"$node", '
                        'check=~"cabling[.].*"} == 1')],
                "none", hide=["cluster", "Value", "instance", "severity"],
                order=["node", "device", "netdev", "check"], sort_by="node",
                sort_desc=False, value_color=False), 10, 10)

    variables = [
        datasource_var(),
        query_var("cluster", "Cluster", "label_values(roce_lint_run_success, cluster)"),
        query_var("instance", "roce-lint",
                  'label_values(roce_lint_run_success{cluster=~"$cluster"}, instance)'),
        query_var("node", "Node", 'label_values(roce_lint_finding{cluster=~"$cluster"}, node)'),
        query_var("netdev", "Netdev",
                  'label_values(roce_lint_finding{cluster=~"$cluster", node=~"$node"}, netdev)'),
        query_var("check", "Check",
                  'label_values(roce_lint_finding{cluster=~"$cluster"}, check)'),
        custom_var("severity", "Severity", ["critical", "error", "warning", "info"]),
    ]
    return dashboard("rocewatch-lint-findings", "rocewatch / Lint findings",
                     "roce-lint serve: open configuration findings by node and check, and the "
                     "health of the lint runs.", L, variables, refresh="1m", time_from="now-24h")


RELATION_MAPPINGS = [{"type": "value", "options": {
    "1": {"text": "PIX", "color": "green", "index": 0},
    "2": {"text": "PXB", "color": "green", "index": 1},
    "3": {"text": "PHB", "color": "yellow", "index": 2},
    "4": {"text": "NODE", "color": "orange", "index": 3},
    "5": {"text": "SYS", "color": "red", "index": 4},
}}]


def matrix(title: str, description: str, expr: str, unit: str, *, thresholds: Dict[str, Any],
           mappings: Optional[list] = None) -> Dict[str, Any]:
    """A table of one value per (NIC, GPU): rows `nic` (instance and device), columns `gpu`."""
    fc = _field_config(unit, thresholds, mappings=mappings,
                       custom={"align": "center", "displayMode": "color-background",
                               "inspect": False})
    return {
        "type": "table",
        "title": title,
        "description": description,
        "datasource": DS,
        "targets": _refs([dict(target(expr), format="table", instant=True, range=False)]),
        "fieldConfig": fc,
        "options": {"showHeader": True, "footer": {"show": False, "reducer": ["sum"], "fields": ""},
                    "cellHeight": "sm"},
        "transformations": [{"id": "groupingToMatrix",
                             "options": {"columnField": "gpu", "rowField": "nic",
                                         "valueField": "Value"}}],
    }


def gpudirect() -> Dict[str, Any]:
    L = Layout()
    nic = 'label_join({m}{{{sel}}}, "nic", " ", "instance", "device")'

    L.row("GPU-NIC paths")
    L.add(matrix("Relation of each NIC to each GPU",
                 "roce_gpu_nic_relation: how far each RDMA device is from each GPU on PCIe, in "
                 "NCCL's words. PIX/PXB: below PCIe switches (GPUDirect RDMA at full speed); PHB, "
                 "NODE: through the host bridge; SYS: across sockets, where NCCL stops using "
                 "GPUDirect.",
                 nic.format(m="roce_gpu_nic_relation", sel=CID), "none",
                 thresholds=steps("green", None), mappings=RELATION_MAPPINGS), 12, 9)
    L.add(matrix("Bridges redirecting (ACS) on each path",
                 "roce_gpu_nic_acs_redirect_bridges: bridges between NIC and GPU (PIX and PXB "
                 "pairs) with ACS P2P request or completion redirect on. Anything but 0 sends "
                 "the GPUDirect traffic up to the root complex and back. Empty: config space "
                 "not readable (the exporter lacks CAP_SYS_ADMIN).",
                 nic.format(m="roce_gpu_nic_acs_redirect_bridges", sel=CID), "none",
                 thresholds=BAD_FROM_1), 12, 9)

    L.row("Bridges and errors")
    L.add(table("ACS redirect on the bridges",
                "Bridges with ACS P2P Request Redirect or Completion Redirect on "
                "(roce_pcie_bridge_acs_control = 1); `setpci -s <bridge> ECAP_ACS+6.w=0000:000c` "
                "clears both (docs/runbook.md).",
                [target(f'roce_pcie_bridge_acs_control{{{CI}, bit=~"req_redir|cmplt_redir"}} == 1')],
                "none", hide=["cluster", "Value"], order=["instance", "bridge", "bit"],
                value_color=False), 8, 8)
    L.add(timeseries("AER errors (NICs and their bridges)",
                     "PCIe AER errors per function and severity, per second "
                     "(roce_pcie_aer_errors_total). Correctable errors are replayed TLPs; "
                     "non-fatal and fatal ones lost transactions.",
                     [target(f"rate(roce_pcie_aer_errors_total{{{CI}}}[$__rate_interval]) > 0",
                             "{{instance}} {{pci_address}} {{aer_severity}}")],
                     "short", thresholds=BAD_FROM_1, draw_thresholds="line"), 16, 8)

    L.row("NIC PCIe settings")
    L.add(table("GPUDirect settings of the NICs",
                "MaxReadReq and MaxPayload (bytes), relaxed ordering and ATS of each NIC "
                "(Device Control, ATS Control: need CAP_SYS_ADMIN), and its IOMMU group type.",
                [target(f"roce_pcie_max_read_request_bytes{{{CID}}}"),
                 target(f"roce_pcie_max_payload_bytes{{{CID}}}"),
                 target(f"roce_pcie_relaxed_ordering_enabled{{{CID}}}"),
                 target(f"roce_pcie_ats_enabled{{{CID}}}"),
                 target(f"roce_pcie_iommu_group_info{{{CID}}}")],
                "none", hide=["cluster", "Value #E"], merge=True, value_color=False,
                rename={"Value #A": "MaxReadReq", "Value #B": "MaxPayload",
                        "Value #C": "relaxed ordering", "Value #D": "ATS", "type": "IOMMU"},
                order=["instance", "device"]), 16, 7)
    L.add(table("Peer-memory modules",
                "roce_gpu_peer_memory_module_loaded: whether nvidia_peermem (or the older "
                "nv_peer_mem, ib_peer_mem) is loaded; GPUDirect RDMA needs one unless NCCL "
                "uses dma-buf.",
                [target(f"roce_gpu_peer_memory_module_loaded{{{CI}}}")],
                "none", hide=["cluster"], mappings=PRESENT_MAPPINGS,
                order=["instance", "module"]), 8, 7)

    return dashboard("rocewatch-gpudirect", "rocewatch / GPUDirect paths",
                     "Per node: how far each NIC is from each GPU on PCIe, ACS redirect on the "
                     "bridges between them, AER errors, and the NICs' PCIe settings for "
                     "GPUDirect RDMA.",
                     L, exporter_vars("cluster", "instance", "device"),
                     time_from="now-6h", refresh="1m")


DASHBOARDS = {
    "rocewatch-cluster-overview.json": cluster_overview,
    "rocewatch-nic-detail.json": nic_detail,
    "rocewatch-optics.json": optics,
    "rocewatch-lint-findings.json": lint_findings,
    "rocewatch-gpudirect.json": gpudirect,
}


def render(build) -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the checked-in files instead of writing them")
    ap.add_argument("--out", type=Path, default=HERE, help="directory to write to")
    args = ap.parse_args(argv)
    stale = []
    for name, build in DASHBOARDS.items():
        text = render(build)
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print("out of date (run python3 dashboards/grafana/generate.py): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
