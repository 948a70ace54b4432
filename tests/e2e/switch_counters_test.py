#!/usr/bin/env python3
"""roce-lint check --prometheus reading switch pause counters (issue 30) from real engines:
Prometheus (blocks made by promtool from OpenMetrics) and VictoriaMetrics (its import API),
holding the NICs' series as the exporter serves them and switch series in the shape of each
built-in counter profile (names: tests/e2e/switch_counters/PROVENANCE.md; values made up), over
a 5-minute window. roce-lint must report exactly the seeded disagreements, each naming both
ends, and nothing for the agreeing links:
  gpu-1  leaf-cisco Ethernet1 (snmp-cisco-pfc-ext)      agrees
  gpu-2  leaf-cisco Ethernet2 (snmp-cisco-pfc-ext)      switch pauses priority 5, no NIC PFC there
  gpu-3  leaf-arista Ethernet3/1 (snmp-arista-pfc)      switch sent no pauses, NIC received 20000
  gpu-4  leaf-cumulus swp4 (snmp-cumulus-counters)      agrees (the switch's instance has a domain)
  gpu-5  leaf-nv swp5 (otel-nvswitch)                   switch counter reset in the window: it
                                                        sent 8050 since, NIC received none
  gpu-6  leaf-cisco Ethernet6                           no switch series: named in the note
  gpu-7  leaf-eos Ethernet7 (gnmic-arista-pfc)          agrees (gnmic's source is the target
                                                        name with its port, leaf-eos:6030)
  gpu-8  leaf-cl swp8 (gnmic-cumulus-switch-priority)   switch sent 3000, NIC received 15000
Then roce-lint serve over VictoriaMetrics, the same series stored now: its run reads the counter
window from the store and finds the same disagreements (roce_lint_finding, pushed to Alertmanager).
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "tools" / "gen"))
import fleet_store  # noqa: E402
from exporter_process import LintServe  # noqa: E402

LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
NIC = {"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "p"}
LINKS = {  # node: (switch System Name, Port ID)
    "gpu-1": ("leaf-cisco", "Ethernet1"), "gpu-2": ("leaf-cisco", "Ethernet2"),
    "gpu-3": ("leaf-arista", "Ethernet3/1"), "gpu-4": ("leaf-cumulus", "swp4"),
    "gpu-5": ("leaf-nv", "swp5"), "gpu-6": ("leaf-cisco", "Ethernet6"),
    "gpu-7": ("leaf-eos", "Ethernet7"), "gpu-8": ("leaf-cl", "swp8"),
}
NIC_RX3 = {"gpu-1": 12000, "gpu-2": 12000, "gpu-3": 20000, "gpu-4": 9000, "gpu-5": 0, "gpu-6": 500,
           "gpu-7": 7000, "gpu-8": 15000}
NIC_RX5 = {"gpu-2": 2500}
EXPECTED = {("gpu-2", "peer.switch-pause-non-pfc"), ("gpu-3", "peer.pause-mismatch"),
            ("gpu-5", "peer.pause-mismatch"), ("gpu-8", "peer.pause-mismatch")}


def exporter(node):
    return "127.0.0.1:" + str(19400 + int(node.split("-")[1]))


def nic_lines(node, end):
    """The node's series: (name, labels, value); `end` picks the counters' values at the window's end."""
    nd = 'netdev="ens1f0np0"'
    sw, port = LINKS[node]
    out = [("roce_exporter_collector_success", 'collector="lldp"', 1),
           ("roce_device_info", 'device="mlx5_0",netdev="ens1f0np0"', 1),
           ("roce_dcb_supported", nd, 1),
           ("roce_lldp_daemon_reachable", "", 1),
           ("roce_lldp_neighbor_info", f'{nd},chassis_id="0c:42:a1:00:00:01",chassis_id_subtype="mac",'
            f'system_name="{sw}",port_id="{port}",port_id_subtype="ifname"', 1)]
    for p in range(8):
        out.append(("roce_pfc_enabled", f'{nd},priority="{p}"', 1 if p == 3 else 0))
    base = 1_000_000
    for p, grow in ((3, NIC_RX3[node]), (5, NIC_RX5.get(node, 0))):
        out.append(("roce_pfc_pause_frames_total", f'{nd},priority="{p}",direction="rx"', base + (grow if end else 0)))
        out.append(("roce_pfc_pause_frames_total", f'{nd},priority="{p}",direction="tx"', base))
    return [(n, l + ("," if l else "") + f'job="roce",instance="{exporter(node)}",node="{node}"', v)
            for n, l, v in out]


