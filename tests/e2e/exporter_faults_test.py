#!/usr/bin/env python3
"""Faults while running, against the real binary:
  - a sysfs attribute that never answers (a FIFO in a replayed tree blocks open(), as a
    firmware command that never returns blocks a hw_counters read): the scrape answers
    within the timeout Prometheus announces, the stuck collector reports success 0, the
    others are served, and the next scrape is not held up either;
  - a device whose directory disappears between scrapes: its series go, the rest stays,
    and roce_exporter_vanished_total counts it.
"""

import os
import shutil
import sys
import tempfile
import time

from exporter_process import Exporter


def value(text, series):
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return None


def main():
    binary, fixture = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory(prefix="rocewatch-faults-") as tmp:
        tree = os.path.join(tmp, "node")
        shutil.copytree(fixture, tree, symlinks=True)
        hw = os.path.join(tree, "sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent")
        real = os.path.realpath(hw)
        os.remove(real)
        os.mkfifo(real)  # open() blocks: nobody ever writes
        with Exporter(binary, ["--replay", tree, "--collector.timeout=30s",
                               "--web.coalesce-window=0"]) as exp:
            for attempt in range(2):
                t0 = time.monotonic()
                status, body = exp.get("/metrics", {"X-Prometheus-Scrape-Timeout-Seconds": "2"})
                took = time.monotonic() - t0
                if status != 200:
                    failures.append(f"hung source, scrape {attempt}: HTTP {status}")
                if took > 5:
                    failures.append(f"hung source, scrape {attempt}: took {took:.1f} s for a 2 s timeout")
                if value(body, 'roce_exporter_collector_success{collector="rdma"}') != 0:
                    failures.append(f"hung source, scrape {attempt}: rdma should report success 0")
                if value(body, 'roce_exporter_collector_success{collector="netdev"}') != 1:
                    failures.append(f"hung source, scrape {attempt}: netdev should still succeed")
                if value(body, 'roce_netdev_mtu_bytes{netdev="ens1f0np0"}') != 9000:
                    failures.append(f"hung source, scrape {attempt}: netdev series missing")
            # Release the stuck reader so the process can stop cleanly.
            fd = os.open(real, os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, b"7\n")
            os.close(fd)

        tree2 = os.path.join(tmp, "node2")
        shutil.copytree(fixture, tree2, symlinks=True)
        with Exporter(binary, ["--replay", tree2, "--web.coalesce-window=0"]) as exp:
            status, body = exp.get("/metrics")
            if value(body, 'roce_port_state{device="mlx5_1",port="1"}') is None:
                failures.append("vanish: mlx5_1 missing before removal")
            dev = os.path.realpath(os.path.join(tree2, "sys/class/infiniband/mlx5_1"))
            shutil.rmtree(dev)
            status, body = exp.get("/metrics")
            if status != 200:
                failures.append(f"vanish: HTTP {status}")
            if value(body, 'roce_port_state{device="mlx5_1",port="1"}') is not None:
                failures.append("vanish: mlx5_1 still served after its directory went")
            if value(body, 'roce_port_state{device="mlx5_0",port="1"}') != 4:
                failures.append("vanish: mlx5_0 no longer served")
            if (value(body, 'roce_exporter_vanished_total{collector="rdma"}') or 0) < 1:
                failures.append("vanish: roce_exporter_vanished_total{collector=\"rdma\"} not counted")
            if value(body, 'roce_exporter_collector_success{collector="rdma"}') != 1:
                failures.append("vanish: a vanished device must not fail the collector")
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
