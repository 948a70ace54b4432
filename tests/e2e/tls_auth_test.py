#!/usr/bin/env python3
"""--web.config.file end to end, with real TLS clients: curl, Python's ssl and Prometheus.

Generates a CA, a server certificate for 127.0.0.1 and client certificates with `openssl`
in a temporary directory (no key is ever checked in), starts the real roce_exporter on a
replayed fixture with several web configs and asserts:
  - HTTPS with the CA and the right password returns the metrics (gzip too), on one
    kept-alive connection for two requests, with the configured headers;
  - a wrong password, an unknown user and no credentials get 401 with WWW-Authenticate;
  - plain HTTP to the TLS port never gets metrics (a 400 telling it to use HTTPS);
  - a client that does not trust the CA fails; TLS 1.2 is refused with min_version TLS13;
  - RequireAndVerifyClientCert: no client certificate and a certificate from another CA
    fail, the CA's client certificate passes; client_allowed_sans refuses another SAN;
  - a 100 KB request line is refused; /../../etc/passwd and /metrics/x are 404, POST 405;
  - 80 silent connections (beyond the connection limit) do not lock a scrape out;
  - a rotated certificate is served without a restart;
  - a key that does not match its certificate and a missing certificate stop the start
    with exit status 2 and a message naming the file;
  - a real Prometheus scrapes it over mutual TLS with basic auth (target up, up == 1), and
    a job with a wrong password is down with 401.
Every process it started is stopped at the end, pass or fail.
"""

import argparse
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request

from exporter_process import Checks, Exporter, ReadyServer, free_port

# bcrypt (cost 10) of "s3cret": a hash, not a secret.
ALICE_HASH = "$2b$10$42hEDdJLmQyPP.vP5d1v9uTtJuEOcWymhLKEFj4VneoJwRc9hAckK"
METRIC = 'roce_port_state{device="mlx5_0",port="1"} 4'

check = Checks()
failures = check.failures


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, **kw)


class Pki:
    """A CA and certificates signed by it, made with the openssl command line."""

    def __init__(self, directory):
        self.dir = directory
        self.serial = 1000
        self.ca_crt, self.ca_key = self.path("ca.crt"), self.path("ca.key")
        self._ok(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                  "-nodes", "-keyout", self.ca_key, "-out", self.ca_crt, "-subj", "/CN=rocewatch test CA",
                  "-days", "2", "-addext", "basicConstraints=critical,CA:TRUE",
                  "-addext", "keyUsage=critical,keyCertSign,cRLSign"])

    def path(self, name):
        return os.path.join(self.dir, name)

    @staticmethod
    def _ok(argv):
        r = run(argv)
        if r.returncode != 0:
            raise RuntimeError(" ".join(argv) + " failed:\n" + r.stderr)

    def issue(self, name, cn, extensions, ca_crt=None, ca_key=None):
        """name.crt and name.key for `cn`, signed by the CA (or by ca_crt/ca_key)."""
        key, csr, crt, ext = (self.path(name + s) for s in (".key", ".csr", ".crt", ".ext"))
        with open(ext, "w") as f:
            f.write("\n".join(extensions) + "\n")
        self._ok(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                  "-keyout", key, "-out", csr, "-subj", "/CN=" + cn])
        self.serial += 1
        self._ok(["openssl", "x509", "-req", "-in", csr, "-CA", ca_crt or self.ca_crt, "-CAkey",
                  ca_key or self.ca_key, "-set_serial", str(self.serial), "-out", crt, "-days", "2",
                  "-extfile", ext])
        return crt, key

    def server(self, name, cn="127.0.0.1"):
        return self.issue(name, cn, ["subjectAltName=IP:127.0.0.1,DNS:localhost",
                                     "extendedKeyUsage=serverAuth", "basicConstraints=CA:FALSE"])

    def client(self, name, san):
        return self.issue(name, san, ["subjectAltName=DNS:" + san, "extendedKeyUsage=clientAuth",
                                      "basicConstraints=CA:FALSE"])


