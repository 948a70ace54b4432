#!/usr/bin/env python3
"""Hostile HTTP clients against both real binaries (roce_exporter and roce-lint serve), over
plain HTTP and HTTPS: they share one server (http/server.h), and this shows it holds.

  - load: 200 idle, 200 slowloris and 64 slow-reading (pipelining, never reading)
    connections open at once; a scrape still answers (5 s timeout; the latency is printed
    for docs/performance.md, not asserted);
  - the attacks of issue 13 as regressions: the per-address connection limit, the header
    deadline, a cost-31 bcrypt hash refused at config load, the path normalisation table and
    TRACE (the same answers on HTTP and HTTPS), Connection: close honoured (the socket is
    closed), gzip negotiated alike on both, a landing page without version, and SIGTERM
    prompt while a bcrypt check runs.

Loopback only; the attackers bind 127.0.0.2-127.0.0.9 as source addresses so that the
per-address limit (256) does not evict them, and the test raises RLIMIT_NOFILE for its own
sockets.
"""

import argparse
import os
import re
import resource
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_process import LISTENING, Checks, ChildServer  # noqa: E402

check = Checks()
failures = check.failures


# A cost-31 hash (never checked: refused at load).
COST31_HASH = "$2y$31$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz01234"
# Cost 14 (the highest accepted): a wrong password costs a second or more of bcrypt.
COST14_HASH = "$2y$14$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz01234"


class Server(ChildServer):
    """A roce_exporter or roce-lint serve child process on 127.0.0.1:0."""

    def __init__(self, kind, args, tls=False):
        self.kind, self.tls = kind, tls
        if kind == "exporter":
            argv = [ARGS.exporter, "--web.listen-address=127.0.0.1:0", "--replay", ARGS.fixture,
                    "--web.coalesce-window=0", *args]
            pattern = LISTENING
        else:
            argv = [ARGS.lint, "serve", ARGS.plan, "--metrics-dir", ARGS.empty_dir, "--interval", "60s",
                    "--web.listen-address=127.0.0.1:0", *args]
            pattern = re.compile(r"listening on port (\d+)")
        super().__init__(argv, timeout=15, pattern=pattern, what=kind)
        # Keep reading stderr so that the child never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()


CLIENT_TLS = ssl.create_default_context()
CLIENT_TLS.check_hostname = False
CLIENT_TLS.verify_mode = ssl.CERT_NONE


def connect(server, source="127.0.0.1", timeout=5.0, handshake=True, rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", server.port))
    if server.tls and handshake:
        s = CLIENT_TLS.wrap_socket(s, server_hostname="127.0.0.1")
    return s


def read_all(s, limit=64 << 20):
    data = b""
    while len(data) < limit:
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, ssl.SSLError):
            break
        if not chunk:
            break
        data += chunk
    return data


def request(server, method="GET", path="/metrics", headers=None, source="127.0.0.1", timeout=5.0):
    """One request with Connection: close; (status, headers text, body bytes, seconds)."""
    start = time.monotonic()
    s = connect(server, source, timeout)
    try:
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = read_all(s)
    finally:
        s.close()
    elapsed = time.monotonic() - start
    head, _, body = data.partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    return (int(m.group(1)) if m else 0), head.decode(errors="replace"), body, elapsed


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 4096) if hard != resource.RLIM_INFINITY else 4096
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def open_attack(server):
    """200 idle, 200 slowloris and 64 slow readers; returns (sockets, stop event)."""
    socks, stop = [], threading.Event()
    for i in range(200):  # idle: TCP only, not even a TLS handshake
        socks.append(connect(server, "127.0.0.2", handshake=False))
    loris = []
    for i in range(200):  # slowloris: a request head that never ends
        s = connect(server, "127.0.0.3")
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        loris.append(s)
    socks += loris
    pipelined = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 64
    for i in range(64):  # slow readers: many requests, nothing read, a tiny receive buffer
        s = connect(server, "127.0.0.4", rcvbuf=4096)
        s.settimeout(0.5)
        try:
            s.sendall(pipelined)
        except (socket.timeout, OSError):
            pass
        socks.append(s)

    def trickle():
        while not stop.wait(1.0):
            for s in loris:
                try:
                    s.send(b"X-a: b\r\n")
                except OSError:
                    pass
    threading.Thread(target=trickle, daemon=True).start()
    return socks, stop


