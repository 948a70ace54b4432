#!/usr/bin/env python3
"""roce-lint serve reloads its plan when the file changes or on SIGHUP, and keeps the last
good plan (serving its findings) when the new file is invalid."""

import json
import signal
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

LINT, EXPORTER, DEMO = sys.argv[1], sys.argv[2], Path(sys.argv[3])
sys.path.insert(0, str(Path(__file__).resolve().parent))
from exporter_process import Exporter, LintServe  # noqa: E402

failures = []


def metrics(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        return r.read().decode()


def value(text, series):
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return None


def wait_for(port, predicate, what, timeout=15):
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        try:
            text = metrics(port)
            if predicate(text):
                return text
        except Exception:
            pass
        time.sleep(0.3)
    failures.append(f"timed out waiting for: {what}\n{text[-1500:]}")
    return text


with tempfile.TemporaryDirectory(prefix="rocewatch-reload-") as tmp:
    tmp = Path(tmp)
    (tmp / "m").mkdir()
    plan = json.loads((DEMO / "plan.json").read_text())
    plan["nodes"] = [n for n in plan["nodes"] if n["name"] in ("gpu-01", "gpu-03")]
    for name in ("gpu-01", "gpu-03"):   # gpu-03 trusts pcp on mlx5_0
        with Exporter(EXPORTER, ["--replay", str(DEMO / "nodes" / name)]) as exp:
            (tmp / "m" / f"{name}.prom").write_text(exp.get("/metrics")[1])
    # The plan's folder name carries a terminal escape: serve's log must not pass it on.
    (tmp / "plans\x1b[31mred").mkdir()
    plan_path = tmp / "plans\x1b[31mred" / "plan.json"
    plan_path.write_text(json.dumps(plan))
    # Started once its log says where it listens (LintServe waits for that line).
    serve = LintServe(LINT, [str(plan_path), "--metrics-dir", str(tmp / "m"), "--interval", "1s"])
    port = serve.port
    try:
        trust = 'roce_lint_finding{node="gpu-03",device="mlx5_0",netdev="ens1f0np0",check="qos.trust",severity="critical"}'
        wait_for(port, lambda t: value(t, trust) == 1, "the qos.trust finding of gpu-03")
        # An invalid plan: the last good one stays, the reload is reported failed.
        plan_path.write_text('{"cluster": "demo", "nodes": [')
        text = wait_for(port, lambda t: value(t, "roce_lint_plan_reload_success") == 0,
                        "roce_lint_plan_reload_success 0 after an invalid plan")
        time.sleep(1.5)
        text = metrics(port)
        if value(text, trust) != 1:
            failures.append("the findings of the last good plan are no longer served")
        if value(text, "roce_lint_run_success") != 1:
            failures.append("runs fail while the last good plan is kept")
        # A valid plan without gpu-03, through SIGHUP: its finding goes.
        plan["nodes"] = [n for n in plan["nodes"] if n["name"] == "gpu-01"]
        plan_path.write_text(json.dumps(plan))
        serve.proc.send_signal(signal.SIGHUP)
        wait_for(port, lambda t: value(t, "roce_lint_plan_reload_success") == 1 and value(t, trust) is None,
                 "the reloaded plan (gpu-03 gone, reload success 1)")
        if serve.proc.poll() is not None:
            failures.append(f"serve exited on SIGHUP with {serve.proc.returncode}")
    finally:
        log = serve.whole_log()
    if "\x1b" in log:
        failures.append(f"serve's log passes a terminal escape from the plan path: {log[:500]!r}")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
