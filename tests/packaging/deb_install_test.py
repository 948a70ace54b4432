#!/usr/bin/env python3
"""The Debian packages in a fresh Debian 12 root (needs root; exit 77 = skipped otherwise).

1. packaging/build-deb.sh builds roce-exporter and roce-lint (CI's Release build with
   dpkg-buildflags); lintian reports no error (its warnings are printed);
2. a Debian 12 root made by `mmdebstrap --variant=apt bookworm` (cached as a tarball in
   --cache between local runs; made afresh where absent, as on a CI machine) gets both with one
   `apt-get install ./roce-exporter_….deb ./roce-lint_….deb`, so the runtime libraries come from
   the packages' Depends (shlibdeps) and nothing else;
3. in the root: every packaged file is there, both binaries answer --version, the system user
   and /etc/roce_exporter (0750 root:roce_exporter) exist, the man pages name the capability,
   `systemd-analyze verify` accepts both units, and roce_exporter, started as the package's user
   on a replayed capture, serves /metrics;
4. `dpkg --purge` of both leaves none of their files behind.
Everything runs in a private mount namespace (unshare -m), so the root's /proc and /dev mounts
vanish with the test, whatever way it ends.
"""

import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

SKIP = 77


def run(cmd, timeout=600, check=True, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if check and p.returncode != 0:
        raise RuntimeError(f"{cmd} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


class Root:
    def __init__(self, path):
        self.path = path

    def sh(self, script, timeout=600, check=True):
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive",
               "LC_ALL": "C.UTF-8", "HOME": "/root"}
        return run(["chroot", str(self.path), "/bin/sh", "-ec", script], timeout=timeout, check=check, env=env)

    def files(self):
        out = set()
        for dirpath, dirnames, filenames in os.walk(self.path):
            rel = "/" + os.path.relpath(dirpath, self.path)
            if rel.startswith(("/proc", "/dev", "/sys", "/run", "/tmp", "/var/cache", "/var/log",
                               "/var/lib/apt", "/var/lib/dpkg")):
                continue
            for name in dirnames + filenames:
                out.add(os.path.normpath(os.path.join(rel, name)))
        return out


def make_root_tarball(cache):
    tarball = cache / "bookworm.tar"
    if tarball.exists():
        print(f"== Debian 12 root: cached {tarball}")
        return tarball
    cache.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    partial = cache / "bookworm.partial.tar"
    run(["mmdebstrap", "--variant=apt", "--include=ca-certificates", "bookworm", str(partial)], timeout=900)
    partial.rename(tarball)
    print(f"== Debian 12 root: mmdebstrap made {tarball} in {time.monotonic() - started:.0f} s")
    return tarball


def ansible_role(root, names, source, check):
    """deploy/ansible's role into the root over Ansible's chroot connection: --check first
    changes nothing; then it installs the .deb and writes the flags; a second run changes
    nothing; with roce-lint fix scripts, a failing precheck stops the host before any setting
    task runs."""
    if not shutil.which("ansible-playbook"):
        check(False, "ansible-playbook is missing: scripts/install-deps.sh installs it")
        return
    root.sh("apt-get install -y -qq --no-install-recommends python3", timeout=600)
    work = pathlib.Path(tempfile.mkdtemp(prefix="pkg-ansible-"))
    try:
        lint_dir = work / "lint-deb"
        run(["dpkg-deb", "-x", str(names["roce-lint"]), str(lint_dir)])
        run([str(lint_dir / "usr/bin/roce-lint"), "fix", str(source / "examples/demo/plan.json"),
             "--node", "gpu-01", "--output-dir", str(work / "roce")])
        (work / "inventory").write_text(
            f"pkgnode ansible_connection=community.general.chroot ansible_host={root.path} "
            "ansible_python_interpreter=/usr/bin/python3\n")
        play = work / "play.yml"
        play.write_text(
            "- hosts: pkgnode\n  gather_facts: false\n  roles:\n    - role: rocewatch_exporter\n"
            "      vars:\n"
            f"        rocewatch_exporter_deb: {names['roce-exporter']}\n"
            "        rocewatch_exporter_args: --web.listen-address=127.0.0.1:9879 --no-collector.ecn\n"
            "        rocewatch_exporter_start: false\n"
            "        rocewatch_roce_scripts_dir: \"{{ roce_dir | default('') }}\"\n"
            "        rocewatch_roce_node: gpu-01\n"
            "        rocewatch_roce_apply: true\n")
        env = dict(os.environ, ANSIBLE_ROLES_PATH=str(source / "deploy/ansible/roles"),
                   ANSIBLE_NOCOLOR="1", ANSIBLE_HOST_KEY_CHECKING="0", ANSIBLE_RETRY_FILES_ENABLED="0",
                   ANSIBLE_LOCAL_TEMP=str(work / "tmp"))

        def playbook(*extra):
            return run(["ansible-playbook", "-i", str(work / "inventory"), str(play), *extra],
                       env=env, check=False, timeout=600)

        def recap(p):
            m = re.search(r"pkgnode\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", p.stdout)
            return tuple(map(int, m.groups())) if m else None

        dry = playbook("--check", "--diff")
        check(dry.returncode == 0 and recap(dry) and recap(dry)[1] > 0,
              f"ansible --check: rc {dry.returncode}\n{dry.stdout[-3000:]}")
        check(not (root.path / "usr/bin/roce_exporter").exists()
              and not (root.path / "etc/default/roce_exporter").exists(), "ansible --check changed the root")
        real = playbook()
        check(real.returncode == 0, f"ansible run: rc {real.returncode}\n{real.stdout[-3000:]}")
        flags = (root.path / "etc/default/roce_exporter").read_text() if real.returncode == 0 else ""
        check('ROCE_EXPORTER_ARGS="--web.listen-address=127.0.0.1:9879 --no-collector.ecn"' in flags,
              f"/etc/default/roce_exporter after the role: {flags!r}")
        v = root.sh("roce_exporter --version", check=False)
        check(v.returncode == 0, f"roce_exporter after the role: {v.stdout} {v.stderr}")
        again = playbook()
        check(again.returncode == 0 and recap(again) and recap(again)[1] == 0,
              f"second ansible run is not idempotent:\n{again.stdout[-3000:]}")
        # No RoCE NIC, dcb or ethtool in the root: the precheck fails and gates every change.
        fix = playbook("-e", f"roce_dir={work / 'roce'}")
        check(fix.returncode != 0 and "RoCE precheck" in fix.stdout
              and "RoCE settings" not in fix.stdout,
              f"a failing precheck did not stop the host first:\n{fix.stdout[-3000:]}")
        print("== ansible precheck output:", re.findall(r"FAILED[^\n]*|precheck[^\n]*failed[^\n]*", fix.stdout)[:3])
        root.sh("dpkg --purge roce-exporter")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True, help="repository root")
    ap.add_argument("--out", required=True, help="where the packages are built")
    ap.add_argument("--cache", required=True, help="where the root tarball is kept")
    ap.add_argument("--fixture", required=True, help="a capture to replay in the root")
    ap.add_argument("--debs", help="use the .deb files already in this directory (no build)")
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("SKIPPED: the package install test needs root (chroot, mounts, dpkg in a Debian root)")
        return SKIP
    for tool in ("mmdebstrap", "dpkg-buildpackage", "lintian", "help2man", "unshare"):
        if not shutil.which(tool):
            print(f"FAIL: {tool} is missing: scripts/install-deps.sh installs it")
            return 1
    if os.environ.get("PKG_DEB_TEST_NS") != "1":
        env = dict(os.environ, PKG_DEB_TEST_NS="1")
        os.execvpe("unshare", ["unshare", "--mount", "--propagation", "private", sys.executable,
                               *sys.argv], env)

    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    started = time.monotonic()
    if args.debs:
        debs = sorted(p.resolve() for p in pathlib.Path(args.debs).glob("*.deb"))
    else:
        built = run([str(pathlib.Path(args.source) / "packaging" / "build-deb.sh")],
                    env=dict(os.environ, OUT=args.out), timeout=1800)
        debs = sorted(pathlib.Path(p) for p in built.stdout.split())
    print(f"== built {[d.name for d in debs]} in {time.monotonic() - started:.0f} s")
    names = {d.name.split("_")[0]: d for d in debs}
    if set(names) != {"roce-exporter", "roce-lint"}:
        print(f"FAIL: build-deb.sh gave {debs}")
        return 1

    lint = run(["lintian", "--fail-on", "error", "--no-tag-display-limit", *map(str, debs)], check=False)
    print("== lintian:\n" + (lint.stdout.strip() or "(nothing)"))
    check(lint.returncode == 0, f"lintian reports errors:\n{lint.stdout}{lint.stderr}")

    packaged = {}
    for name, deb in names.items():
        contents = run(["dpkg-deb", "-c", str(deb)]).stdout
        packaged[name] = [re.split(r"\s+", line, maxsplit=5)[5].split(" -> ")[0].lstrip(".")
                          for line in contents.splitlines()]
        packaged[name] = [p.rstrip("/") for p in packaged[name] if p.rstrip("/")]

    want = {
        "roce-exporter": ["/usr/bin/roce_exporter", "/lib/systemd/system/roce_exporter.service",
                          "/usr/lib/sysusers.d/roce_exporter.conf", "/usr/lib/tmpfiles.d/roce_exporter.conf",
                          "/etc/default/roce_exporter", "/usr/share/man/man1/roce_exporter.1.gz",
                          "/usr/share/doc/roce-exporter/copyright"],
        "roce-lint": ["/usr/bin/roce-lint", "/lib/systemd/system/roce-lint.service", "/etc/default/roce-lint",
                      "/usr/share/man/man1/roce-lint.1.gz", "/usr/share/doc/roce-lint/examples/plan.json",
                      "/usr/share/rocewatch/prometheus/rocewatch-rules.yml",
                      "/usr/share/rocewatch/grafana/rocewatch-nic-detail.json"],
    }
    for name, paths in want.items():
        for p in paths:
            check(p in packaged[name], f"{name} does not ship {p} (ships {packaged[name]})")

    cache = pathlib.Path(args.cache)
    tarball = make_root_tarball(cache)
    with tempfile.TemporaryDirectory(prefix="pkg-root-", dir=str(cache)) as tmp:
        root = Root(pathlib.Path(tmp) / "root")
        root.path.mkdir()
        with tarfile.open(tarball) as t:
            t.extractall(root.path, numeric_owner=True)
        shutil.copy("/etc/resolv.conf", root.path / "etc" / "resolv.conf")
        run(["mount", "-t", "proc", "proc", str(root.path / "proc")])
        run(["mount", "--rbind", "/dev", str(root.path / "dev")])
        (root.path / "pkg").mkdir()
        for d in debs:
            shutil.copy(d, root.path / "pkg" / d.name)
        shutil.copytree(args.fixture, root.path / "pkg" / "fixture", symlinks=True)
        # Services are not started in a chroot (no systemd runs there); say so explicitly.
        (root.path / "usr/sbin/policy-rc.d").write_text("#!/bin/sh\nexit 101\n")
        os.chmod(root.path / "usr/sbin/policy-rc.d", 0o755)
        t0 = time.monotonic()
        root.sh("apt-get update -qq && apt-get install -y -qq --no-install-recommends "
                + " ".join(f"./pkg/{d.name}" for d in debs), timeout=900)
        print(f"== apt-get install ./… in the root: {time.monotonic() - t0:.0f} s")
        installed = root.files()
        for name, paths in packaged.items():
            for p in paths:
                check(p in installed or os.path.lexists(str(root.path) + p), f"{p} of {name} is not installed")
        for binary, name in (("roce_exporter", "roce_exporter"), ("roce-lint", "roce-lint")):
            v = root.sh(f"{binary} --version", check=False)
            check(v.returncode == 0 and v.stdout.startswith(name + " 0.1.0"),
                  f"{binary} --version: {v.returncode} {v.stdout!r} {v.stderr!r}")
            print(f"== {v.stdout.strip()}")
        ldd = root.sh("ldd /usr/bin/roce_exporter /usr/bin/roce-lint")
        check("not found" not in ldd.stdout, f"unresolved libraries:\n{ldd.stdout}")
        ident = root.sh("getent passwd roce_exporter; stat -c '%a %U %G' /etc/roce_exporter", check=False)
        check(ident.returncode == 0 and ident.stdout.splitlines()[-1:] == ["750 root roce_exporter"],
              f"user or /etc/roce_exporter: {ident.stdout!r} {ident.stderr!r}")
        man = root.sh("zcat /usr/share/man/man1/roce_exporter.1.gz")
        check("CAPABILITIES" in man.stdout and "CAP_NET_ADMIN" in man.stdout and "listen" in man.stdout,
              "the man page lacks the capability section or the flags")
        # systemd is not a dependency of the packages; install it for systemd-analyze.
        root.sh("command -v systemd-analyze >/dev/null || "
                "apt-get install -y -qq --no-install-recommends systemd", timeout=600)
        verify = root.sh("systemd-analyze verify --man=no /lib/systemd/system/roce_exporter.service "
                         "/lib/systemd/system/roce-lint.service 2>&1", check=False)
        print("== systemd-analyze verify:\n" + (verify.stdout.strip() or "(clean)"))
        check(verify.returncode == 0, f"systemd-analyze verify failed:\n{verify.stdout}")
        check(not re.search(r"roce[_-]\w*\.service:\d+:", verify.stdout),
              f"systemd-analyze names lines of our units:\n{verify.stdout}")
        scrape = root.sh(
            "setpriv --reuid=roce_exporter --regid=roce_exporter --clear-groups "
            "roce_exporter --replay /pkg/fixture --web.listen-address=127.0.0.1:0 2>/tmp/log & pid=$!; "
            "for i in $(seq 50); do port=$(sed -n 's/.*msg=listening address=[0-9.]*:\\([0-9]*\\).*/\\1/p' /tmp/log);"
            " [ -n \"$port\" ] && break; sleep 0.2; done; "
            "perl -e 'use IO::Socket::INET; my $s=IO::Socket::INET->new(\"127.0.0.1:'$port'\") or die;"
            " print $s \"GET /metrics HTTP/1.0\\r\\n\\r\\n\"; print while <$s>;'; kill $pid", check=False)
        check("roce_port_info{" in scrape.stdout,
              f"the packaged exporter did not serve the replay as roce_exporter:\n{scrape.stdout[-2000:]}"
              f"{scrape.stderr[-2000:]}")
        root.sh("dpkg --purge roce-exporter roce-lint")
        after = root.files()
        left = sorted(p for ps in packaged.values() for p in ps
                      if p in after and not os.path.isdir(str(root.path) + p))
        left += sorted(p for p in after - installed if "roce" in p)
        for p in ("/etc/roce_exporter", "/etc/default/roce_exporter", "/etc/default/roce-lint",
                  "/usr/share/rocewatch"):
            if os.path.lexists(str(root.path) + p):
                left.append(p)
        check(left == [], f"dpkg --purge left {left}")
        t0 = time.monotonic()
        ansible_role(root, names, pathlib.Path(args.source), check)
        print(f"== Ansible role into the purged root: {time.monotonic() - t0:.0f} s")
        run(["umount", "-R", str(root.path / "dev")], check=False)
        run(["umount", str(root.path / "proc")], check=False)
    for f in failures:
        print("FAIL:", f)
    print(f"{'FAILED' if failures else 'OK'} in {time.monotonic() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