def test_load(kind, tls):
    args = [f"--web.config.file={ARGS.tls_config}"] if tls else []
    name = f"{kind} {'HTTPS' if tls else 'HTTP'}"
    with Server(kind, args, tls) as server:
        status, _, _, warm = request(server)
        check(status == 200, f"{name}: a scrape before the attack: HTTP {status}")
        start = time.monotonic()
        socks, stop = open_attack(server)
        opened = time.monotonic() - start
        try:
            latencies = []
            for _ in range(3):
                try:
                    status, _, body, elapsed = request(server, timeout=5.0)
                except OSError as ex:
                    status, body, elapsed = 0, b"", 5.0
                    print(f"{name}: scrape failed: {ex}")
                check(status == 200 and len(body) > 0,
                      f"{name}: a scrape under 200 idle + 200 slowloris + 64 slow readers: HTTP {status}")
                latencies.append(elapsed)
            print(f"{name}: 464 hostile connections opened in {opened:.2f} s; scrape latency "
                  f"before {warm * 1000:.0f} ms, under attack " +
                  ", ".join(f"{x * 1000:.0f} ms" for x in latencies), flush=True)
        finally:
            stop.set()
            for s in socks:
                s.close()


def test_per_address_limit():
    with Server("exporter", ["--web.max-connections-per-client=8"]) as server:
        other = connect(server, "127.0.0.6")
        first = connect(server, "127.0.0.5")
        time.sleep(0.2)
        rest = [connect(server, "127.0.0.5") for _ in range(8)]  # the 9th makes room
        first.settimeout(3)
        try:
            closed = first.recv(1) == b""
        except ConnectionResetError:
            closed = True
        except socket.timeout:
            closed = False
        check(closed, "per-address limit: the oldest waiting connection of the address is closed")
        other.settimeout(0.5)
        try:
            still_open = other.recv(1) != b""
        except socket.timeout:
            still_open = True
        except OSError:
            still_open = False
        check(still_open, "per-address limit: another address's connection stays open")
        status, _, _, _ = request(server)
        check(status == 200, f"per-address limit: a scrape from a third address: HTTP {status}")
        for s in rest + [first, other]:
            s.close()


def test_header_deadline(tls):
    args = ["--web.header-timeout=1s"] + ([f"--web.config.file={ARGS.tls_config}"] if tls else [])
    with Server("exporter", args, tls) as server:
        s = connect(server)
        s.settimeout(0.2)
        start = time.monotonic()
        s.sendall(b"GET /metrics HTTP/1.1\r\n")
        data, closed = b"", False
        while time.monotonic() - start < 6:
            try:
                s.send(b"X")  # one byte at a time, never the end of the head
            except OSError:
                closed = True
                break
            try:
                chunk = s.recv(4096)
                data += chunk
                if not chunk:
                    closed = True
                    break
            except (socket.timeout, ssl.SSLWantReadError):
                pass
            except (OSError, ssl.SSLError):
                closed = True
                break
        took = time.monotonic() - start
        s.close()
        print(f"header deadline ({'HTTPS' if tls else 'HTTP'}): slowloris closed after {took:.1f} s, "
              f"answer {data[:30]!r}")
        check(closed and took < 5, f"header deadline 1s ({'HTTPS' if tls else 'HTTP'}): closed after {took:.1f} s")


def test_cost31_refused(tmp):
    config = tmp / "cost31.yml"
    config.write_text(f"basic_auth_users:\n  alice: '{COST31_HASH}'\n")
    for argv in ([ARGS.exporter, "--web.listen-address=127.0.0.1:0", "--replay", ARGS.fixture],
                 [ARGS.lint, "serve", ARGS.plan, "--web.listen-address=127.0.0.1:0"]):
        try:
            r = subprocess.run(argv + [f"--web.config.file={config}"], capture_output=True, text=True,
                               timeout=10)
            refused = r.returncode != 0 and "bcrypt cost 31 is above the maximum 14" in r.stderr
            msg = r.stderr.strip()[-200:]
        except subprocess.TimeoutExpired:
            refused, msg = False, "still running after 10 s"
        check(refused, f"{Path(argv[0]).name}: a cost-31 hash refused at load: {msg}")


PATHS = {"/metrics": 200, "/metrics?x=1": 200, "/": 200, "//metrics": 404, "/./metrics": 404,
         "/metrics%00": 404, "/metrics/": 404, "/%6detrics": 404, "/../metrics": 404,
         "/Metrics": 404, "/metrics;x": 404, "/favicon.ico": 404}


