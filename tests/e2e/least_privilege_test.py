#!/usr/bin/env python3
"""Least privilege, against the running kernel: the real roce_exporter as an unprivileged user.

As root, creates a network namespace with a veth pair and starts roce_exporter in it with
`setpriv` as nobody:nogroup, no supplementary groups, no capabilities (inheritable,
ambient and bounding sets empty) and no_new_privs, and scrapes it:
  - the process really runs as nobody with no capability (/proc/PID/status);
  - the netdev and ethtool collectors serve the veths (no privilege needed);
  - the optics collector reports the module EEPROM unavailable (EPERM: it needs
    CAP_NET_ADMIN) without failing: roce_module_read_success 0,
    roce_exporter_unavailable_values{collector="optics"} counts both veths, every
    collector reports success 1, and the log says what is missing;
then again with CAP_NET_ADMIN as its only capability (ambient, as the systemd unit in
packaging/ gives it): the EPERM is gone (a veth then answers EOPNOTSUPP, "no module
interface", which is a successful read).

Before that, as any user: packaging/systemd/roce_exporter.service grants exactly what was
tested (CAP_NET_ADMIN, ambient and bounding, no_new_privs, a dedicated user) and passes
`systemd-analyze verify` (with ExecStart pointed at the binary under test).

Exits 77 (skipped) with the reason when not root or when namespaces cannot be made here
(after the unit checks, which fail the test whatever the user).
The namespace is deleted at the end, pass or fail.
"""

import argparse
import grp
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time

from exporter_process import Checks, ChildServer

SKIP = 77
CAP_NET_ADMIN = 1 << 12

check = Checks()
failures = check.failures


def skip(why):
    if failures:
        print(f"{len(failures)} failure(s) before: {why}")
        sys.exit(1)
    print("skipped:", why)
    sys.exit(SKIP)


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=30)


def value(text, series):
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return None


