#!/usr/bin/env python3
"""roce-lint against hostile or broken exporters: refused connections, a server that never
answers, a truncated body, an oversized body, malformed lines, duplicate series, garbage.
Every node gets a finding, the run ends in bounded time, nothing crashes.

Then Alertmanager is stopped and restarted under `roce-lint serve`: no alert is lost —
the firing ones are back in the new Alertmanager, and a finding fixed while it was down
is delivered as resolved (the daemon keeps it until a push succeeds)."""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LINT, EXPORTER, DEMO = sys.argv[1], sys.argv[2], Path(sys.argv[3])
failures = []

# A healthy node's metrics: the demo's gpu-01 replayed by the real exporter, once.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from exporter_process import Exporter, LintServe, ReadyServer, free_port  # noqa: E402

with Exporter(EXPORTER, ["--replay", str(DEMO / "nodes" / "gpu-01")]) as _exp:
    _status, HEALTHY_TEXT = _exp.get("/metrics")
DEMO_PLAN = json.loads((DEMO / "plan.json").read_text())


class Hostile(BaseHTTPRequestHandler):
    mode = "ok"

    def log_message(self, *args):
        pass

    def do_GET(self):
        mode = self.server.mode
        healthy = self.server.text
        if mode == "hang":
            time.sleep(30)
            return
        if mode == "truncated":
            body = healthy.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body) * 2))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode == "huge":
            self.send_response(200)
            self.end_headers()
            chunk = b'roce_junk{a="' + b"x" * 1000 + b'"} 1\n'
            try:
                for _ in range(200000):  # 200 MB unless the client stops reading
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if mode == "malformed":
            body = ("roce_port_state{device=\"mlx5_0\",port=\"1\" 4\n"   # missing }
                    "this is not a metric line at all\n"
                    "roce_port_state{device=\"mlx5_0\",port=\"1\"} four\n").encode()
        elif mode == "duplicate":
            body = (healthy + "\n" + healthy).encode()
        elif mode == "garbage":
            body = os.urandom(65536)
        elif mode == "http500":
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"internal error\n")
            return
        else:
            body = healthy.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def text_for(i):
    """HEALTHY_TEXT as node i of plan_for would serve it (its own RoCE IPs)."""
    return (HEALTHY_TEXT.replace('ip="10.10.0.1"', f'ip="10.10.0.{i + 1}"')
            .replace('ip="10.11.0.1"', f'ip="10.11.0.{i + 1}"'))


def start(mode, index=0):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    srv.mode = mode
    srv.text = text_for(index)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def plan_for(addresses):
    """Every node is planned like the demo's gpu-01, whose metrics HEALTHY_TEXT holds; node i
    carries the RoCE IPs 10.10.0.<i+1> and 10.11.0.<i+1> (text_for gives it those)."""
    gpu01 = DEMO_PLAN["nodes"][0]
    nodes = []
    for i, (name, addr) in enumerate(addresses):
        nics = [dict(n, roce_ip=n["roce_ip"].replace(".0.1/", f".0.{i + 1}/")) for n in gpu01["nics"]]
        nodes.append({"name": name, "management_ip": f"192.0.2.{i + 1}", "exporter": addr,
                      "nics": nics})
    return {"cluster": "hostile", "profiles": DEMO_PLAN["profiles"], "nodes": nodes}


def hostile_scrapes(tmp):
    modes = ["hang", "truncated", "huge", "malformed", "duplicate", "garbage", "http500", "ok"]
    servers = {m: start(m, i) for i, m in enumerate(modes)}
    addresses = [(f"node-{m}", f"127.0.0.1:{s.server_address[1]}") for m, s in servers.items()]
    addresses.append(("node-refused", f"127.0.0.1:{free_port()}"))
    plan = Path(tmp) / "plan.json"
    plan.write_text(json.dumps(plan_for(addresses)))
    t0 = time.monotonic()
    res = subprocess.run([LINT, "check", str(plan), "--timeout", "3s", "--max-bytes", "4000000",
                          "--format", "json"], capture_output=True, text=True, timeout=60)
    took = time.monotonic() - t0
    for s in servers.values():
        s.shutdown()
    if res.returncode not in (0, 1):
        failures.append(f"check exited {res.returncode}: {res.stderr[-2000:]}")
        return
    if took > 20:
        failures.append(f"check took {took:.1f} s with a 3 s timeout")
    report = json.loads(res.stdout)
    by_node = {}
    for f in report["findings"]:
        by_node.setdefault(f["node"], []).append(f)
    want_unreachable = {"node-hang": "timed out", "node-truncated": "", "node-huge": "larger than",
                        "node-http500": "HTTP 500", "node-refused": ""}
    for node, text in want_unreachable.items():
        got = [f for f in by_node.get(node, []) if f["check"] == "inventory.exporter-unreachable"]
        if not got:
            failures.append(f"{node}: no inventory.exporter-unreachable finding: {by_node.get(node)}")
        elif text and text not in got[0]["found"]:
            failures.append(f"{node}: finding does not say {text!r}: {got[0]['found']}")
    for node in ("node-malformed", "node-garbage"):
        if not by_node.get(node):
            failures.append(f"{node}: no finding for an exporter that serves no usable metrics")
    if any(f["check"] == "inventory.exporter-unreachable" for f in by_node.get("node-duplicate", [])):
        failures.append("node-duplicate: duplicate series must not make the node unreachable")
    if by_node.get("node-ok"):
        failures.append(f"node-ok: a healthy exporter got findings: {by_node['node-ok']}")


