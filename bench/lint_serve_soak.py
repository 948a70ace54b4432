#!/usr/bin/env python3
"""Soak of `roce-lint serve` (issue 38): 100 exporters on loopback, one of them hostile (20,000
new devices a scrape, their names carrying U+202E and ESC), and an Alertmanager that takes each
push and hangs 20 s before answering 503. Prints, every few seconds, serve's RSS, its runs and
the last run's duration, the pending resolutions and how long /metrics took to answer; at the
end the peak RSS and how long serve took to stop after SIGTERM sent in the middle of a run.

A benchmark: the full run is `--duration 600`. With --check (ctest lint_serve_soak_short,
about 20 s) it also asserts what must hold whatever the machine: /metrics answered each time,
runs went on while Alertmanager hung, pending resolutions within their limit, peak RSS under
1 GiB, no raw U+202E or ESC in what Alertmanager and /metrics got, serve gone after SIGTERM.

usage: lint_serve_soak.py ROCE_LINT [--duration S] [--interval S] [--check]"""

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HEALTHY = ('roce_device_info{device="mlx5_0",netdev="ens1f0np0"} 1\n'
           'roce_port_state{device="mlx5_0",port="1"} 4\n'
           'roce_exporter_collector_success{collector="lldp"} 1\n')


class Exporter(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        srv = self.server
        if srv.hostile:
            srv.scrapes += 1
            n = srv.scrapes
            body = "".join(f'roce_device_info{{device="x{n}_{i}\u202e\x1b",netdev="e{i}"}} 1\n'
                           for i in range(20000)).encode()
        else:
            body = HEALTHY.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Alertmanager(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with self.server.lock:
            self.server.pushes += 1
            self.server.bytes = max(self.server.bytes, len(body))
            self.server.raw_controls += body.count("\u202e".encode()) + body.count(b"\x1b")
        time.sleep(20)  # hung, then failing
        try:
            self.send_response(503)
            self.end_headers()
        except OSError:
            pass


def serve(handler, **attrs):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    for k, v in attrs.items():
        setattr(srv, k, v)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_kib(pid, field):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def metric(text, name):
    m = re.search(r"^" + name + r"(?:\{[^}]*\})? (\S+)$", text, re.M)
    return float(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lint")
    ap.add_argument("--duration", type=float, default=600)
    ap.add_argument("--interval", type=float, default=2)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()

    exporters = [serve(Exporter, hostile=(i == 0), scrapes=0) for i in range(100)]
    am = serve(Alertmanager, lock=threading.Lock(), pushes=0, bytes=0, raw_controls=0)
    tmp = Path(tempfile.mkdtemp(prefix="serve-soak-"))
    plan = {"cluster": "soak", "profiles": {"p": {"pfc_priorities": [3], "roce_priority": 3}},
            "nodes": [{"name": f"gpu-{i:03d}", "management_ip": f"192.168.{i // 250}.{i % 250 + 1}",
                       "exporter": f"127.0.0.1:{e.server_address[1]}",
                       "nics": [{"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "p",
                                 "roce_ip": f"10.0.{i // 250}.{i % 250 + 1}/16"}]}
                      for i, e in enumerate(exporters)]}
    (tmp / "plan.json").write_text(json.dumps(plan))
    port = free_port()
    proc = subprocess.Popen([a.lint, "serve", str(tmp / "plan.json"), "--interval", f"{a.interval}s",
                             "--alertmanager", f"http://127.0.0.1:{am.server_address[1]}",
                             "--web.listen-address", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=open(tmp / "serve.log", "w"))
    failures, samples = [], []
    start = time.monotonic()
    print(f"{'t':>6} {'RSS MiB':>8} {'runs':>5} {'run s':>6} {'pending':>8} {'over':>6} {'/metrics s':>10}")
    last_page = ""
    try:
        while time.monotonic() - start < a.duration:
            time.sleep(min(5.0, max(1.0, a.duration / 20)))
            t0 = time.monotonic()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
                    page = r.read().decode()
            except OSError as e:
                if time.monotonic() - start > 5:  # give serve its start
                    failures.append(f"/metrics did not answer at {t0 - start:.0f} s: {e}")
                continue
            took = time.monotonic() - t0
            last_page = page
            s = {"t": t0 - start, "rss": status_kib(proc.pid, "VmRSS") / 1024,
                 "hwm": status_kib(proc.pid, "VmHWM") / 1024,
                 "runs": metric(page, "roce_lint_runs_total") or 0,
                 "run": metric(page, "roce_lint_run_duration_seconds") or 0,
                 "pending": metric(page, "roce_lint_alertmanager_pending_resolutions") or 0,
                 "over": metric(page, "roce_lint_findings_over_limit") or 0, "took": took}
            samples.append(s)
            print(f"{s['t']:6.0f} {s['rss']:8.0f} {s['runs']:5.0f} {s['run']:6.2f} {s['pending']:8.0f} "
                  f"{s['over']:6.0f} {took:10.3f}", flush=True)
        # SIGTERM in the middle of a run: wait until one has just begun.
        time.sleep(a.interval / 2)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
            stopped = time.monotonic() - t0
        except subprocess.TimeoutExpired:
            stopped = None
            proc.kill()
            proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    peak = max((s["hwm"] for s in samples), default=0)  # the kernel's high-water mark, last read while running
    runs = samples[-1]["runs"] if samples else 0
    print(f"runs {runs:.0f} in {a.duration:.0f} s, peak RSS {peak:.0f} MiB, Alertmanager got "
          f"{am.pushes} pushes (largest {am.bytes >> 10} KiB), serve stopped "
          + (f"{stopped:.1f} s after SIGTERM" if stopped is not None else "NOT within 60 s of SIGTERM"))
    if a.check:
        if not samples:
            failures.append("no /metrics answer at all")
        if runs < 2:
            failures.append(f"only {runs:.0f} runs while Alertmanager hung: the push still holds the run")
        if any(s["pending"] > 2000 for s in samples):
            failures.append("pending resolutions above their limit of 2000")
        if peak > 1024:
            failures.append(f"peak RSS {peak:.0f} MiB above 1 GiB")
        if am.raw_controls:
            failures.append(f"{am.raw_controls} raw U+202E/ESC in what Alertmanager got")
        if "\u202e" in last_page or "\x1b" in last_page:
            failures.append("raw U+202E/ESC on /metrics")
        if stopped is None:
            failures.append("serve did not stop within 60 s of SIGTERM")
        if am.pushes == 0:
            failures.append("Alertmanager got no push")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