def switch_lines(t_start, t_mid, t_end):
    """(time, name, labels, value) of the switches' series in each profile's shape."""
    out = []

    def counter(name, labels, start, growth):
        out.append((t_start, name, labels, start))
        out.append((t_end, name, labels, start + growth))

    # snmp-cisco-pfc-ext: Ethernet1 agrees, Ethernet2 also pauses priority 5.
    for port, sent in (("Ethernet1", {3: 12000}), ("Ethernet2", {3: 12000, 5: 2500})):
        for p in range(8):
            lab = f'job="snmp",instance="leaf-cisco",ifIndex="{port[-1]}",ifName="{port}",cpfcIfPriorityValue="{p}"'
            counter("cpfcIfPriorityRequests", lab, 70000, sent.get(p, 0))
            counter("cpfcIfPriorityIndications", lab, 30000, 0)
    # snmp-arista-pfc: sent nothing to a NIC that received 20000.
    for p in range(8):
        lab = f'job="snmp",instance="leaf-arista",aristaPfcIfIndex="3001",ifName="Ethernet3/1",aristaPfcPriorityIndex="{p}"'
        counter("aristaPfcPriorityRequests", lab, 5, 0)
        counter("aristaPfcPriorityIndications", lab, 5, 0)
    # snmp-cumulus-counters: the priority in the name; the instance with a domain.
    for p in range(8):
        lab = 'job="snmp",instance="leaf-cumulus.dc.example",ifIndex="4",ifName="swp4"'
        counter(f"clIntOutPfc{p}Pkt", lab, 100, 9000 if p == 3 else 0)
        counter(f"clIntInPfc{p}Pkt", lab, 100, 0)
    # otel-nvswitch: priority 3's tx counter reset inside the window, then counted 8050.
    lab = 'job="otel",instance="leaf-nv",interface="swp5",switch_priority="3"'
    out += [(t_start, "nvswitch_interface_sp_tx_pause", lab, 100000), (t_mid, "nvswitch_interface_sp_tx_pause", lab, 0),
            (t_end, "nvswitch_interface_sp_tx_pause", lab, 8050)]
    counter("nvswitch_interface_sp_rx_pause", lab, 10, 0)
    # gnmic-arista-pfc: gnmic's prometheus output scraped by Prometheus (job and instance are the
    # scrape's; source is gnmic's target name, with its port); agrees with the NIC.
    for p in range(8):
        lab = (f'job="gnmic",instance="gnmic-1:9804",source="leaf-eos:6030",subscription_name="pfc",'
               f'interface_name="Ethernet7",priority_index="{p}"')
        counter("interfaces_interface_ethernet_pfc_priorities_priority_state_out_frames", lab, 400, 7000 if p == 3 else 0)
        counter("interfaces_interface_ethernet_pfc_priorities_priority_state_in_frames", lab, 400, 0)
    # gnmic-cumulus-switch-priority: sent 3000 on priority 3 to a NIC that received 15000.
    for p in range(8):
        lab = (f'job="gnmic",instance="gnmic-1:9804",source="leaf-cl:9339",subscription_name="sp",'
               f'interface_interface_id="swp8",switch_priority_priority="{p}"')
        counter("qos_interfaces_interface_switch_priority_state_counters_out_pause_pkts", lab, 50, 3000 if p == 3 else 0)
        counter("qos_interfaces_interface_switch_priority_state_counters_in_pause_pkts", lab, 50, 0)
    return out


def run_lint(lint, url, at, plan, fmt):
    r = subprocess.run([lint, "check", str(plan), "--prometheus", url, "--prometheus.time", str(at),
                        "--format", fmt], capture_output=True, text=True, timeout=120)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"roce-lint exited {r.returncode}: {r.stderr}")
    return r.stdout


def check_engine(name, url, lint, at, plan):
    failures = []
    report = json.loads(run_lint(lint, url, at, plan, "json"))
    mine = [f for f in report["findings"] if f["check"] in ("peer.switch-pause-non-pfc", "peer.pause-mismatch")]
    got = {(f["node"], f["check"]) for f in mine}
    if got != EXPECTED or len(mine) != len(EXPECTED):
        failures.append(f"{name}: findings {sorted(got)} ({len(mine)}), expected {sorted(EXPECTED)}")
    for f in mine:
        sw, port = LINKS[f["node"]]
        ends = f'{f["node"]} mlx5_0 (ens1f0np0) ↔ {sw} port {port}'
        if ends not in f["message"]:
            failures.append(f"{name}: {f['node']} {f['check']}: both ends not named: {f['message']}")
    by = {(f["node"], f["check"]): f for f in mine}
    want_found = {("gpu-2", "peer.switch-pause-non-pfc"): "switch sent 2500 on priority 5 in 300 s",
                  ("gpu-3", "peer.pause-mismatch"): "priority 3: NIC received 20000, switch sent 0 in 300 s",
                  ("gpu-5", "peer.pause-mismatch"): "priority 3: NIC received 0, switch sent 8050 in 300 s",
                  ("gpu-8", "peer.pause-mismatch"): "priority 3: NIC received 15000, switch sent 3000 in 300 s"}
    for k, found in want_found.items():
        if k in by and by[k]["found"] != found:
            failures.append(f"{name}: {k}: found {by[k]['found']!r}, expected {found!r}")
    if [n for n in report["notes"] if n.startswith("Switch-counter checks")] != [
            "Switch-counter checks (peer.switch-pause-non-pfc, peer.pause-mismatch) could not run on 1 NIC whose "
            "switch port has no pause counters in the store: gpu-6 ens1f0np0."]:
        failures.append(f"{name}: the JSON report's notes: {report['notes']}")
    text = run_lint(lint, url, at, plan, "text")
    note = ("Switch-counter checks (peer.switch-pause-non-pfc, peer.pause-mismatch) could not run on 1 NIC whose "
            "switch port has no pause counters in the store: gpu-6 ens1f0np0.")
    if text.count("Switch-counter checks") != 1 or note not in text:
        failures.append(f"{name}: the note is not said once as expected:\n{text[-1500:]}")
    print(f"{name}: {len(mine)} switch-counter findings: {sorted(got)}")
    return failures