def status_fields(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            out[key] = rest.strip()
    return out


class Unprivileged(ChildServer):
    """roce_exporter started in `ns` through setpriv with `caps` (e.g. [] or ["net_admin"])."""

    def __init__(self, ns, binary, caps, args):
        inh = ",".join(["-all"] + ["+" + c for c in caps])
        argv = ["ip", "netns", "exec", ns, "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                "--no-new-privs", f"--inh-caps={inh}", f"--bounding-set={inh}"]
        if caps:
            argv.append("--ambient-caps=" + ",".join("+" + c for c in caps))
        argv += [binary, *args]
        self.ns = ns
        super().__init__(argv, timeout=20, what="exporter")

    def scrape(self):
        r = run(["ip", "netns", "exec", self.ns, "curl", "-sS", "--max-time", "20", "-w", "\n%{http_code}",
                 f"http://127.0.0.1:{self.port}/metrics"])
        body, _, code = r.stdout.rpartition("\n")
        return int(code) if code.isdigit() else 0, body

    def more_log(self, seconds=1.0):
        """Log lines written since start (the optics warning comes with the first scrape)."""
        os.set_blocking(self.proc.stderr.fileno(), False)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if line:
                self.log.append(line)
            else:
                time.sleep(0.05)
        return "".join(self.log)

def common_checks(label, body):
    for n in ("lpv0", "lpv1"):
        check(value(body, f'roce_netdev_operstate{{netdev="{n}"}}') == 1, f"{label}: netdev collector serves {n}")
        check(value(body, f'roce_netdev_mtu_bytes{{netdev="{n}"}}') == 1500, f"{label}: {n} MTU 1500")
        check(f'roce_ethtool_driver_info{{netdev="{n}",driver="veth",' in body,
              f"{label}: ethtool collector serves {n} (driver veth)")
        check(value(body, f'roce_ethtool_link_speed_bytes_per_second{{netdev="{n}"}}') == 1.25e9,
              f"{label}: ethtool link speed of {n}")
    for line in body.splitlines():
        if line.startswith("roce_exporter_collector_success{"):
            check(line.endswith(" 1"), f"{label}: every collector succeeds: {line}")


def unit_directives(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith(("#", ";", "[")) or "=" not in line:
                continue
            key, _, val = line.partition("=")
            out.setdefault(key, []).append(val)
    return out


def check_unit(unit, binary):
    d = unit_directives(unit)
    one = lambda key: d.get(key, [None])[-1]  # noqa: E731
    check(one("AmbientCapabilities") == "CAP_NET_ADMIN", "unit: AmbientCapabilities=CAP_NET_ADMIN")
    check(one("CapabilityBoundingSet") == "CAP_NET_ADMIN", "unit: CapabilityBoundingSet=CAP_NET_ADMIN")
    check(one("NoNewPrivileges") == "yes", "unit: NoNewPrivileges=yes")
    check(one("User") not in (None, "root", "0") or one("DynamicUser") == "yes", "unit: a dedicated user")
    for key, want in (("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
                      ("ProtectKernelModules", "yes"), ("MemoryDenyWriteExecute", "yes"),
                      ("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6 AF_NETLINK"),
                      ("PrivateUsers", "no"), ("PrivateDevices", "no")):
        check(one(key) == want, f"unit: {key}={want} (found {one(key)})")
    check("@system-service" in d.get("SystemCallFilter", []), "unit: SystemCallFilter=@system-service")
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        print("systemd-analyze not installed: unit not verified")
        return
    with open(unit) as f:
        text = f.read()
    with tempfile.TemporaryDirectory(prefix="rocewatch-unit-") as tmp:
        copy = os.path.join(tmp, "roce_exporter.service")
        with open(copy, "w") as f:
            f.write(text.replace("/usr/local/bin/roce_exporter", binary))
        r = run([analyze, "verify", copy])
        check(r.returncode == 0 and not r.stderr.strip() and not r.stdout.strip(),
              f"systemd-analyze verify: exit {r.returncode}: {r.stdout}{r.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exporter", required=True)
    ap.add_argument("--unit", help="packaging/systemd/roce_exporter.service, checked first")
    args = ap.parse_args()
    if args.unit:
        check_unit(args.unit, os.path.abspath(args.exporter))
    if os.geteuid() != 0:
        skip("needs root to create a network namespace and to drop to nobody")
    for tool in ("ip", "setpriv", "curl"):
        if shutil.which(tool) is None:
            skip(f"{tool} is not installed (scripts/install-deps.sh)")
    try:
        pwd.getpwnam("nobody")
        grp.getgrnam("nogroup")
    except KeyError:
        skip("no user nobody or group nogroup here")
    binary = os.path.abspath(args.exporter)
    probe = run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "test", "-x", binary])
    if probe.returncode != 0:
        skip(f"{binary} is not executable by nobody (a build directory nobody can reach is needed)")

    ns = f"rwlp{os.getpid()}"
    made = run(["ip", "netns", "add", ns])
    if made.returncode != 0:
        skip("cannot create a network namespace here: " + made.stderr.strip())
    try:
        for cmd in (["link", "set", "lo", "up"], ["link", "add", "lpv0", "type", "veth", "peer", "name", "lpv1"],
                    ["link", "set", "lpv0", "up"], ["link", "set", "lpv1", "up"]):
            r = run(["ip", "-n", ns, *cmd])
            if r.returncode != 0:
                raise RuntimeError("ip -n " + ns + " " + " ".join(cmd) + ": " + r.stderr)
        exporter_args = ["--netdev-include=^lpv", "--web.listen-address=127.0.0.1:0"]

        print("== unprivileged: nobody, no capabilities", flush=True)
        with Unprivileged(ns, binary, [], exporter_args) as exp:
            st = status_fields(exp.proc.pid)
            check(st.get("Uid", "").split()[:2] == ["65534", "65534"], "runs as nobody: Uid " + st.get("Uid", "?"))
            check(int(st.get("CapEff", "1"), 16) == 0 and int(st.get("CapBnd", "1"), 16) == 0,
                  f"no capability: CapEff {st.get('CapEff')} CapBnd {st.get('CapBnd')}")
            check(st.get("NoNewPrivs") == "1", "no_new_privs is set")
            code, body = exp.scrape()
            check(code == 200, f"the scrape succeeds: HTTP {code}")
            common_checks("unprivileged", body)
            for n in ("lpv0", "lpv1"):
                check(value(body, f'roce_module_read_success{{netdev="{n}"}}') == 0,
                      f"unprivileged: optics of {n} not read (roce_module_read_success 0)")
            check(value(body, 'roce_exporter_unavailable_values{collector="optics"}') == 2,
                  "unprivileged: the optics collector counts both modules unavailable")
            check(value(body, 'roce_exporter_collector_success{collector="optics"}') == 1,
                  "unprivileged: a missing privilege is not a collector failure")
            log = exp.more_log()
            check("needs CAP_NET_ADMIN" in log and "EPERM" in log,
                  "unprivileged: the log names the missing capability and the EPERM:\n" + log)

        print("== nobody with CAP_NET_ADMIN only (ambient)", flush=True)
        with Unprivileged(ns, binary, ["net_admin"], exporter_args) as exp:
            st = status_fields(exp.proc.pid)
            check(st.get("Uid", "").split()[:2] == ["65534", "65534"], "runs as nobody: Uid " + st.get("Uid", "?"))
            check(int(st.get("CapEff", "0"), 16) == CAP_NET_ADMIN and int(st.get("CapBnd", "0"), 16) == CAP_NET_ADMIN,
                  f"CAP_NET_ADMIN only: CapEff {st.get('CapEff')} CapBnd {st.get('CapBnd')}")
            code, body = exp.scrape()
            check(code == 200, f"the scrape succeeds: HTTP {code}")
            common_checks("CAP_NET_ADMIN", body)
            for n in ("lpv0", "lpv1"):
                check(value(body, f'roce_module_read_success{{netdev="{n}"}}') == 1,
                      f"CAP_NET_ADMIN: the module read of {n} completes (veth: no module interface)")
            check(value(body, 'roce_exporter_unavailable_values{collector="optics"}') == 0,
                  "CAP_NET_ADMIN: nothing unavailable any more")
            log = exp.more_log()
            check("EPERM" not in log, "CAP_NET_ADMIN: no EPERM in the log:\n" + log)
    finally:
        r = run(["ip", "netns", "del", ns])
        if r.returncode != 0:
            print(f"warning: ip netns del {ns}: {r.stderr.strip()}")
    print(f"{len(failures)} failure(s)" if failures else "least privilege checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
