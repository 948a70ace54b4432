#!/usr/bin/env python3
"""Bad input gets a clear error and a non-zero exit, from the real binary."""

import os
import socket
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
FIXTURE = sys.argv[2]
failures = []


def run(args, want_code, want_text):
    res = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=30)
    out = res.stdout + res.stderr
    if res.returncode != want_code or want_text not in out:
        failures.append(f"{args}: exit {res.returncode} (want {want_code}), output:\n{out}"
                        f"\nwant it to contain: {want_text}")


run(["--path.sysfs=/nonexistent/sys"], 2,
    "roce_exporter: --path.sysfs=/nonexistent/sys: No such file or directory")
run(["--web.listen-adress=:9100"], 2,
    "unknown flag --web.listen-adress (did you mean --web.listen-address?)")
run(["--replay=/nonexistent"], 2, "--replay=/nonexistent: No such file or directory")
run(["--replay", FIXTURE, "--web.listen-address=9879"], 2,
    "--web.listen-address=9879: missing :PORT")
run(["--replay", FIXTURE, "--collector.rdma.gid-interval=soon"], 2,
    "--collector.rdma.gid-interval: invalid duration \"soon\"")
run(["--replay", FIXTURE, "--device-include=mlx5_[0"], 2,
    "--device-include=mlx5_[0: invalid regular expression")
# A capture written by a newer layout, or a directory that is someone else's: refused by name.
with tempfile.TemporaryDirectory() as other:
    os.mkdir(os.path.join(other, "sys"))
    with open(os.path.join(other, "capture.json"), "w") as f:
        f.write('{"format": "rocewatch-capture", "version": 2}')
    run(["--replay", other], 2,
        f"--replay={other}: {other}/capture.json: capture layout version 2; "
        "this roce_exporter reads version 1")
run(["--version"], 0, "roce_exporter 0.")
run(["--help"], 0, "--[no-]collector.rdma")

# A port already in use: bind one ourselves and point the exporter at it.
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
port = s.getsockname()[1]
run(["--replay", FIXTURE, f"--web.listen-address=127.0.0.1:{port}"], 1,
    f"cannot listen on 127.0.0.1:{port}: Address already in use")
s.close()

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
