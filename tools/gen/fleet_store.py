#!/usr/bin/env python3
"""Real query engines filled with a fleet's /metrics text (tools/gen/fleet.py), for roce-lint
--prometheus tests and benchmarks (tests/e2e/lint_prometheus_fleet_test.py, bench/lint_store.py).

Each node's text is stored once per observation, a list of (unix time, directory of
<node>.prom files) — two observations 5 minutes apart, one alone (a fleet imported once), an
import followed by scrapes — with the labels Prometheus's scrape would add (job, instance: the
plan's exporter address, and node: the plan's node name), into
  - Prometheus 2.42: one OpenMetrics file, `promtool tsdb create-blocks-from openmetrics`,
    then `prometheus` started on the blocks;
  - VictoriaMetrics 1.79: `victoria-metrics` started empty, the same text posted to its
    import API /api/v1/import/prometheus (timestamps in ms), then /internal/force_flush.
Both listen on 127.0.0.1, on a free port, and are stopped by the caller (Engine.stop).
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)(?:\s+\S+)?$")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def with_target_labels(labels: str, node: str, instance: str) -> str:
    """`{a="1"}` -> `{a="1",job="roce",instance="…",node="…"}` (exposition label syntax kept)."""
    extra = f'job="roce",instance="{escape(instance)}",node="{escape(node)}"'
    if not labels or labels == "{}":
        return "{" + extra + "}"
    return labels[:-1] + "," + extra + "}"


def node_samples(text: str):
    """(name, labels, value) of every sample line of one node's exposition text."""
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if m:
            yield m.group(1), m.group(2) or "", m.group(3)


def nodes_of(fleet: Path):
    """(node name, exporter address) of every plan node, as roce-lint resolves them."""
    plan = json.loads((fleet / "plan.json").read_text())
    out = []
    for n in plan["nodes"]:
        exporter = n.get("exporter") or f'{n["management_ip"]}:9879'
        out.append((n["name"], exporter))
    return out


def write_openmetrics(fleet: Path, observations, out: Path, families=None, nodes: slice = slice(None)) -> int:
    """One OpenMetrics file with the samples of every observation (unix time, directory) of
    every node (or of the plan's nodes[`nodes`]) that has a file there, grouped by family and in
    time order as OpenMetrics requires. `families`: keep only these (None: all). Returns the
    number of samples written."""
    by_family: dict[str, list[str]] = {}
    for t, d in sorted(observations, key=lambda o: o[0]):
        for node, instance in nodes_of(fleet)[nodes]:
            path = d / f"{node}.prom"
            if not path.exists():
                continue
            for name, labels, value in node_samples(path.read_text()):
                if families is not None and name not in families:
                    continue
                by_family.setdefault(name, []).append(
                    f"{name}{with_target_labels(labels, node, instance)} {value} {t:.3f}\n")
    count = 0
    with out.open("w") as f:
        for name, lines in by_family.items():
            f.write(f"# TYPE {name} unknown\n")
            f.writelines(lines)
            count += len(lines)
        f.write("# EOF\n")
    return count


def add_blocks(openmetrics, data: Path, log: Path):
    """`promtool tsdb create-blocks-from openmetrics` for each file, into `data`."""
    files = [openmetrics] if isinstance(openmetrics, Path) else list(openmetrics)
    with log.open("a") as lf:
        for om in files:
            subprocess.run(["nice", "promtool", "tsdb", "create-blocks-from", "openmetrics", str(om), str(data)],
                           check=True, stdout=lf, stderr=subprocess.STDOUT)


class Engine:
    def __init__(self, kind: str, url: str, proc: subprocess.Popen, log: Path):
        self.kind, self.url, self.proc, self.log = kind, url, proc, log

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def rss_mib(self) -> float:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0


def wait_ready(url: str, proc: subprocess.Popen, log: Path, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{url}: the engine exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/api/v1/query?query=vector(1)", timeout=2) as r:
                if r.status == 200:
                    return
        except Exception:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url}: not ready after {timeout} s: {log.read_text()[-2000:]}")


