#!/usr/bin/env python3
"""roce-lint --prometheus against real engines (issues 16, 27): Prometheus 2.42 (blocks made by
promtool from OpenMetrics) and VictoriaMetrics 1.79 (filled through its import API), holding
a small fleet (tools/gen/fleet.py, from a bench node replayed by the real roce_exporter) twice,
5 minutes apart, and an hour before that once (a fleet imported once: one sample per series).
The same seeded faults, and exactly the same findings, as `check --metrics-dir
--previous-metrics-dir --window 5m` on the same text, on both engines, whose own increase()
differ exactly there (lint/observe/counter_window.h):
  - one sample per series: no node observed at the window's start, no counter finding, said
    once in the report;
  - two samples (the faults below);
  - a node that joins inside the window (no earlier sample; its carrier counter at 2, which
    counted from zero would be two link flaps): no counter finding for it, said once;
  - a counter reset (a transport counter at 100000, then 7): +7, a finding;
  - a trimmed series that appears (pause frames on a priority without PFC that the earlier
    observation did not serve): counted from zero, a finding;
  - the settings faults fleet.py seeds, and a counter fault (pause frames on a priority
    without PFC, which only the store's increase() over the window can show);
  - a raised module flag (the query path asks only for flags at 1);
  - a planned node the store has no data for: one inventory.exporter-unreachable finding;
  - in node batches of 7, by `instance`; with --prometheus.node-label node; with a
    --max-bytes so small that batches must be split (the stats say how many) and every answer
    kept under it; through a
    proxy that answers 503 to every fifth query (the stats count the retries).
Prints roce-lint's wall time, peak RSS and query stats for each run."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tools" / "gen"))
from exporter_process import Exporter  # noqa: E402
import fleet_store  # noqa: E402

failures = []


def run_lint(lint, argv):
    """roce-lint check as a child: (exit code, report, stderr, wall s, peak RSS MiB)."""
    out = tempfile.NamedTemporaryFile(suffix=".json", delete=False)
    err = tempfile.TemporaryFile()
    full = [lint, "check", *argv, "--format", "json", "--output", out.name]
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.dup2(err.fileno(), 2)
        os.execv(full[0], full)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    err.seek(0)
    code = os.waitstatus_to_exitcode(status)
    text = Path(out.name).read_text()
    os.unlink(out.name)
    report = json.loads(text) if text.strip() else {"findings": []}
    return code, report, err.read().decode(), wall, ru.ru_maxrss / 1024


def key(f, with_values=True):
    k = (f["node"], f["check"], f.get("device", ""), f.get("port", ""), f.get("netdev", ""))
    return k + ((f.get("expected", ""), f.get("found", "")) if with_values else ())


class FlakyProxy(BaseHTTPRequestHandler):
    """Forwards to the engine, but answers every fifth request with 503."""

    def log_message(self, *args):
        pass

    def do_POST(self):
        srv = self.server
        with srv.lock:
            srv.count += 1
            fail = srv.count % 5 == 0
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if fail:
            self.send_response(503)
            self.end_headers()
            self.wfile.write(b"try again\n")
            return
        req = urllib.request.Request(srv.target + self.path, data=body, method="POST",
                                     headers={"Content-Type": self.headers.get("Content-Type", "")})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                status, data = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, data = e.code, e.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--optics-writer", required=True)
    ap.add_argument("--nodes", type=int, default=30)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="fleetquery-"))
    engines = []
    try:
        subprocess_run([sys.executable, str(ROOT / "tools/gen/bench_node.py"), str(tmp / "node"), "--devices", "2",
                        "--optics-writer", args.optics_writer])
        # Full dcb tables: the second observation below raises the dcbnl pause counter of
        # priority 0, which the default flags serve only once it has counted (issue 15).
        with Exporter(args.exporter, ["--replay", str(tmp / "node"), "--collector.dcb.full-tables=true",
                                      "--collector.optics.all-flags=true"]) as exp:
            status, template = exp.get("/metrics")
        assert status == 200, status
        (tmp / "node.prom").write_text(template)
        fleet = tmp / "fleet"
        subprocess_run([sys.executable, str(ROOT / "tools/gen/fleet.py"), str(fleet), "--nodes", str(args.nodes),
                        "--template", str(tmp / "node.prom"), "--faults", "6" if args.nodes >= 20 else "2"])
        expected = {(e["node"], e["check"], e["netdev"]) for e in json.loads((fleet / "expected.json").read_text())}
        faulty = {e[0] for e in expected}
        names = [n for n, _ in fleet_store.nodes_of(fleet)]
        healthy = [n for n in names if n not in faulty]
        # The second observation: the same text, plus pause frames on priority 0 (no PFC there)
        # on one healthy node; and one planned node that no store and no directory has.
        prev, now = fleet / "metrics", fleet / "now"
        shutil.copytree(prev, now)
        counter_node, ghost = healthy[0], healthy[1]
        text = (now / f"{counter_node}.prom").read_text()
        series = next(line.rsplit(" ", 1) for line in text.splitlines()
                      if line.startswith("roce_dcb_pfc_pause_frames_total{") and 'priority="0"' in line)
        netdev = series[0].split('netdev="')[1].split('"')[0]
        text = text.replace(f"{series[0]} {series[1]}\n", f"{series[0]} {float(series[1]) + 1500:g}\n", 1)
        (now / f"{counter_node}.prom").write_text(text)
        expected.add((counter_node, "counters.pause-on-non-pfc-priority", netdev))
        # A raised module flag (the query path asks for roce_module_flag == 1 only; the template
        # serves the clear flags too, --collector.optics.all-flags): a warning flag on a
        # temperature inside its thresholds is an optics.warning of its own.
        flag_node = healthy[2]
        text = (now / f"{flag_node}.prom").read_text()
        flag = next(line for line in text.splitlines() if line.startswith("roce_module_flag{")
                    and 'sensor="temperature_celsius"' in line and 'level="high_warning"' in line)
        assert flag.endswith(" 0"), flag
        (now / f"{flag_node}.prom").write_text(text.replace(flag + "\n", flag[:-1] + "1\n", 1))
        expected.add((flag_node, "optics.warning", flag.split('netdev="')[1].split('"')[0]))
        for d in (prev, now):
            (d / f"{ghost}.prom").unlink()

        def set_value(path, prefix, labels, value):
            """The first line of `prefix` with every label of `labels` set to `value`; returns its netdev."""
            text = path.read_text()
            line = next(ln for ln in text.splitlines() if ln.startswith(prefix) and all(x in ln for x in labels))
            path.write_text(text.replace(line + "\n", line.rsplit(" ", 1)[0] + f" {value}\n", 1))
            return line.split('netdev="')[1].split('"')[0] if 'netdev="' in line else ""

        # (c) a node that joins inside the window: no earlier file, its carrier counter at 2.
        joiner = healthy[3]
        (prev / f"{joiner}.prom").unlink()
        set_value(now / f"{joiner}.prom", "roce_netdev_carrier_changes_total{", [], 2)
        # (d) a counter reset: 100000 before, 7 now.
        reset_node = healthy[4]
        # (mlx5's roce_adp_retrans is the event retransmits; an exporter that serves
        # roce_transport_events_total counts it there, and lint reads that family first.)
        retrans = ["roce_transport_events_total{", 'event="retransmits"']
        if not any(ln.startswith(retrans[0]) and retrans[1] in ln
                   for ln in (now / f"{reset_node}.prom").read_text().splitlines()):
            retrans = ["roce_hw_stat_total{", 'counter="roce_adp_retrans"']
        set_value(prev / f"{reset_node}.prom", retrans[0], retrans[1:], 100000)
        set_value(now / f"{reset_node}.prom", retrans[0], retrans[1:], 7)
        reset_line = next(ln for ln in (now / f"{reset_node}.prom").read_text().splitlines()
                          if ln.startswith(retrans[0]) and retrans[1] in ln)
        reset_device = reset_line.split('device="')[1].split('"')[0]
        reset_netdev = next(ln for ln in (now / f"{reset_node}.prom").read_text().splitlines()
                            if ln.startswith("roce_port_info{") and f'device="{reset_device}"' in ln
                            ).split('netdev="')[1].split('"')[0]
        # (e) a trimmed series that appears: pause frames on priority 0 only in the later file.
        appear_node = healthy[5]
        pause0 = ["roce_dcb_pfc_pause_frames_total{", 'priority="0"']
        ptext = (prev / f"{appear_node}.prom").read_text()
        pline = next(ln for ln in ptext.splitlines() if ln.startswith(pause0[0]) and pause0[1] in ln)
        (prev / f"{appear_node}.prom").write_text(ptext.replace(pline + "\n", "", 1))
        appear_netdev = set_value(now / f"{appear_node}.prom", pause0[0],
                                  [pause0[1], pline.split("{", 1)[1].split("}")[0]], 1500)
        expected.add((appear_node, "counters.pause-on-non-pfc-priority", appear_netdev))
        plan = str(fleet / "plan.json")

        code, ref, err, wall, rss = run_lint(args.lint, [plan, "--metrics-dir", str(now), "--previous-metrics-dir",
                                                         str(prev), "--window", "5m"])
        print(f"--metrics-dir: exit {code}, {len(ref['findings'])} findings, {wall:.2f} s, peak RSS {rss:.0f} MiB")
        ref_keys = {key(f) for f in ref["findings"] if f["node"] != ghost}
        got = {(f["node"], f["check"], f.get("netdev", "")) for f in ref["findings"] if f["node"] != ghost}
        expected.add((reset_node, "counters.transport-errors", reset_netdev))
        if got != expected:
            failures.append(f"--metrics-dir reference: missed {expected - got}, extra {got - expected}")
        if not any(f["node"] == reset_node and f["check"] == "counters.transport-errors" and
                   f["device"] == reset_device and f["found"] == "retransmits +7" for f in ref["findings"]):
            failures.append(f"--metrics-dir: the reset counter is not +7: "
                            f"{[f for f in ref['findings'] if f['node'] == reset_node]}")
        # (a) one sample per series: the later files alone, against no earlier ones.
        empty = tmp / "empty"
        empty.mkdir()
        code, ref_once, err, wall, rss = run_lint(args.lint, [plan, "--metrics-dir", str(now), "--previous-metrics-dir",
                                                              str(empty), "--window", "5m"])
        ref_once_keys = {key(f) for f in ref_once["findings"] if f["node"] != ghost}
        if any(f["check"].startswith("counters.") for f in ref_once["findings"]):
            failures.append(f"--metrics-dir, one observation: counter findings {ref_once['findings']}")

        t1 = float(int(time.time()) - 120)
        t0 = t1 - 300
        t_once = t0 - 3600  # an hour earlier: outside every window of t1
        observations = [(t_once, now), (t0, prev), (t1, now)]
        om = tmp / "fleet.om"
        samples = fleet_store.write_openmetrics(fleet, observations, om)
        prom = fleet_store.start_prometheus(om, tmp)
        engines.append(prom)
        vm = fleet_store.start_victoria_metrics(tmp)
        engines.append(vm)
        fleet_store.import_into_victoria_metrics(vm, fleet, observations)
        print(f"stores hold {samples} samples ({args.nodes - 1} nodes: once, then twice 5 minutes apart)")

        # Said once: the nodes without a counter window, in the text report.
        for label, url, at, unobserved in (("prometheus, one sample", prom.url, t_once, args.nodes - 1),
                                           ("victoria-metrics, one sample", vm.url, t_once, args.nodes - 1),
                                           ("victoria-metrics, two samples", vm.url, t1, 1)):
            run = subprocess.run([args.lint, "check", plan, "--prometheus", url, "--window", "5m",
                                  "--prometheus.time", f"{at:.0f}"], capture_output=True, text=True)
            notes = [ln for ln in run.stdout.splitlines() if ln.startswith("Counter checks skipped on ")]
            want = f"Counter checks skipped on {unobserved} node{'s' if unobserved > 1 else ''} not observed"
            if len(notes) != 1 or not notes[0].startswith(want) or \
                    (unobserved == 1 and not notes[0].endswith(f": {joiner}.")):
                failures.append(f"{label}: expected one line '{want}…', got {notes}")
        for label, url in (("prometheus, one sample per series", prom.url),
                           ("victoria-metrics, one sample per series", vm.url)):
            code, rep, err, wall, rss = run_lint(args.lint, [plan, "--prometheus", url, "--window", "5m",
                                                             "--prometheus.time", f"{t_once:.0f}"])
            keys = {key(f) for f in rep["findings"] if f["node"] != ghost}
            print(f"{label}: exit {code}, {len(rep['findings'])} findings, {wall:.2f} s")
            if keys != ref_once_keys:
                failures.append(f"{label}: findings differ from --metrics-dir:\n  missing {sorted(ref_once_keys - keys)[:5]}"
                                f"\n  extra {sorted(keys - ref_once_keys)[:5]}")

        proxy = ThreadingHTTPServer(("127.0.0.1", 0), FlakyProxy)
        proxy.target, proxy.count, proxy.lock = prom.url, 0, threading.Lock()
        proxy.daemon_threads = True
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        proxy_url = f"http://127.0.0.1:{proxy.server_address[1]}"

        common = ["--window", "5m", "--prometheus.time", f"{t1:.0f}", "--prometheus.stats"]
        runs = [
            ("prometheus, batches of 7", prom.url, ["--prometheus.batch", "7",
                                                    "--prometheus.header", "X-Scope-OrgID: t1"], None),
            ("prometheus, node label, small --max-bytes", prom.url,
             ["--prometheus.node-label", "node", "--max-bytes", "320KiB", "--prometheus.batch", "30"], "split"),
            ("prometheus through a 503 proxy", proxy_url, ["--prometheus.batch", "10",
                                                           "--prometheus.concurrency", "2"], "retried"),
            ("victoria-metrics, batches of 7", vm.url, ["--prometheus.batch", "7"], None),
        ]
        for label, url, extra, want in runs:
            code, rep, err, wall, rss = run_lint(args.lint, [plan, "--prometheus", url, *common, *extra])
            stats = err.strip().splitlines()[-1] if err.strip() else ""
            print(f"{label}: exit {code}, {len(rep['findings'])} findings, {wall:.2f} s, peak RSS {rss:.0f} MiB\n"
                  f"    {stats}")
            if code != 1:
                failures.append(f"{label}: exit {code}: {err[-1500:]}")
                continue
            keys = {key(f) for f in rep["findings"] if f["node"] != ghost}
            if keys != ref_keys:
                failures.append(f"{label}: findings differ from --metrics-dir:\n  missing {sorted(ref_keys - keys)[:5]}"
                                f"\n  extra {sorted(keys - ref_keys)[:5]}")
            ghost_findings = [f for f in rep["findings"] if f["node"] == ghost]
            if [f["check"] for f in ghost_findings] != ["inventory.exporter-unreachable"] or \
                    "no data" not in ghost_findings[0]["found"]:
                failures.append(f"{label}: {ghost} (not in the store): {ghost_findings}")
            if want == "split" and " 0 batches split" in stats:
                failures.append(f"{label}: expected batches to be split: {stats}")
            largest = int(stats.split("largest answer ")[1].split()[0]) if "largest answer " in stats else -1
            if want == "split" and not 0 < largest <= 320 * 1024:
                failures.append(f"{label}: largest answer {largest} bytes, expected at most --max-bytes 320KiB")
            if want == "retried" and "(0 retried" in stats:
                failures.append(f"{label}: expected retries: {stats}")
        proxy.shutdown()
        # An API that does not answer is an unusable input (exit 2), not 30 unreachable nodes.
        code, _, err, _, _ = run_lint(args.lint, [plan, "--prometheus", f"http://127.0.0.1:{fleet_store.free_port()}",
                                                  "--prometheus.retries", "1"])
        if code != 2:
            failures.append(f"a Prometheus that does not answer: exit {code}, expected 2: {err[-500:]}")
    finally:
        for e in engines:
            e.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


def subprocess_run(argv):
    import subprocess
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
