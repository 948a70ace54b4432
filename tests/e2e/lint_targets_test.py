#!/usr/bin/env python3
"""`roce-lint targets PLAN` (issue 16): the file_sd JSON and scrape config snippet it writes
are loaded by a real Prometheus 2.42, whose /api/v1/targets then carry the plan's labels
(cluster, node, rack, pod, rails) on each target, hostile label values included (quotes,
backslashes, non-ASCII: nlohmann-json escapes them). A label name Prometheus refuses and one
that would overwrite `node` are errors (exit 2)."""

import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from exporter_process import ReadyServer, free_port  # noqa: E402

LINT = sys.argv[1]
failures = []

HOSTILE = 'r1 "quoted" \\back ü'


def plan(labels):
    nodes = []
    for i in range(3):
        nodes.append({"name": f"gpu-0{i + 1}", "management_ip": f"192.0.2.{i + 1}", "exporter": f"127.0.0.1:{free_port()}",
                      "labels": dict(labels, pod=f"p{i}"),
                      "nics": [{"ib_dev": f"mlx5_{n}", "netdev": f"ens{n + 1}f0np0", "profile": "p",
                                "roce_ip": f"10.{n}.0.{i + 1}/24", "rail": n} for n in range(2)]})
    return {"cluster": 'c1 "x"', "profiles": {"p": {"netdev_mtu": 9000}}, "nodes": nodes}


def main():
    tmp = Path(tempfile.mkdtemp(prefix="fleetquery-targets-"))
    prom = None
    try:
        p = tmp / "plan.json"
        p.write_text(json.dumps(plan({"rack": HOSTILE})))
        sd, snippet = tmp / "targets.json", tmp / "scrape.yml"
        r = subprocess.run([LINT, "targets", str(p), "--output", str(sd), "--scrape-config", str(snippet)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"targets: exit {r.returncode}: {r.stderr}")
            return
        conf = tmp / "prometheus.yml"
        conf.write_text("global:\n  scrape_interval: 1s\n" + snippet.read_text())
        check = subprocess.run(["promtool", "check", "config", str(conf)], capture_output=True, text=True)
        if check.returncode != 0:
            failures.append(f"promtool check config: {check.stdout}{check.stderr}")
        port = free_port()
        prom = ReadyServer(["prometheus", f"--config.file={conf}", f"--storage.tsdb.path={tmp / 'data'}",
                            f"--web.listen-address=127.0.0.1:{port}"], port, "/-/ready", what="Prometheus")
        got = {}
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/targets", timeout=2) as resp:
                    active = json.load(resp)["data"]["activeTargets"]
                got = {t["labels"]["instance"]: t["labels"] for t in active}
                if len(got) == 3:
                    break
            except Exception:
                pass
            time.sleep(0.2)
        names = {n["exporter"]: n["name"] for n in json.loads(p.read_text())["nodes"]}
        if set(got) != set(names):
            failures.append(f"Prometheus targets {sorted(got)} are not the plan's exporters {sorted(names)}")
        for addr, labels in got.items():
            i = int(names[addr][-1]) - 1
            expect = {"cluster": 'c1 "x"', "node": names[addr], "rack": HOSTILE, "pod": f"p{i}",
                      "rails": "0,1", "job": "roce_exporter"}
            for k, v in expect.items():
                if labels.get(k) != v:
                    failures.append(f"{addr}: label {k} is {labels.get(k)!r}, expected {v!r}")
        print(f"Prometheus loaded {len(got)} targets from roce-lint targets, e.g. {next(iter(got.values()), {})}")
        for bad, why in (({"bad-name": "x"}, "not a Prometheus label name"), ({"node": "x"}, "would replace")):
            p.write_text(json.dumps(plan(bad)))
            r = subprocess.run([LINT, "targets", str(p)], capture_output=True, text=True)
            if r.returncode != 2 or why not in r.stderr:
                failures.append(f"label {bad}: exit {r.returncode}, stderr {r.stderr!r}")
    finally:
        if prom:
            prom.stop()
        shutil.rmtree(tmp, ignore_errors=True)


main()
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