def curl(port, path="/metrics", *args, scheme="https"):
    """Runs curl against the exporter; returns (exit status, HTTP status, headers, body)."""
    fd, hdr = tempfile.mkstemp()
    os.close(fd)
    try:
        r = subprocess.run(["curl", "-sS", "--max-time", "15", "-D", hdr, "-o", "-", "-w", "\n%{http_code}",
                            *args, f"{scheme}://127.0.0.1:{port}{path}"],
                           capture_output=True, timeout=60)
        out = r.stdout.decode(errors="replace")
        body, _, code = out.rpartition("\n")
        with open(hdr, errors="replace") as f:
            headers = f.read()
        return r.returncode, int(code) if code.isdigit() else 0, headers, body
    finally:
        os.unlink(hdr)


def write_config(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def served_certificate(port):
    pem = ssl.get_server_certificate(("127.0.0.1", port))
    return ssl.PEM_cert_to_DER_cert(pem)


def der_of(crt):
    with open(crt) as f:
        return ssl.PEM_cert_to_DER_cert(f.read())


def basic_config(pki, crt, key, extra=""):
    return (f"tls_server_config:\n  cert_file: {crt}\n  key_file: {key}\n{extra}"
            "http_server_config:\n  headers:\n    Strict-Transport-Security: max-age=31536000\n"
            "    X-Content-Type-Options: nosniff\n"
            f"basic_auth_users:\n  alice: '{ALICE_HASH}'\n")


def test_tls_and_basic_auth(binary, fixture, pki):
    crt, key = pki.server("server")
    cfg = write_config(pki.path("web.yml"), basic_config(pki, "server.crt", "server.key"))
    ca = ["--cacert", pki.ca_crt]
    alice = ["-u", "alice:s3cret"]
    with Exporter(binary, ["--replay", fixture, "--web.config.file", cfg]) as exp:
        check("tls=true" in "".join(exp.log), "the listening line says tls=true: " + "".join(exp.log))
        rc, code, headers, body = curl(exp.port, "/metrics", *ca, *alice)
        check(rc == 0 and code == 200, f"HTTPS with the CA and the password: curl {rc}, HTTP {code}")
        check(METRIC in body, "HTTPS answer carries the fixture's metrics")
        check("roce_exporter_collections_total" in body, "HTTPS answer carries the exporter's own series")
        check("Strict-Transport-Security: max-age=31536000" in headers, "configured HSTS header sent")
        check("X-Content-Type-Options: nosniff" in headers, "configured X-Content-Type-Options header sent")

        rc, code, headers, body = curl(exp.port, "/metrics", *ca, *alice, "--compressed")
        check(code == 200 and "Content-Encoding: gzip" in headers and METRIC in body,
              f"gzip answer when asked: HTTP {code}")

        # Two requests on one connection (keep-alive).
        r = run(["curl", "-sS", "--max-time", "15", *ca, *alice, "-o", "/dev/null", "-o", "/dev/null",
                 "-w", "%{http_code} %{num_connects}\n",
                 f"https://127.0.0.1:{exp.port}/metrics", f"https://127.0.0.1:{exp.port}/"])
        check(r.stdout.split("\n")[:2] == ["200 1", "200 0"],
              "two requests over one kept-alive connection: " + repr(r.stdout) + r.stderr)

        for label, creds in (("wrong password", ["-u", "alice:wrong"]), ("unknown user", ["-u", "bob:s3cret"]),
                             ("no credentials", [])):
            rc, code, headers, body = curl(exp.port, "/metrics", *ca, *creds)
            check(code == 401, f"{label}: HTTP {code}, expected 401")
            check('WWW-Authenticate: Basic realm="roce_exporter"' in headers, f"{label}: WWW-Authenticate sent")
            check("roce_" not in body, f"{label}: no metrics in the answer")
        rc, code, _, body = curl(exp.port, "/", *ca)
        check(code == 401, f"the landing page needs credentials too: HTTP {code}")

        rc, code, _, body = curl(exp.port, "/metrics", *alice, scheme="http")
        check(code != 200 and "roce_" not in body,
              f"plain HTTP to the TLS port: curl {rc}, HTTP {code}, never metrics")
        check("HTTP request to an HTTPS server" in body or rc != 0,
              "plain HTTP to the TLS port is told to use HTTPS: " + body[:200])

        rc, code, _, body = curl(exp.port, "/metrics", *alice)  # the system CAs do not know ours
        check(rc == 60 and "roce_" not in body, f"a client that does not trust the CA fails: curl {rc}")

        rc, code, _, _ = curl(exp.port, "/metrics", *ca, *alice, "--tls-max", "1.2")
        check(code == 200, f"TLS 1.2 accepted by default (min_version TLS12): curl {rc}, HTTP {code}")

        rc, code, _, body = curl(exp.port, "/" + "a" * 100 * 1024, *ca, *alice)
        check(code != 200 and "roce_" not in body, f"100 KB request line refused: curl {rc}, HTTP {code}")
        check(code in (0, 414), f"100 KB request line: HTTP {code}, expected 414 or no answer")
        print(f"100 KB request line: curl {rc}, HTTP {code}", flush=True)
        for path in ("/../../etc/passwd", "/metrics/x", "/metrics/", "/favicon.ico"):
            rc, code, _, body = curl(exp.port, path, *ca, *alice, "--path-as-is")
            check(code == 404 and "root:" not in body and "roce_" not in body, f"{path}: HTTP {code}, expected 404")
        rc, code, headers, _ = curl(exp.port, "/metrics", *ca, *alice, "-X", "POST", "-d", "x=1")
        check(code == 405 and "Allow: GET, HEAD" in headers, f"POST: HTTP {code}, expected 405")
        rc, code, headers, _ = curl(exp.port, "/", *ca, *alice, "-I")
        check(code == 200 and "text/html" in headers, f"HEAD /: HTTP {code}")

        # Silent clients (TCP connected, or handshaked, and never a request) beyond the
        # connection limit (16 x --web.max-threads = 64) do not lock a scrape out.
        silent = [socket.create_connection(("127.0.0.1", exp.port)) for _ in range(70)]
        ctx = ssl.create_default_context(cafile=pki.ca_crt)
        for _ in range(10):
            try:
                silent.append(ctx.wrap_socket(socket.create_connection(("127.0.0.1", exp.port)),
                                              server_hostname="127.0.0.1"))
            except OSError:
                pass  # evicted by the ones after it: that is the point
        rc, code, _, body = curl(exp.port, "/metrics", *ca, *alice)
        check(code == 200 and METRIC in body, f"scrape while 80 silent connections are open: curl {rc}, HTTP {code}")
        for sock in silent:
            sock.close()

        # Rotation: new key and certificate written over the old ones, no restart.
        before = served_certificate(exp.port)
        check(before == der_of(crt), "the configured certificate is served")
        new_crt, new_key = pki.server("rotated")
        shutil.copy(new_key, key)
        shutil.copy(new_crt, crt)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and served_certificate(exp.port) != der_of(new_crt):
            time.sleep(0.3)
        check(served_certificate(exp.port) == der_of(new_crt), "the rotated certificate is served without a restart")
        rc, code, _, body = curl(exp.port, "/metrics", *ca, *alice)
        check(code == 200 and METRIC in body, f"scrape after rotation: HTTP {code}")
        check(exp.proc.poll() is None, "the exporter is still running")


def test_tls13_only(binary, fixture, pki):
    pki.server("server13")
    cfg = write_config(pki.path("web13.yml"),
                       basic_config(pki, "server13.crt", "server13.key", "  min_version: TLS13\n"))
    with Exporter(binary, ["--replay", fixture, "--web.config.file", cfg]) as exp:
        rc, code, _, body = curl(exp.port, "/metrics", "--cacert", pki.ca_crt, "-u", "alice:s3cret",
                                 "--tlsv1.2", "--tls-max", "1.2")
        check(rc != 0 and code != 200 and "roce_" not in body,
              f"TLS 1.2 refused with min_version TLS13: curl {rc}, HTTP {code}")
        rc, code, _, _ = curl(exp.port, "/metrics", "--cacert", pki.ca_crt, "-u", "alice:s3cret", "--tlsv1.3")
        check(code == 200, f"TLS 1.3 accepted: curl {rc}, HTTP {code}")


def test_client_certificates(binary, fixture, pki):
    pki.server("servermtls")
    client_crt, client_key = pki.client("client", "prometheus")
    other_crt, other_key = pki.client("grafana", "grafana")
    # A certificate from another CA, for the same name.
    rogue_ca = Pki(os.path.join(pki.dir, "rogue"))
    rogue_crt, rogue_key = rogue_ca.client("rogue", "prometheus")
    ca = ["--cacert", pki.ca_crt]
    mtls = ("  client_auth_type: RequireAndVerifyClientCert\n"
            f"  client_ca_file: {pki.ca_crt}\n")
    cfg = write_config(pki.path("webmtls.yml"), basic_config(pki, "servermtls.crt", "servermtls.key", mtls))
    with Exporter(binary, ["--replay", fixture, "--web.config.file", cfg]) as exp:
        for tls in ("1.2", "1.3"):
            rc, code, _, body = curl(exp.port, "/metrics", *ca, "-u", "alice:s3cret", "--tls-max", tls)
            check(rc != 0 and "roce_" not in body, f"TLS {tls}, no client certificate: curl {rc} must fail")
            rc, code, _, body = curl(exp.port, "/metrics", *ca, "-u", "alice:s3cret", "--tls-max", tls,
                                     "--cert", rogue_crt, "--key", rogue_key)
            check(rc != 0 and "roce_" not in body, f"TLS {tls}, client certificate of another CA: curl {rc} must fail")
            rc, code, _, body = curl(exp.port, "/metrics", *ca, "-u", "alice:s3cret", "--tls-max", tls,
                                     "--cert", client_crt, "--key", client_key)
            check(code == 200 and METRIC in body, f"TLS {tls}, the CA's client certificate: curl {rc}, HTTP {code}")
        rc, code, _, _ = curl(exp.port, "/metrics", *ca, "--cert", client_crt, "--key", client_key)
        check(code == 401, f"client certificate without the password: HTTP {code}, expected 401")
        prometheus_test(exp.port, pki, client_crt, client_key)

    cfg = write_config(pki.path("websans.yml"),
                       basic_config(pki, "servermtls.crt", "servermtls.key", mtls + "  client_allowed_sans: [prometheus]\n"))
    with Exporter(binary, ["--replay", fixture, "--web.config.file", cfg]) as exp:
        rc, code, _, _ = curl(exp.port, "/metrics", *ca, "-u", "alice:s3cret", "--cert", client_crt, "--key", client_key)
        check(code == 200, f"client_allowed_sans, allowed SAN: curl {rc}, HTTP {code}")
        rc, code, _, body = curl(exp.port, "/metrics", *ca, "-u", "alice:s3cret", "--cert", other_crt, "--key", other_key)
        check(rc != 0 and "roce_" not in body, f"client_allowed_sans, another SAN: curl {rc} must fail")


def prometheus_test(exporter_port, pki, client_crt, client_key):
    prometheus = shutil.which("prometheus")
    if not check(prometheus is not None, "prometheus is installed (scripts/install-deps.sh)"):
        return
    port = free_port()
    data = os.path.join(pki.dir, "tsdb")
    job = lambda name, password: (  # noqa: E731
        f"  - job_name: {name}\n    scheme: https\n"
        f"    tls_config:\n      ca_file: {pki.ca_crt}\n      cert_file: {client_crt}\n      key_file: {client_key}\n"
        f"    basic_auth:\n      username: alice\n      password: {password}\n"
        f"    static_configs:\n      - targets: ['127.0.0.1:{exporter_port}']\n")
    cfg = write_config(pki.path("prometheus.yml"),
                       "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n" +
                       job("roce", "s3cret") + job("roce_wrong_password", "wrong"))
    prom = ReadyServer([prometheus, f"--config.file={cfg}", f"--storage.tsdb.path={data}",
                        f"--web.listen-address=127.0.0.1:{port}"], port, "/-/ready", what="Prometheus")
    try:
        targets = {}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/targets", timeout=5) as r:
                    doc = json.load(r)
                targets = {t["labels"]["job"]: t for t in doc["data"]["activeTargets"]}
                if targets.get("roce", {}).get("health") == "up" and \
                        targets.get("roce_wrong_password", {}).get("health") == "down":
                    break
            except (OSError, ValueError):
                pass
            if prom.proc.poll() is not None:
                break
            time.sleep(0.5)
        roce = targets.get("roce", {})
        check(roce.get("health") == "up", "Prometheus scrapes over mutual TLS with basic auth: " + json.dumps(roce))
        wrong = targets.get("roce_wrong_password", {})
        check(wrong.get("health") == "down" and "401" in wrong.get("lastError", ""),
              "Prometheus with a wrong password is refused with 401: " + json.dumps(wrong))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/query?query=up%7Bjob%3D%22roce%22%7D",
                                    timeout=5) as r:
            result = json.load(r)["data"]["result"]
        check(len(result) == 1 and result[0]["value"][1] == "1", "up{job=\"roce\"} == 1: " + json.dumps(result))
        print(f"prometheus: job roce {roce.get('health')}, job roce_wrong_password {wrong.get('health')} "
              f"({wrong.get('lastError', '')})", flush=True)
    finally:
        log = prom.whole_log()
        if failures:
            print("prometheus log (tail):\n" + "".join(log.splitlines(True)[-20:]))


