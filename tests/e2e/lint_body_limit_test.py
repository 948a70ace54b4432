#!/usr/bin/env python3
"""roce-lint's one body limit (--max-bytes), enforced while the body arrives (issue 13 item 9).

Real HTTP servers on loopback, the real roce-lint binary:
  1. a node whose exporter serves a valid 80 MiB page is checked with --max-bytes 96MiB
     (a fixed 64 MiB parse limit used to refuse it after downloading all of it);
  2. one endless body with --max-bytes 65MiB: the node is unreachable ("larger than"), and
     roce-lint's peak RSS stays under the limit plus 40 MiB (growing the body by doubling
     used to copy 64 MiB into a 128 MiB buffer: about twice the limit);
  3. eight endless bodies at --concurrency 8 --max-bytes 9MiB: every node unreachable, peak
     RSS printed and under a generous 2 x 8 x 9 MiB + 40 MiB (glibc's per-thread arenas keep
     freed bodies; measured 104 MiB here, 125 MiB before the fix).
The peak RSS of each run (ru_maxrss of the child) is printed."""

import json
import os
import re
import sys
import tempfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_process import ChildServer  # noqa: E402

LINT = sys.argv[1] if len(sys.argv) > 1 else ""
MIB = 1 << 20
failures = []

PAGE = ('# TYPE roce_device_info gauge\n'
        'roce_device_info{device="mlx5_0",fw_version="28.39.1002",board_id="MT_0000000838",'
        'hca_type="MT4129",node_guid="0000:0000:0000:0001",driver="mlx5_core"} 1\n')
PADDING_LINE = b"# " + b"p" * 1021 + b"\n"  # 1 KiB comment lines: cheap to parse, all counted


class Server(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        mode = self.server.mode
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        if mode == "big":
            body = self.server.body
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.end_headers()  # endless: no Content-Length, the body never ends
        chunk = PADDING_LINE * 1024
        try:
            while True:
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass


def serve(mode):
    """The server process: prints its port, serves until killed."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Server)
    srv.mode = mode
    srv.body = PAGE.encode() + PADDING_LINE * (80 * 1024) if mode == "big" else b""
    srv.daemon_threads = True
    print(f"listening port {srv.server_address[1]}", file=sys.stderr, flush=True)
    srv.serve_forever()


class Started(ChildServer):
    """A server in a child process (the 80 MiB page lives there, not in this driver, whose
    size a forked roce-lint would otherwise inherit in ru_maxrss)."""

    def __init__(self, mode):
        super().__init__([sys.executable, __file__, "--serve", mode],
                         pattern=re.compile(r"listening port (\d+)"), what=f"the {mode} server")
        self.server_address = ("127.0.0.1", self.port)

    def shutdown(self):
        self.stop()


def start(mode):
    return Started(mode)


def plan_file(tmp, servers):
    nodes = [{"name": name, "management_ip": f"192.0.2.{i + 1}",
              "exporter": f"127.0.0.1:{srv.server_address[1]}",
              "nics": [{"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "p",
                        "roce_ip": f"10.10.0.{i + 1}/24"}]}
             for i, (name, srv) in enumerate(servers)]
    plan = {"cluster": "limits", "profiles": {"p": {"netdev_mtu": 9000}}, "nodes": nodes}
    path = Path(tmp) / f"plan{len(nodes)}.json"
    path.write_text(json.dumps(plan))
    return path


def run(argv):
    """roce-lint as a child: (exit code, stdout, peak RSS in MiB)."""
    out = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.dup2(out.fileno(), 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    out.seek(0)
    return os.waitstatus_to_exitcode(status), out.read().decode(), ru.ru_maxrss / 1024


def findings_by_node(stdout):
    by_node = {}
    for f in json.loads(stdout)["findings"]:
        by_node.setdefault(f["node"], []).append(f)
    return by_node


def unreachable(by_node, node):
    return [f for f in by_node.get(node, []) if f["check"] == "inventory.exporter-unreachable"]


# Under AddressSanitizer (scripts/test-sanitize.sh sets ASAN_OPTIONS) freed memory sits in the
# quarantine and shadow memory is resident, so RSS says nothing about our buffers there: the
# limits' behaviour is still checked, the memory bounds only in a plain build.
CHECK_RSS = "ASAN_OPTIONS" not in os.environ


def main():
    with tempfile.TemporaryDirectory() as tmp:
        big = start("big")
        code, out, rss = run([LINT, "check", str(plan_file(tmp, [("node-big", big)])),
                              "--max-bytes", str(96 * MIB), "--timeout", "20s", "--format", "json"])
        print(f"80 MiB page, --max-bytes 96MiB: exit {code}, peak RSS {rss:.0f} MiB")
        if code not in (0, 1):
            failures.append(f"80 MiB page: exit {code}")
        elif unreachable(findings_by_node(out), "node-big"):
            failures.append(f"80 MiB page refused under --max-bytes 96MiB: {unreachable(findings_by_node(out), 'node-big')}")
        big.shutdown()

        endless = start("endless")
        limit = 65
        code, out, rss = run([LINT, "check", str(plan_file(tmp, [("node-endless", endless)])),
                              "--max-bytes", str(limit * MIB), "--timeout", "20s", "--format", "json"])
        print(f"1 endless body, --max-bytes {limit}MiB: exit {code}, peak RSS {rss:.0f} MiB "
              f"(bound {limit + 40} MiB)")
        got = unreachable(findings_by_node(out), "node-endless") if code in (0, 1) else []
        if not got or "larger than" not in got[0]["found"]:
            failures.append(f"endless body: expected an unreachable finding saying 'larger than', got {got} (exit {code})")
        if CHECK_RSS and rss > limit + 40:
            failures.append(f"endless body: peak RSS {rss:.0f} MiB above {limit} MiB + 40 MiB")

        limit, n = 9, 8
        many = [start("endless") for _ in range(n)]
        servers = [(f"node-{i}", srv) for i, srv in enumerate(many)]
        code, out, rss = run([LINT, "check", str(plan_file(tmp, servers)), "--concurrency", str(n),
                              "--max-bytes", str(limit * MIB), "--timeout", "20s", "--format", "json"])
        print(f"{n} endless bodies, --concurrency {n} --max-bytes {limit}MiB: exit {code}, "
              f"peak RSS {rss:.0f} MiB (bound {2 * n * limit + 40} MiB)")
        by_node = findings_by_node(out) if code in (0, 1) else {}
        for name, _ in servers:
            if not unreachable(by_node, name):
                failures.append(f"{name}: no unreachable finding for an endless body")
        if CHECK_RSS and rss > 2 * n * limit + 40:
            failures.append(f"{n} endless bodies: peak RSS {rss:.0f} MiB above 2 x {n} x {limit} MiB + 40 MiB")
        endless.shutdown()
        for srv in many:
            srv.shutdown()
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
    else:
        main()