def start_prometheus(openmetrics, workdir: Path, max_samples: int | None = None,
                     keep_data: bool = False) -> Engine:
    """Blocks from the OpenMetrics file (or files: a block each, Prometheus queries them all),
    then Prometheus on them (no scrape jobs). With keep_data, Prometheus on the blocks an
    earlier call left in workdir."""
    data = workdir / "prometheus-data"
    log = workdir / "prometheus.log"
    if not keep_data:
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir(parents=True)
        add_blocks(openmetrics, data, log)
    conf = workdir / "prometheus.yml"
    conf.write_text("global:\n  scrape_interval: 1m\n")
    port = free_port()
    argv = ["nice", "prometheus", f"--config.file={conf}", f"--storage.tsdb.path={data}",
            f"--web.listen-address=127.0.0.1:{port}", "--storage.tsdb.retention.time=10y"]
    if max_samples:
        argv.append(f"--query.max-samples={max_samples}")
    proc = subprocess.Popen(argv, stdout=log.open("a"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    wait_ready(url, proc, log, timeout=600)
    return Engine("prometheus", url, proc, log)


def start_victoria_metrics(workdir: Path, keep_data: bool = False, memory: str | None = None) -> Engine:
    """VictoriaMetrics on workdir/vm-data; `memory` ("6GiB"): its -memory.allowedBytes, the
    bound on its caches (by default 60 % of the machine's memory)."""
    binary = shutil.which("victoria-metrics") or shutil.which("victoria-metrics-prod")
    if binary is None:
        raise RuntimeError("victoria-metrics is not installed (scripts/install-deps.sh)")
    data = workdir / "vm-data"
    if not keep_data:
        shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True, exist_ok=True)
    log = workdir / "victoria-metrics.log"
    port = free_port()
    argv = ["nice", binary, f"-storageDataPath={data}", f"-httpListenAddr=127.0.0.1:{port}",
            "-retentionPeriod=100y", "-search.disableCache", "-search.latencyOffset=0s"]
    if memory:
        argv.append(f"-memory.allowedBytes={memory}")
    proc = subprocess.Popen(argv, stdout=log.open("w"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    wait_ready(url, proc, log, timeout=600)
    return Engine("victoria-metrics", url, proc, log)


def import_into_victoria_metrics(engine: Engine, fleet: Path, observations, families=None,
                                 nodes_per_post: int = 50, streams: int = 4) -> int:
    """Every node's text of every observation (unix time, directory) into
    /api/v1/import/prometheus. With every family (the
    default: what the exporter served), each file is posted as it is, one node a request on
    `streams` connections at once, the target labels and the timestamp (ms) as the import's
    `extra_label` and `timestamp` query args, so nothing is parsed here. With `families`, the
    lines are filtered and rewritten here, `nodes_per_post` nodes a request."""
    nodes = nodes_of(fleet)
    if families is None:
        def post(job):
            t, d, node, instance = job
            path = d / f"{node}.prom"
            if not path.exists():
                return 0
            body = path.read_bytes()
            q = urllib.parse.urlencode([("timestamp", str(int(t * 1000))), ("extra_label", "job=roce"),
                                        ("extra_label", f"instance={instance}"), ("extra_label", f"node={node}")])
            req = urllib.request.Request(f"{engine.url}/api/v1/import/prometheus?{q}", data=body, method="POST")
            with urllib.request.urlopen(req, timeout=300) as r:
                if r.status not in (200, 204):
                    raise RuntimeError(f"import {path}: HTTP {r.status}")
            return sum(1 for line in body.splitlines() if line and not line.startswith(b"#"))

        jobs = [(t, d, node, instance) for t, d in observations for node, instance in nodes]
        with ThreadPoolExecutor(max_workers=streams) as pool:
            count = sum(pool.map(post, jobs))
    else:
        count = 0
        for t, d in observations:
            ms = int(t * 1000)
            for i in range(0, len(nodes), nodes_per_post):
                lines = []
                for node, instance in nodes[i:i + nodes_per_post]:
                    path = d / f"{node}.prom"
                    if not path.exists():
                        continue
                    for name, labels, value in node_samples(path.read_text()):
                        if name not in families:
                            continue
                        lines.append(f"{name}{with_target_labels(labels, node, instance)} {value} {ms}\n")
                count += len(lines)
                req = urllib.request.Request(engine.url + "/api/v1/import/prometheus",
                                             data="".join(lines).encode(), method="POST")
                with urllib.request.urlopen(req, timeout=300) as r:
                    if r.status not in (200, 204):
                        raise RuntimeError(f"import: HTTP {r.status}")
    with urllib.request.urlopen(engine.url + "/internal/force_flush", timeout=600):
        pass
    return count


def series_count(engine: Engine, at: float, selector: str = '{__name__=~"roce_.+"}') -> int:
    q = urllib.parse.urlencode({"query": f"count({selector})", "time": f"{at:.3f}"})
    with urllib.request.urlopen(f"{engine.url}/api/v1/query?{q}", timeout=300) as r:
        result = json.load(r)["data"]["result"]
    return int(float(result[0]["value"][1])) if result else 0


class _RecordQueries(BaseHTTPRequestHandler):
    """Answers every instant query with an empty vector and records the query text."""

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        self.server.queries.append(urllib.parse.parse_qs(body).get("query", [""])[0])
        data = b'{"status":"success","data":{"resultType":"vector","result":[]}}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def families_asked(lint: str, fleet: Path) -> set[str]:
    """The metric families `roce-lint check --prometheus --window 5m` asks a store for, read
    from the queries it sends to a recording stand-in (one node of the fleet's plan), so a
    store is filled with what roce-lint reads and nothing else."""
    plan = json.loads((fleet / "plan.json").read_text())
    plan["nodes"] = plan["nodes"][:1]
    one = fleet / "plan-one-node.json"
    one.write_text(json.dumps(plan))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RecordQueries)
    server.queries = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        subprocess.run([lint, "check", str(one), "--prometheus", f"http://127.0.0.1:{server.server_address[1]}",
                        "--window", "5m", "--format", "json", "--output", "/dev/null"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    finally:
        server.shutdown()
        one.unlink()
    names = set()
    for q in server.queries:
        m = re.search(r'__name__=~"([a-zA-Z0-9_:|]+)"', q)
        if m:
            names.update(m.group(1).split("|"))
        names.update(re.findall(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\{", q))  # name{…}, increase(name{…}[…])
    if not names:
        raise RuntimeError(f"roce-lint asked for no families: {server.queries}")
    return names