def test_startup_errors(binary, fixture, pki):
    pki.server("mismatch")
    other_crt, other_key = pki.server("mismatch2")
    cfg = write_config(pki.path("webbad.yml"),
                       f"tls_server_config:\n  cert_file: mismatch.crt\n  key_file: {other_key}\n")
    r = run([binary, "--replay", fixture, "--web.listen-address=127.0.0.1:0", f"--web.config.file={cfg}"])
    check(r.returncode == 2, f"key not matching the certificate: exit {r.returncode}, expected 2")
    check(f"{other_key} does not match the certificate in tls_server_config.cert_file" in r.stderr,
          "key mismatch message: " + r.stderr)
    cfg = write_config(pki.path("webmissing.yml"), "tls_server_config:\n  cert_file: nope.crt\n  key_file: x.key\n")
    r = run([binary, "--replay", fixture, "--web.listen-address=127.0.0.1:0", f"--web.config.file={cfg}"])
    check(r.returncode == 2, f"missing certificate: exit {r.returncode}, expected 2")
    check(pki.path("nope.crt") + ": cannot read the certificate: No such file or directory" in r.stderr,
          "missing certificate message: " + r.stderr)
    cfg = write_config(pki.path("webtypo.yml"), "tls_server_config:\n  cert_fil: a\n")
    r = run([binary, "--replay", fixture, "--web.listen-address=127.0.0.1:0", f"--web.config.file={cfg}"])
    check(r.returncode == 2 and 'unknown key "cert_fil" in tls_server_config (did you mean "cert_file"?)' in r.stderr,
          f"unknown key: exit {r.returncode}: {r.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--fixture", required=True)
    args = ap.parse_args()
    for tool in ("curl", "openssl"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} must be installed (scripts/install-deps.sh)")
    with tempfile.TemporaryDirectory(prefix="rocewatch-tls-") as tmp:
        os.makedirs(os.path.join(tmp, "rogue"))
        pki = Pki(tmp)
        for test in (test_tls_and_basic_auth, test_tls13_only, test_client_certificates, test_startup_errors):
            print("==", test.__name__, flush=True)
            test(args.exporter, args.fixture, pki)
    print(f"{len(failures)} failure(s)" if failures else "all TLS and auth checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
