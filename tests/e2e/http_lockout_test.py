#!/usr/bin/env python3
"""The lock-out attacks of issue 28, run against the real roce_exporter from the scraper's own
address: what the in-process tests (tests/http/server_test.cpp) show on the state machine, shown
on the binary and the host's kernel.

  1. 256 connections from 127.0.0.1 (Prometheus scrapes from one address, and so does this
     test) each pipeline 200 `GET /metrics` with a 2 KiB receive buffer and never read; then
     the same from four other addresses (127.0.0.2-5, 256 each: 1,280 in all, above the
     server's 1,024). Through both, 35 scrapes from 127.0.0.1, one after the other, must each
     answer 200 with the page within a 10 s timeout (Prometheus' scrape_timeout default).
  2. Basic auth (bcrypt cost 10): a flood of wrong passwords from four other addresses, 16
     connections each, as fast as they are answered, while the right password scrapes from
     127.0.0.1 every 0.25 s: every one of those must answer 200.

Figures, printed and not asserted (they depend on the host): the host's TCP memory
(/proc/net/sockstat `mem`, pages, host-wide) before, at its peak during and after each attack,
the scrape latencies, and how many wrong-password requests got 401 or 503.
"""

import argparse
import base64
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import http_attacks_test as attacks  # noqa: E402  (Server, connect, request: one copy of each)
from exporter_process import Checks  # noqa: E402

# bcrypt (cost 10) of "s3cret", as in tls_auth_test.py: a hash, not a secret.
ALICE_HASH = "$2b$10$42hEDdJLmQyPP.vP5d1v9uTtJuEOcWymhLKEFj4VneoJwRc9hAckK"
SCRAPE_TIMEOUT = 10.0
PAGE = b"roce_port_state"

check = Checks()
failures = check.failures


def tcp_mem_pages():
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1])
    return -1


class MemoryWatch:
    """Samples the host's TCP memory every 50 ms; .peak once stopped."""

    def __init__(self):
        self.peak, self._stop = tcp_mem_pages(), threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, tcp_mem_pages())

    def stop(self):
        self._stop.set()
        self._thread.join()
        return self.peak


def mib(pages):
    return pages * resource.getpagesize() / (1 << 20)


def open_pipeliners(server, sources, per_source=256, requests=200):
    """Connections that pipeline `requests` scrapes with a 2 KiB receive buffer and never read."""
    burst = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * requests
    socks, refused = [], 0
    for source in sources:
        for _ in range(per_source):
            try:
                s = attacks.connect(server, source, timeout=2.0, rcvbuf=2048)
                s.setblocking(False)
                try:
                    s.send(burst)  # what fits; the rest would only wait in our own buffer
                except (BlockingIOError, ConnectionResetError, BrokenPipeError):
                    pass
                socks.append(s)
            except OSError:
                refused += 1
    return socks, refused


def scrape(server, headers=None):
    status, _, body, elapsed = attacks.request(server, headers=headers, timeout=SCRAPE_TIMEOUT)
    return status == 200 and PAGE in body, status, elapsed


def test_pipeliners():
    with attacks.Server("exporter", []) as server:
        before = tcp_mem_pages()
        for label, sources in (("from the scraper's address", ["127.0.0.1"]),
                               ("and from four others", ["127.0.0.1", "127.0.0.2", "127.0.0.3",
                                                         "127.0.0.4", "127.0.0.5"])):
            watch = MemoryWatch()
            socks, refused = open_pipeliners(server, sources)
            time.sleep(1.0)  # let the server answer what it will and the queues fill
            latencies, ok = [], 0
            for i in range(35):
                good, status, elapsed = scrape(server)
                latencies.append(elapsed)
                ok += good
                check(good, f"pipeliners {label}: scrape {i + 1} of 35 got HTTP {status} "
                            f"after {elapsed:.2f} s")
            peak = watch.stop()
            for s in socks:
                s.close()
            time.sleep(0.5)
            after = tcp_mem_pages()
            latencies.sort()
            print(f"{len(socks)} non-reading pipeliners {label} ({refused} refused at connect): "
                  f"{ok}/35 scrapes from 127.0.0.1 answered, median {latencies[17] * 1000:.0f} ms, "
                  f"slowest {latencies[-1] * 1000:.0f} ms; host TCP memory {mib(before):.1f} MiB before, "
                  f"{mib(peak):.1f} MiB at the peak, {mib(after):.1f} MiB after", flush=True)


def basic(user, password):
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def test_wrong_password_flood(tmp):
    config = tmp / "auth.yml"
    config.write_text(f"basic_auth_users:\n  alice: '{ALICE_HASH}'\n")
    with attacks.Server("exporter", [f"--web.config.file={config}"]) as server:
        good, status, _ = scrape(server, basic("alice", "s3cret"))
        check(good, f"the right password before the flood: HTTP {status}")
        stop, answers, lock = threading.Event(), {}, threading.Lock()

        def flood(source):
            while not stop.is_set():
                try:
                    st, _, _, _ = attacks.request(server, headers=basic("alice", "wrong"),
                                                  source=source, timeout=5.0)
                except OSError:
                    st = 0
                with lock:
                    answers[st] = answers.get(st, 0) + 1

        threads = [threading.Thread(target=flood, args=(f"127.0.0.{2 + i // 16}",), daemon=True)
                   for i in range(64)]
        for t in threads:
            t.start()
        time.sleep(1.0)
        latencies, ok, n = [], 0, 0
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            good, status, elapsed = scrape(server, basic("alice", "s3cret"))
            n += 1
            ok += good
            latencies.append(elapsed)
            check(good, f"the right password during the flood: HTTP {status} after {elapsed:.2f} s")
            time.sleep(0.25)
        stop.set()
        for t in threads:
            t.join(timeout=10)
        latencies.sort()
        print(f"wrong-password flood from 4 addresses x 16 connections: {dict(sorted(answers.items()))} "
              f"(status: count); right password from 127.0.0.1: {ok}/{n} answered 200, median "
              f"{latencies[len(latencies) // 2] * 1000:.0f} ms, slowest {latencies[-1] * 1000:.0f} ms",
              flush=True)
        check(n >= 20, f"only {n} right-password scrapes in 15 s")
        check(sum(v for k, v in answers.items() if k in (401, 503)) > 0,
              f"the flood got no 401 or 503 at all: {answers} (did it run?)")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--exporter", required=True)
    p.add_argument("--fixture", required=True)
    args = p.parse_args()
    attacks.ARGS = argparse.Namespace(exporter=args.exporter, fixture=args.fixture)
    nofile = attacks.raise_nofile()
    if nofile < 2048:
        print(f"RLIMIT_NOFILE {nofile}: too low for 1,280 connections", file=sys.stderr)
        return 1
    test_pipeliners()
    with tempfile.TemporaryDirectory(prefix="httplockout-") as d:
        test_wrong_password_flood(Path(d))
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("every scrape from the scraper's address succeeded through both attacks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