def vm_import(vm, samples):
    """Posts (time in seconds, name, labels, value) samples to VictoriaMetrics, one request per time."""
    for t in sorted({s[0] for s in samples}):
        body = "".join(f"{n}{{{l}}} {v}\n" for ts, n, l, v in samples if ts == t).encode()
        req = urllib.request.Request(vm.url + "/api/v1/import/prometheus?timestamp=" + str(int(t * 1000)),
                                     data=body, method="POST")
        urllib.request.urlopen(req, timeout=30).read()
    urllib.request.urlopen(vm.url + "/internal/force_flush", timeout=30).read()


def check_serve(vm, lint, plan):
    """roce-lint serve over the same store: each run reads the counter window (--window) there, the
    NICs' counters and the switches' pause counters alike, and its findings reach roce_lint_finding
    (which it pushes to Alertmanager). The same series, stored now: the window's start 20 s ago,
    its end 2 s ago, read by a run with --window 10s."""
    now = time.time()
    t_start, t_end = now - 20, now - 2
    samples = [(t, n, l, v) for node in LINKS for t, end in ((t_start, False), (t_end, True))
               for n, l, v in nic_lines(node, end)]
    samples += switch_lines(t_start, now - 11, t_end)
    vm_import(vm, samples)
    with LintServe(lint, [str(plan), "--prometheus", vm.url, "--window", "10s", "--interval", "1h"],
                   timeout=90) as serve:
        serve.wait_for_line("run 1:")
        text = urllib.request.urlopen(f"http://127.0.0.1:{serve.port}/metrics", timeout=30).read().decode()
    lines = serve.log
    got = set()
    for line in text.splitlines():
        if line.startswith("roce_lint_finding{"):
            labels = dict(LABEL.findall(line))
            if labels.get("check") in ("peer.switch-pause-non-pfc", "peer.pause-mismatch"):
                got.add((labels["node"], labels["check"]))
    print(f"serve: {len(got)} switch-counter findings on its /metrics: {sorted(got)}")
    if got != EXPECTED:
        return [f"serve: roce_lint_finding {sorted(got)}, expected {sorted(EXPECTED)}; its log:\n" + "".join(lines)]
    return []


def main():
    lint = sys.argv[1]
    tmp = Path(tempfile.mkdtemp(prefix="swctr-"))
    engines, failures = [], []
    try:
        plan = {"cluster": "swctr", "profiles": {"p": {"pfc_priorities": [3], "roce_priority": 3}},
                "nodes": [{"name": n, "management_ip": "192.168.0." + n[-1], "exporter": exporter(n),
                           "nics": [dict(NIC, roce_ip="10.0.0." + n[-1] + "/24")]} for n in LINKS]}
        (tmp / "plan.json").write_text(json.dumps(plan))
        at = int(time.time()) - 900
        t_start, t_mid, t_end = at - 310, at - 150, at - 10
        samples = []  # (time, name, labels, value)
        for node in LINKS:
            for t, end in ((t_start, False), (t_end, True)):
                samples += [(t, n, l, v) for n, l, v in nic_lines(node, end)]
        samples += switch_lines(t_start, t_mid, t_end)
        by_family = {}
        for t, n, l, v in sorted(samples, key=lambda s: s[0]):
            by_family.setdefault(n, []).append(f"{n}{{{l}}} {v} {t}\n")
        om = tmp / "series.om"
        with om.open("w") as f:
            for n, lines in by_family.items():
                f.write(f"# TYPE {n} unknown\n")
                f.writelines(lines)
            f.write("# EOF\n")
        prom = fleet_store.start_prometheus(om, tmp / "prom")
        engines.append(prom)
        failures += check_engine("prometheus", prom.url, lint, at, tmp / "plan.json")
        if shutil.which("victoria-metrics") or shutil.which("victoria-metrics-prod"):
            vm = fleet_store.start_victoria_metrics(tmp / "vm")
            engines.append(vm)
            vm_import(vm, samples)
            failures += check_engine("victoria-metrics", vm.url, lint, at, tmp / "plan.json")
            failures += check_serve(vm, lint, tmp / "plan.json")
        else:
            print("victoria-metrics not installed: Prometheus only")
    finally:
        for e in engines:
            e.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