def alertmanager_restart(tmp):
    am = shutil.which("prometheus-alertmanager") or shutil.which("alertmanager")
    if am is None:
        failures.append("prometheus-alertmanager is not installed")
        return
    am_port = free_port()
    conf = Path(tmp) / "am.yml"
    conf.write_text("route:\n  receiver: blackhole\nreceivers:\n  - name: blackhole\n")

    def start_am(n):
        storage = Path(tmp) / f"am{n}"
        storage.mkdir()
        return ReadyServer([am, f"--config.file={conf}", f"--storage.path={storage}",
                            f"--web.listen-address=127.0.0.1:{am_port}", "--cluster.listen-address="],
                           am_port, "/-/ready", timeout=10, what="Alertmanager")

    def alerts():
        with urllib.request.urlopen(f"http://127.0.0.1:{am_port}/api/v2/alerts", timeout=5) as r:
            return {(a["labels"]["node"], a["labels"]["check"]): a for a in json.load(r)}

    metrics = Path(tmp) / "metrics"
    metrics.mkdir()
    bad_mtu = HEALTHY_TEXT.replace('roce_netdev_mtu_bytes{netdev="ens1f0np0"} 9000',
                                   'roce_netdev_mtu_bytes{netdev="ens1f0np0"} 1500')
    assert bad_mtu != HEALTHY_TEXT
    (metrics / "a.prom").write_text(bad_mtu)
    (metrics / "b.prom").write_text(bad_mtu.replace('ip="10.10.0.1"', 'ip="10.10.0.2"')
                                    .replace('ip="10.11.0.1"', 'ip="10.11.0.2"'))
    plan = Path(tmp) / "plan2.json"
    plan.write_text(json.dumps(plan_for([("a", "127.0.0.1:1"), ("b", "127.0.0.1:2")])))
    first = start_am(1)
    serve = LintServe(LINT, [str(plan), "--metrics-dir", str(metrics), "--interval", "1s",
                             f"--alertmanager=http://127.0.0.1:{am_port}"])
    serve_port = serve.port

    def serve_metric(name):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{serve_port}/metrics", timeout=5) as r:
                for line in r.read().decode().splitlines():
                    if line.startswith(name + " "):
                        return float(line.split()[-1])
        except Exception:
            return None
        return None

    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(alerts()) < 2:
            time.sleep(0.5)
        if set(alerts()) != {("a", "link.netdev-mtu"), ("b", "link.netdev-mtu")}:
            failures.append(f"before the restart: {sorted(alerts())}")
        first.stop()
        (metrics / "b.prom").write_text(text_for(1))    # b fixed while Alertmanager is down
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (serve_metric("roce_lint_alertmanager_pending_resolutions") or 0) < 1:
            time.sleep(0.5)
        if serve_metric("roce_lint_alertmanager_pending_resolutions") != 1:
            failures.append("while Alertmanager is down the resolution of b is not kept pending")
        if serve_metric("roce_lint_alertmanager_push_success") != 0:
            failures.append("while Alertmanager is down roce_lint_alertmanager_push_success is not 0")
        second = start_am(2)                             # empty storage: a new Alertmanager
        try:
            deadline = time.monotonic() + 20
            got = {}
            while time.monotonic() < deadline:
                got = alerts()
                if ("a", "link.netdev-mtu") in got and serve_metric("roce_lint_alertmanager_pending_resolutions") == 0:
                    break
                time.sleep(0.5)
            a = got.get(("a", "link.netdev-mtu"))
            if a is None or a["status"]["state"] != "active":
                failures.append(f"after the restart the still-open finding is not firing: {a}")
            if ("b", "link.netdev-mtu") in got:
                failures.append("the finding fixed while Alertmanager was down fires again")
            if serve_metric("roce_lint_alertmanager_pending_resolutions") != 0:
                failures.append("the resolution of b was never delivered after the restart")
            if serve_metric("roce_lint_alertmanager_push_success") != 1:
                failures.append("pushes do not succeed again after the restart")
        finally:
            second.stop()
    finally:
        serve.stop()


with tempfile.TemporaryDirectory(prefix="rocewatch-hostile-") as tmp:
    hostile_scrapes(tmp)
    alertmanager_restart(tmp)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
