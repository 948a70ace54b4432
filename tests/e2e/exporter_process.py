"""Start a real roce_exporter (or another server) on a free port and talk to it over HTTP;
keep a script's failed checks.

Shared by the end-to-end tests; standard library only.
"""

import http.client
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request

LISTENING = re.compile(r"msg=listening address=[0-9.]+:(\d+)")
LINT_SERVE_LISTENING = re.compile(r"roce-lint serve: listening on port (\d+)")


def read_listening_port(proc, timeout, pattern=LISTENING):
    """Reads a server's stderr (a text pipe) until its "listening" line: (port, lines read);
    port None when the process ended or `timeout` seconds passed first."""
    log = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        log.append(line)
        m = pattern.search(line)
        if m:
            return int(m.group(1)), log
    return None, log


class Checks:
    """A test script's checks: `check(cond, what)` keeps `what` when `cond` is false (printed
    at once with `echo`) and returns `cond`; `failures` lists what failed."""

    def __init__(self, echo=True):
        self.failures = []
        self.echo = echo

    def __call__(self, cond, what):
        if not cond:
            self.failures.append(what)
            if self.echo:
                print("FAIL:", what, flush=True)
        return cond


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on (at the time of asking)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class ChildServer:
    """A server child process (argv) whose port is read back from its log (`pattern`, one group:
    the port); stopped on exit from a `with` block. `what` names it in the start-up error."""

    def __init__(self, argv, timeout=10.0, env=None, pattern=LISTENING, what="server"):
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, env=env)
        self.port, self.log = read_listening_port(self.proc, timeout, pattern)
        if self.port is None:
            self.stop()
            raise RuntimeError(f"{what} did not start:\n" + "".join(self.log))

    def wait_for_line(self, text, timeout=90):
        """Reads the server's log on until a line holds `text` (kept in `log`); that line."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                raise RuntimeError("the server exited:\n" + "".join(self.log))
            self.log.append(line)
            if text in line:
                return line
        raise RuntimeError(f"no {text!r} in the server's log in {timeout} s:\n" + "".join(self.log))

    def whole_log(self):
        """Stops the server and returns everything it logged."""
        self.stop()
        self.log.append(self.proc.stderr.read())
        return "".join(self.log)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class LintServe(ChildServer):
    """A `roce-lint serve` child process bound to 127.0.0.1:0 (`args` after "serve"); its port
    read back from its log."""

    def __init__(self, binary, args, timeout=10.0, env=None):
        super().__init__([binary, "serve", *args, "--web.listen-address=127.0.0.1:0"], timeout, env,
                         pattern=LINT_SERVE_LISTENING, what="roce-lint serve")


class ReadyServer(ChildServer):
    """Another project's server (Prometheus, Alertmanager, node_exporter) started on `port`,
    ready once http://127.0.0.1:`port``ready` answers; its log kept in `log` when stopped."""

    def __init__(self, argv, port, ready="/", timeout=30.0, what="server"):
        self.port = port
        self.log = []
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{ready}", timeout=2):
                    return
            except urllib.error.HTTPError:
                return  # it answers
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start:\n" + self.whole_log()[-4000:])
            time.sleep(0.1)


class Exporter(ChildServer):
    """A roce_exporter child process bound to 127.0.0.1:0; its port read back from its log."""

    def __init__(self, binary, args, timeout=10.0, env=None):
        super().__init__([binary, "--web.listen-address=127.0.0.1:0", *args], timeout, env,
                         what="exporter")

    def get(self, path, headers=None):
        """GET path; returns (status, body)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        body = resp.read().decode()
        conn.close()
        return resp.status, body


# Series whose values depend on the run, not on the input: timings, the build,
# the process's descriptor limit, and prometheus-cpp's own counters.
UNSTABLE = re.compile(
    r"^(exposer_|roce_exporter_(collector_duration_seconds|collection_duration_seconds|"
    r"build_info|attribute_budget)|roce_module_last_read_timestamp_seconds)")


def stable_lines(text):
    """The exposition text without the run-dependent series and their comments."""
    out = []
    for line in text.splitlines():
        name = line.split(" ")[2] if line.startswith("# ") and len(line.split(" ")) > 2 else line
        if UNSTABLE.match(name):
            continue
        out.append(line)
    return out
