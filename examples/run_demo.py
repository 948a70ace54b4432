#!/usr/bin/env python3
"""Run the demo cluster: one roce_exporter per node replaying examples/demo/nodes/<node>,
`roce-lint serve` over the plan, and, when installed, a real Prometheus (with the bundled
rules, `for:` shortened for a demo) and Alertmanager, all on loopback.

    python3 examples/run_demo.py --build build          # start, print the lint report, hold
    python3 examples/run_demo.py --build build --no-hold   # start, report, stop

Used by scripts/demo.sh (the README's main command) and by tests/e2e/demo_e2e_test.py.
Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEMO = HERE / "demo"
LISTENING = re.compile(r"msg=listening address=[0-9.]+:(\d+)")


def http_get(url: str, timeout: float = 5.0) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return resp.read().decode()


def find_binary(*names: str) -> Optional[str]:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


class Demo:
    """The demo's processes; use as a context manager so everything stops."""

    def __init__(self, build: Path, port_base: int = 19100, lint_interval: str = "10s",
                 with_prometheus: bool = True, work: Optional[Path] = None,
                 rules_for: str = "20s") -> None:
        self.build = build
        self.exporter = build / "exporter" / "roce_exporter"
        self.lint = build / "lint" / "roce-lint"
        for b in (self.exporter, self.lint):
            if not b.is_file():
                raise SystemExit(f"{b}: not built (run scripts/build.sh)")
        self.port_base = port_base
        self.lint_interval = lint_interval
        self.rules_for = rules_for
        self.with_prometheus = with_prometheus
        self._tmp = None if work else tempfile.TemporaryDirectory(prefix="rocewatch-demo-")
        self.work = Path(work or self._tmp.name)
        self.procs: List[subprocess.Popen] = []
        self.logs: Dict[str, Path] = {}
        with open(DEMO / "plan.json") as f:
            self.plan = json.load(f)
        # Exporter ports follow the port base: gpu-NN on base + NN.
        for i, node in enumerate(self.plan["nodes"], start=1):
            node["exporter"] = f"127.0.0.1:{port_base + i}"
        self.plan_path = self.work / "plan.json"
        self.plan_path.write_text(json.dumps(self.plan, indent=2))
        self.lint_port = port_base + 80
        self.prometheus_port = port_base + 90
        self.alertmanager_port = port_base + 93
        self.prometheus = find_binary("prometheus") if with_prometheus else None
        self.alertmanager = find_binary("prometheus-alertmanager", "alertmanager") if with_prometheus else None

    # -- processes --------------------------------------------------------------------------

    def _spawn(self, name: str, argv: List[str]) -> subprocess.Popen:
        log = self.work / f"{name}.log"
        self.logs[name] = log
        proc = subprocess.Popen(argv, stdout=open(log, "w"), stderr=subprocess.STDOUT,
                                start_new_session=True)
        self.procs.append(proc)
        return proc

    def _wait_http(self, url: str, name: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                http_get(url, timeout=2)
                return
            except Exception:
                time.sleep(0.2)
        raise RuntimeError(f"{name} did not come up at {url}; log:\n" +
                           self.logs[name].read_text()[-2000:])

    def start(self) -> "Demo":
        for node in self.plan["nodes"]:
            name = node["name"]
            self._spawn(f"exporter-{name}", [str(self.exporter), "--replay", str(DEMO / "nodes" / name),
                                              f"--web.listen-address={node['exporter']}",
                                              "--collector.optics.interval=5s",
                                              # the training processes' QPs by job (its panel)
                                              "--collector.rdma.per-job=true"])
        for node in self.plan["nodes"]:
            self._wait_http(f"http://{node['exporter']}/metrics", f"exporter-{node['name']}")
        if self.alertmanager:
            am_dir = self.work / "alertmanager"
            am_dir.mkdir(exist_ok=True)
            (self.work / "alertmanager.yml").write_text(
                "route:\n  receiver: blackhole\n  group_by: [alertname, node, instance]\n"
                "  group_wait: 1s\n  group_interval: 5s\n  repeat_interval: 1h\n"
                "receivers:\n  - name: blackhole\n")
            self._spawn("alertmanager", [self.alertmanager, f"--config.file={self.work / 'alertmanager.yml'}",
                                         f"--storage.path={am_dir}",
                                         f"--web.listen-address=127.0.0.1:{self.alertmanager_port}",
                                         "--cluster.listen-address="])
            self._wait_http(f"{self.alertmanager_url}/-/ready", "alertmanager")
        lint_args = [str(self.lint), "serve", str(self.plan_path), "--interval", self.lint_interval,
                     f"--web.listen-address=127.0.0.1:{self.lint_port}"]
        if self.alertmanager:
            lint_args.append(f"--alertmanager={self.alertmanager_url}")
        self._spawn("roce-lint", lint_args)
        self._wait_http(f"http://127.0.0.1:{self.lint_port}/metrics", "roce-lint")
        if self.prometheus:
            rules = self.work / "rocewatch-rules.yml"
            subprocess.run([sys.executable, str(REPO / "tests" / "dashboards" / "rules_for_demo.py"),
                            "--max-for", self.rules_for,
                            str(REPO / "dashboards" / "prometheus" / "rocewatch-rules.yml"),
                            str(rules)], check=True, stdout=subprocess.DEVNULL)
            # The exporters as the plan names them, labelled with the plan's names (cluster,
            # node, rack, rails): roce-lint targets writes the file_sd file Prometheus reads.
            targets = self.work / "roce-targets.json"
            subprocess.run([str(self.lint), "targets", str(self.plan_path), "--output", str(targets)],
                           check=True, stdout=subprocess.DEVNULL)
            (self.work / "prometheus.yml").write_text(f"""global:
  scrape_interval: 5s
  evaluation_interval: 5s
rule_files: ["{rules}"]
alerting:
  alertmanagers:
    - static_configs:
        - targets: ["127.0.0.1:{self.alertmanager_port}"]
scrape_configs:
  - job_name: roce_exporter
    file_sd_configs:
      - files: [{json.dumps(str(targets))}]
        refresh_interval: 5s
  - job_name: roce_lint
    static_configs:
      - targets: ["127.0.0.1:{self.lint_port}"]
        labels: {{cluster: demo}}
""")
            self._spawn("prometheus", [self.prometheus, f"--config.file={self.work / 'prometheus.yml'}",
                                       f"--storage.tsdb.path={self.work / 'tsdb'}",
                                       f"--web.listen-address=127.0.0.1:{self.prometheus_port}",
                                       "--web.enable-lifecycle"])
            self._wait_http(f"{self.prometheus_url}/-/ready", "prometheus")
        return self

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 15
        for proc in self.procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.procs.clear()
        if self._tmp:
            self._tmp.cleanup()

    def __enter__(self) -> "Demo":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- what a user looks at -----------------------------------------------------------

    @property
    def prometheus_url(self) -> str:
        return f"http://127.0.0.1:{self.prometheus_port}"

    @property
    def alertmanager_url(self) -> str:
        return f"http://127.0.0.1:{self.alertmanager_port}"

    def lint_report(self, *extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.lint), "check", str(self.plan_path), *extra],
                              capture_output=True, text=True, timeout=120)

    # The acceptance test on the demo: perftest between rail pairs (the stand-in under
    # tests/lint/verify/stand-in, which replays recorded real perftest outputs), the demo's exporters
    # read before, during and after each test. "Nodes" are reached through the stand-in ssh,
    # which runs each node's script here with ROCEWATCH_SYSFS at its capture; gpu-11 does not
    # answer (docs/verify.md).
    VERIFY_UNREACHABLE = ("192.168.100.11",)

    def verify_report(self, *extra: str, duration: str = "3s",
                      allow_busy: bool = True) -> subprocess.CompletedProcess:
        # The demo's training processes hold QPs on every NIC: verify refuses such ports
        # unless told (allow_busy), as it would on a cluster running jobs.
        stand_in = REPO / "tests" / "lint" / "verify" / "stand-in"
        env = dict(os.environ)
        env["PATH"] = f"{stand_in}:{env.get('PATH', '')}"
        env["ROCEWATCH_PERFTEST_REPLAY"] = str(REPO / "tests" / "lint" / "verify" / "demo-replay.map")
        env["ROCEWATCH_DEMO_NODES"] = str(DEMO / "nodes")
        env["ROCEWATCH_DEMO_UNREACHABLE"] = " ".join(self.VERIFY_UNREACHABLE)
        return subprocess.run([str(self.lint), "verify", str(self.plan_path), "--duration", duration,
                               "--server-start", "0.5s", "--concurrency", "12",
                               "--ssh-command", f"{stand_in / 'demo-ssh'} {{node}} {{host}}",
                               *(["--allow-busy-ports"] if allow_busy else []), *extra],
                              capture_output=True, text=True, timeout=300, env=env)

    def alerts(self) -> list:
        return json.loads(http_get(f"{self.alertmanager_url}/api/v2/alerts"))


