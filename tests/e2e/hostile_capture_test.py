#!/usr/bin/env python3
"""A hostile capture against the real binary (issue 13 items 2 and 6). A capture is a
bug-report attachment; this one is a copy of a fixture with links out of it:

  fw_ver    -> /proc/self/environ           (the exporter's environment, a secret in it)
  board_id  -> /etc/passwd
  hw_counters/np_cnp_sent -> ../../../…/secret-counter   (relative, climbing out)
  mlx5_1's hw_counters    -> ../../…/outside             (a directory link out of the tree)
  kernel/ethtool/<netdev>/drvinfo -> <absolute path of a secret file>

served with --replay and scraped over HTTP: no byte of any target is served, the refused
paths are counted (roce_exporter_refused_paths_total, and as unavailable values of the rdma
collector), the page is promtool-clean; `capture --replay` of it writes no link that leaves
its tree and says that it refused them. A capture whose sys/ is a link to the host's /sys is
refused at start. Then item 6: a hw_counters file named b"bad\\xff\\xfe" and a firmware string
with invalid UTF-8 and NUL are served as valid UTF-8 (U+FFFD), counted, and promtool is clean.
"""

import os
import shutil
import subprocess
import sys
import tempfile

from exporter_process import Exporter

TOKEN = "ROCEWATCH-HOSTILE-7f3a91"  # in the exporter's environment and in the secret files
SECRET_COUNTER = "918273645546372"


def value(text, series):
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return None


def scrape(binary, replay, env):
    with Exporter(binary, ["--replay", replay, "--web.coalesce-window=0"], env=env) as exp:
        status, body = exp.get("/metrics")
        status2, body2 = exp.get("/metrics")  # held descriptors and retries: the second scrape too
        exp.stop()
        log = "".join(exp.log) + exp.proc.stderr.read()
        return status, body, status2, body2, log


def promtool_check(body, failures, what):
    promtool = shutil.which("promtool")
    if promtool is None:
        failures.append("promtool not found (install the 'prometheus' package)")
        return
    res = subprocess.run([promtool, "check", "metrics"], input=body.encode(), capture_output=True)
    if res.returncode != 0:
        failures.append(f"{what}: promtool check metrics: {res.stdout.decode(errors='replace')}"
                        f"{res.stderr.decode(errors='replace')}")


def relink(path, target):
    real = os.path.realpath(path)
    if os.path.isdir(real) and not os.path.islink(real):
        shutil.rmtree(real)
    else:
        os.remove(real)
    os.symlink(target, real)
    return real


def links_leaving(root):
    """Symlinks under each tree of a capture whose target is absolute or climbs out of the tree."""
    bad = []
    for tree in ("sys", "configfs", "debugfs", "kernel"):
        top = os.path.join(root, tree)
        for d, dirs, files in os.walk(top):
            for n in dirs + files:
                p = os.path.join(d, n)
                if not os.path.islink(p):
                    continue
                t = os.readlink(p)
                full = os.path.normpath(os.path.join(d, t))
                if t.startswith("/") or not (full + "/").startswith(top + "/"):
                    bad.append(f"{p} -> {t}")
    return bad


def files_containing(root, needles):
    hits = []
    for d, _, files in os.walk(root):
        for n in files:
            p = os.path.join(d, n)
            if os.path.islink(p):
                continue
            with open(p, "rb") as f:
                data = f.read()
            hits += [f"{p}: {x!r}" for x in needles if x in data]
    return hits


