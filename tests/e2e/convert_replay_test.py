#!/usr/bin/env python3
"""`roce_exporter convert` end to end: the real binary turns a real `ethtool -S` dump (mlx5,
kernel 4.4) and a real `ethtool -m` dump (SFP) of tests/fixtures/real into a capture, then
`roce_exporter --replay DIR --netdev-include` serves it over HTTP; the served values are
checked against the dump text. Also: bad input (a netdev name that is a path, a line that is
not "NAME: VALUE") is refused with an error naming it, and writes nothing.

    convert_replay_test.py ROCE_EXPORTER REAL_FIXTURES_DIR
"""

import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from exporter_process import Exporter  # noqa: E402


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=30)


def main():
    binary, real = sys.argv[1], pathlib.Path(sys.argv[2])
    dump_s = real / "ethtool-S" / "mlx5-cx4lx-ubuntu16.04-4.4.txt"
    dump_m = real / "ethtool-m" / "sfp-odi-dfp-34x-2c2-hack-gpon-326.txt"
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, "report")
        r = run(binary, "convert", "ethtool-S", "--netdev", "p3p1", "--driver", "mlx5_core",
                "--firmware", "14.23.1020", str(dump_s), cap)
        if r.returncode != 0:
            fail("convert ethtool-S: " + r.stderr)
        r = run(binary, "convert", "ethtool-m", "--netdev", "p3p1", str(dump_m), cap)
        if r.returncode != 0:
            fail("convert ethtool-m: " + r.stderr)

        values = {}
        for line in dump_s.read_text().splitlines():
            line = line.strip()
            if ": " in line:
                name, value = line.rsplit(": ", 1)
                values[name] = int(value)
        with Exporter(binary, ["--replay", cap, "--netdev-include", "^p3p1$"]) as e:
            status, body = e.get("/metrics")
        if status != 200:
            fail(f"/metrics answered {status}")
        expect = {
            'roce_ethtool_rx_pause_control_frames_total{netdev="p3p1"}': values["pause_ctrl_rx"],
            'roce_ethtool_rx_bytes_total{netdev="p3p1"}': values["octets_received"],
            'roce_ethtool_tx_packets_total{netdev="p3p1"}': values["frames_tx"],
            'roce_ethtool_rx_discarded_packets_total{netdev="p3p1"}': values["in_discards"],
        }
        served = {}
        for line in body.splitlines():
            if not line.startswith("#") and " " in line:
                key, value = line.rsplit(" ", 1)
                served[key] = float(value)
        for key, value in expect.items():
            if served.get(key) != float(value):
                fail(f"{key}: served {served.get(key)}, the dump says {value}")
        info = [k for k in served if k.startswith("roce_ethtool_driver_info{")]
        if not info or 'driver="mlx5_core"' not in info[0] or 'firmware="14.23.1020"' not in info[0]:
            fail(f"driver info: {info}")
        module = [k for k in served if k.startswith("roce_module_info{")]
        if not module or 'vendor="ODI"' not in module[0] or 'part_number="DFP-34X-2C2"' not in module[0]:
            fail(f"module info: {module}")

        # Hostile input: refused, naming what, and nothing written outside DIR.
        bad_dir = os.path.join(tmp, "bad")
        r = run(binary, "convert", "ethtool-S", "--netdev", "../escape", str(dump_s), bad_dir)
        if r.returncode == 0 or "netdev name" not in r.stderr:
            fail("a netdev name with '/' was accepted: " + r.stderr)
        if os.path.exists(bad_dir) or os.path.exists(os.path.join(tmp, "escape")):
            fail("a refused conversion wrote files")
        garbage = os.path.join(tmp, "garbage.txt")
        pathlib.Path(garbage).write_text("NIC statistics:\n     rx_packets: 12\n     oops\n")
        r = run(binary, "convert", "ethtool-S", "--netdev", "eth0", garbage, bad_dir)
        if r.returncode == 0 or "line 3" not in r.stderr:
            fail("a line without a value was accepted: " + r.stderr)
    print("ok: converted dumps replay value for value; bad input refused")


if __name__ == "__main__":
    main()