def _stop_on_signal(signum, frame) -> None:
    """SIGTERM (timeout, systemd, kill) and SIGHUP (the terminal went away) stop the demo the
    way Ctrl-C does: the processes it started run in sessions of their own and would outlive it."""
    raise KeyboardInterrupt


def main(argv: Optional[List[str]] = None) -> int:
    signal.signal(signal.SIGTERM, _stop_on_signal)
    signal.signal(signal.SIGHUP, _stop_on_signal)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, default=REPO / "build")
    ap.add_argument("--port-base", type=int, default=19100)
    ap.add_argument("--no-hold", action="store_true", help="stop after printing the report")
    ap.add_argument("--no-prometheus", action="store_true")
    args = ap.parse_args(argv)
    with Demo(args.build, args.port_base, with_prometheus=not args.no_prometheus) as demo:
        print(f"== {len(demo.plan['nodes'])} roce_exporter replays on 127.0.0.1:"
              f"{args.port_base + 1}..{args.port_base + len(demo.plan['nodes'])}, "
              f"roce-lint serve on 127.0.0.1:{demo.lint_port}")
        print("== roce-lint check (counters over a 5 s window):\n", flush=True)
        report = demo.lint_report("--counter-window", "5s")
        print(report.stdout + report.stderr, flush=True)
        print("== roce-lint verify (stand-in perftest replaying recorded outputs, 3 s a test):\n", flush=True)
        verify = demo.verify_report()
        print(verify.stdout, flush=True)
        if demo.prometheus:
            print(f"== Prometheus {demo.prometheus_url} (rules loaded), "
                  f"Alertmanager {demo.alertmanager_url}: alerts arrive within a minute")
            print("   Grafana: import dashboards/grafana/*.json with this Prometheus as the datasource")
        else:
            print("== Prometheus/Alertmanager not installed: run scripts/install-deps.sh for the full demo")
        if args.no_hold:
            return 0
        print("== running; Ctrl-C to stop", flush=True)
        try:
            while all(p.poll() is None for p in demo.procs):
                time.sleep(1)
            print("a demo process exited; see the logs in", demo.work)
            return 1
        except KeyboardInterrupt:
            print("\n== stopping", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