def hostile_links(binary, fixture, tmp, failures):
    clean = os.path.join(tmp, "clean")
    node = os.path.join(tmp, "hostile")
    shutil.copytree(fixture, clean, symlinks=True)
    shutil.copytree(fixture, node, symlinks=True)
    with open(os.path.join(tmp, "secret-counter"), "w") as f:
        f.write(SECRET_COUNTER + "\n")
    os.makedirs(os.path.join(tmp, "outside"))
    for n in ("np_cnp_sent", "rp_cnp_handled", "out_of_sequence"):
        with open(os.path.join(tmp, "outside", n), "w") as f:
            f.write(SECRET_COUNTER + "\n")
    with open(os.path.join(tmp, "secret-drvinfo"), "wb") as f:
        f.write(TOKEN.encode() * 20)

    dev0 = os.path.join(node, "sys/class/infiniband/mlx5_0")
    relink(os.path.join(dev0, "fw_ver"), "/proc/self/environ")
    relink(os.path.join(dev0, "board_id"), "/etc/passwd")
    hw = os.path.realpath(os.path.join(dev0, "ports/1/hw_counters/np_cnp_sent"))
    relink(hw, os.path.relpath(os.path.join(tmp, "secret-counter"), os.path.dirname(hw)))
    hw1 = os.path.realpath(os.path.join(node, "sys/class/infiniband/mlx5_1/ports/1/hw_counters"))
    relink(hw1, os.path.relpath(os.path.join(tmp, "outside"), os.path.dirname(hw1)))
    drv = os.path.join(node, "kernel/ethtool/ens1f0np0/drvinfo")
    relink(drv, os.path.join(tmp, "secret-drvinfo"))

    env = dict(os.environ, ROCEWATCH_TEST_SECRET=TOKEN)
    _, base, _, _, _ = scrape(binary, clean, env)
    status, body, status2, body2, log = scrape(binary, node, env)
    passwd = open("/etc/passwd").read().splitlines()[0]  # root:x:0:0:...
    for i, (st, b) in enumerate(((status, body), (status2, body2))):
        what = f"hostile replay, scrape {i}"
        if st != 200:
            failures.append(f"{what}: HTTP {st}")
            continue
        for needle in (TOKEN, SECRET_COUNTER, passwd, "ROCEWATCH_TEST_SECRET", "PATH="):
            if needle in b:
                failures.append(f"{what}: served bytes of a link target: {needle!r}")
        want_unavail = (value(base, 'roce_exporter_unavailable_values{collector="rdma"}') or 0) + 1
        got = value(b, 'roce_exporter_unavailable_values{collector="rdma"}') or 0
        if got < want_unavail:
            failures.append(f"{what}: rdma unavailable values {got}, want >= {want_unavail}")
        if value(b, 'roce_exporter_collector_success{collector="rdma"}') != 1:
            failures.append(f"{what}: a refused link must not fail the rdma collector")
        if (value(b, 'roce_exporter_refused_paths_total{tree="sysfs"}') or 0) < 4:
            failures.append(f"{what}: refused sysfs paths not counted")
        if (value(b, 'roce_exporter_refused_paths_total{tree="kernel"}') or 0) < 1:
            failures.append(f"{what}: the refused kernel answer is not counted")
        if value(base, 'roce_exporter_refused_paths_total{tree="sysfs"}') != 0:
            failures.append("clean replay: refused_paths_total should be 0")
        if value(b, 'roce_port_state{device="mlx5_0",port="1"}') != 4:
            failures.append(f"{what}: the rest of mlx5_0 is no longer served")
        if value(b, 'roce_hw_stat_total{device="mlx5_0",port="1",counter="np_cnp_sent"}') is not None:
            failures.append(f"{what}: a value was served for the escaping np_cnp_sent")
        promtool_check(b, failures, what)
    if "path refused" not in log or "fw_ver" not in log:
        failures.append("the refused paths are not logged:\n" + log[-2000:])
    if log.count("class/infiniband/mlx5_0/fw_ver") > 1:
        failures.append("fw_ver's refusal is logged more than once")

    cap = os.path.join(tmp, "recaptured")
    res = subprocess.run([binary, "capture", cap, "--replay", node], capture_output=True,
                         text=True, timeout=60, env=env)
    if res.returncode != 0:
        failures.append(f"capture --replay of the hostile capture failed: {res.stdout}{res.stderr}")
    else:
        if "refused" not in res.stdout:
            failures.append("capture does not say that it refused links: " + res.stdout)
        bad = links_leaving(cap)
        if bad:
            failures.append("capture --replay wrote links that leave the tree: " + ", ".join(bad))
        hits = files_containing(cap, [TOKEN.encode(), SECRET_COUNTER.encode(), passwd.encode()])
        if hits:
            failures.append("capture --replay copied bytes of link targets: " + ", ".join(hits))

    # sys/ itself a link to the host's /sys: refused at start, by name.
    sysln = os.path.join(tmp, "syslink")
    os.makedirs(sysln)
    os.symlink("/sys", os.path.join(sysln, "sys"))
    res = subprocess.run([binary, "--replay", sysln, "--web.listen-address=127.0.0.1:0"],
                         capture_output=True, text=True, timeout=20)
    if res.returncode == 0 or "sys leaves the capture directory" not in res.stderr:
        failures.append(f"--replay with sys -> /sys: rc {res.returncode}: {res.stderr[-500:]}")


def not_utf8(binary, fixture, tmp, failures):
    node = os.path.join(tmp, "utf8")
    shutil.copytree(fixture, node, symlinks=True)
    hw = os.path.realpath(os.path.join(node, "sys/class/infiniband/mlx5_0/ports/1/hw_counters"))
    with open(os.path.join(os.fsencode(hw), b"bad\xff\xfe"), "w") as f:
        f.write("42\n")
    fw = os.path.realpath(os.path.join(node, "sys/class/infiniband/mlx5_0/fw_ver"))
    with open(fw, "wb") as f:
        f.write(b"28.39\xc3\x28\x00x\n")  # an invalid 2-byte sequence, then NUL
    _, body, _, body2, _ = scrape(binary, node, dict(os.environ))
    for i, b in enumerate((body, body2)):
        what = f"non-UTF-8 names, scrape {i}"
        series = 'roce_hw_stat_total{device="mlx5_0",port="1",counter="bad\ufffd\ufffd"}'
        if value(b, series) != 42:
            failures.append(f"{what}: {series} not served as 42")
        if 'fw_version="28.39\ufffd(\ufffdx"' not in b:
            failures.append(f"{what}: fw_version not repaired to 28.39\\ufffd(\\ufffdx")
        if (value(b, "roce_exporter_label_values_repaired_total") or 0) < 2 * (i + 1):
            failures.append(f"{what}: repaired label values not counted")
        promtool_check(b, failures, what)


def main():
    binary, fixture = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory(prefix="rocewatch-hostile-") as tmp:
        hostile_links(binary, fixture, tmp, failures)
        not_utf8(binary, fixture, tmp, failures)
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
