#!/usr/bin/env python3
"""Issue 38 through the real roce-lint: a store (Prometheus API) that fights back.

1. Switch counters: every profile query answers 32 MB of distinct switch ports (each answer
   under --max-bytes). roce-lint used to keep every series of every answer (1.45 GB RSS); now it
   stops at its limit of switch ports with a clear error, and its peak RSS stays bounded.
2. One sample of 150k labels in a node query: the run ends with a result (the sample skipped),
   within its --timeout, instead of comparing each label with every other.
3. A store that redirects: the error says where the redirect pointed.
Asserts results and sizes (peak RSS from the kernel's rusage), never a time; the subprocess
timeouts are generous bounds that only a hang reaches."""

import json
import resource
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LINT = sys.argv[1]
failures = []


def vector(items):
    return json.dumps({"status": "success", "data": {"resultType": "vector", "result": items}}).encode()


def switch_answer(target_bytes):
    """A vector of distinct switch ports in snmp-cisco-pfc-ext's shape, about target_bytes long."""
    parts, size, i = [], 0, 0
    while size < target_bytes:
        item = ('{"metric":{"instance":"leaf%d","ifName":"Ethernet%d","cpfcIfPriorityValue":"3"},'
                '"value":[1700000000,"5"]}' % (i // 512, i % 512))
        parts.append(item)
        size += len(item) + 1
        i += 1
    head = b'{"status":"success","data":{"resultType":"vector","result":['
    return head + ",".join(parts).encode() + b"]}}", i


MANY_LABELS = None


class Store(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, body, status=200, headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        query = self.rfile.read(n).decode()
        mode = self.server.mode
        if mode == "redirect":
            return self.answer(b"", 302, [("Location", "http://elsewhere.example:9090/prometheus/api/v1/query")])
        if mode == "switches" and "cpfcIfPriority" in query:
            return self.answer(self.server.big)
        if mode == "labels" and "roce_device_info" in query:
            return self.answer(MANY_LABELS)
        return self.answer(vector([]))

    do_GET = do_POST


def start(mode, big=b""):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Store)
    srv.mode, srv.big = mode, big
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def run(args, timeout=300):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    r = subprocess.run([LINT] + args, capture_output=True, text=True, timeout=timeout)
    # ru_maxrss of the children: the largest of any child so far (KiB); this child is the largest.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return r, max(peak, before) / 1024


def main():
    global MANY_LABELS
    tmp = Path(tempfile.mkdtemp(prefix="hostile-store-"))
    plan = {"cluster": "hostile", "profiles": {"p": {"pfc_priorities": [3], "roce_priority": 3}},
            "nodes": [{"name": "gpu-1", "management_ip": "192.168.0.1", "exporter": "127.0.0.1:19999",
                       "nics": [{"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "p",
                                 "roce_ip": "10.0.0.1/24"}]}]}
    (tmp / "plan.json").write_text(json.dumps(plan))

    # 1. 32 MB answers of distinct ports, as many as the profiles ask.
    big, ports = switch_answer(32 << 20)
    srv = start("switches", big)
    url = f"http://127.0.0.1:{srv.server_address[1]}"
    r, peak_mib = run(["check", str(tmp / "plan.json"), "--prometheus", url, "--max-bytes", "40MiB",
                       "--format", "json"])
    print(f"switch counters: {len(big) >> 20} MiB answers of {ports} ports: exit {r.returncode}, "
          f"peak RSS {peak_mib:.0f} MiB")
    if "more than 65536 switch ports" not in r.stderr:
        failures.append(f"switch counters: no limit error (exit {r.returncode}): {r.stderr[-500:]}")
    if r.returncode != 2:
        failures.append(f"switch counters: exit {r.returncode}, expected 2 (unusable input)")
    if peak_mib > 1024:
        failures.append(f"switch counters: peak RSS {peak_mib:.0f} MiB, above 1 GiB")
    srv.shutdown()

    # 2. One sample of 150k labels answers the device query.
    labels = {"__name__": "roce_device_info", "instance": "127.0.0.1:19999", "node": "gpu-1",
              "device": "mlx5_0", "netdev": "ens1f0np0"}
    labels.update({f"l{i}": "v" for i in range(150000)})
    MANY_LABELS = vector([{"metric": labels, "value": [1700000000, "1"]}])
    srv = start("labels")
    url = f"http://127.0.0.1:{srv.server_address[1]}"
    r, _ = run(["check", str(tmp / "plan.json"), "--prometheus", url, "--timeout", "20s", "--format", "json"])
    print(f"150k labels: exit {r.returncode}")
    if r.returncode not in (0, 1):
        failures.append(f"150k labels: exit {r.returncode}: {r.stderr[-500:]}")
    else:
        report = json.loads(r.stdout)
        if not any(f["node"] == "gpu-1" for f in report["findings"]):
            failures.append("150k labels: the node's skipped sample left it without a finding")
    srv.shutdown()

    # 3. A redirect names its Location.
    srv = start("redirect")
    url = f"http://127.0.0.1:{srv.server_address[1]}"
    r, _ = run(["check", str(tmp / "plan.json"), "--prometheus", url, "--format", "json"], timeout=120)
    where = 'a redirect to "http://elsewhere.example:9090/prometheus/api/v1/query"'
    print(f"redirect: exit {r.returncode}")
    if where not in r.stderr and where not in r.stdout:
        failures.append(f"redirect: the error does not say where: {(r.stderr + r.stdout)[-600:]}")
    srv.shutdown()

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