def test_one_router(tmp):
    """The same answers on HTTP and HTTPS: paths, methods, Connection: close, gzip, landing."""
    version = subprocess.run([ARGS.exporter, "--version"], capture_output=True, text=True).stdout.split()
    answers = {}
    for tls in (False, True):
        name = "HTTPS" if tls else "HTTP"
        args = [f"--web.config.file={ARGS.tls_config}"] if tls else []
        with Server("exporter", args, tls) as server:
            for path, want in PATHS.items():
                status, _, _, _ = request(server, path=path)
                answers[(name, path)] = status
                check(status == want, f"{name} GET {path}: HTTP {status}, expected {want}")
            for method in ("TRACE", "OPTIONS", "POST", "PUT", "DELETE", "CONNECT"):
                status, head, _, _ = request(server, method=method)
                check(status == 405 and "Allow: GET, HEAD" in head, f"{name} {method}: HTTP {status}, expected 405 with Allow")
            status, head, body, _ = request(server, headers={"Accept-Encoding": "gzip"})
            check(status == 200 and "Content-Encoding: gzip" in head and body[:2] == b"\x1f\x8b",
                  f"{name}: gzip when asked")
            status, head, body, _ = request(server)
            check("Content-Encoding" not in head, f"{name}: no gzip when not asked")
            status, _, body, _ = request(server, path="/")
            check(status == 200 and all(v.encode() not in body for v in version[1:3] if len(v) > 3)
                  and b"Version" not in body, f"{name}: the landing page names no version or revision")
            # Connection: close: the answer, then the server closes the socket.
            s = connect(server)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            s.settimeout(3)
            start = time.monotonic()
            data = read_all(s)
            took = time.monotonic() - start
            s.close()
            check(b"200 OK" in data and b"Connection: close" in data and took < 2.5,
                  f"{name}: Connection: close honoured (socket closed after {took:.1f} s)")
            # Keep-alive still works: two answers on one connection.
            s = connect(server)
            s.sendall(b"GET / HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            s.settimeout(3)
            data = read_all(s)
            s.close()
            check(data.count(b"HTTP/1.1 200 OK") == 2, f"{name}: two pipelined requests on one connection")
    for path in PATHS:
        check(answers[("HTTP", path)] == answers[("HTTPS", path)], f"{path}: HTTP and HTTPS differ")


def test_shutdown_during_bcrypt(tmp):
    config = tmp / "cost14.yml"
    config.write_text(f"basic_auth_users:\n  alice: '{COST14_HASH}'\n")
    with Server("exporter", [f"--web.config.file={config}"]) as server:
        s = connect(server)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: h\r\nAuthorization: Basic YWxpY2U6d3Jvbmc=\r\n\r\n")
        time.sleep(0.3)  # the cost-14 check of a wrong password is running
        # Meanwhile, a request without credentials is answered at once (no bcrypt).
        status, _, _, elapsed = request(server)
        check(status == 401, f"401 without credentials while a bcrypt check runs: HTTP {status}")
        print(f"401 while a cost-14 check runs: {elapsed * 1000:.0f} ms")
        start = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        try:
            server.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        took = time.monotonic() - start
        s.close()
        print(f"SIGTERM during a cost-14 bcrypt check: exited after {took:.2f} s")
        check(server.proc.poll() is not None and took < 2, f"SIGTERM prompt during a bcrypt check: {took:.1f} s")


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--exporter", required=True)
    p.add_argument("--lint", required=True)
    p.add_argument("--fixture", required=True)
    p.add_argument("--plan", required=True)
    ARGS = p.parse_args()
    nofile = raise_nofile()
    if nofile < 1200:
        print(f"RLIMIT_NOFILE {nofile}: too low for 464 connections", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="httpserver-") as d:
        tmp = Path(d)
        ARGS.empty_dir = str(tmp / "metrics")
        os.mkdir(ARGS.empty_dir)
        crt, key = tmp / "server.crt", tmp / "server.key"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                        "-nodes", "-keyout", str(key), "-out", str(crt), "-subj", "/CN=127.0.0.1",
                        "-days", "2", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        ARGS.tls_config = str(tmp / "tls.yml")
        Path(ARGS.tls_config).write_text(f"tls_server_config:\n  cert_file: {crt}\n  key_file: {key}\n")
        for kind in ("exporter", "lint"):
            for tls in (False, True):
                test_load(kind, tls)
        test_per_address_limit()
        test_header_deadline(False)
        test_header_deadline(True)
        test_cost31_refused(tmp)
        test_one_router(tmp)
        test_shutdown_during_bcrypt(tmp)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("all HTTP attack checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
