#!/usr/bin/env python3
"""Faults while running, against the real binary:
  - a replayed tree whose hw_counters file is a FIFO (open() of a FIFO blocks until a writer
    comes: a hostile capture could hang the rdma collector that way): the FIFO is refused
    without being opened, the value is counted unavailable, the collector stays successful
    and the scrape answers at once, twice. (A read that really hangs, a firmware command that
    never returns, is bounded by the scrape's deadline: PassRunner.HangingSourceIsBoundedByTheDeadline.)
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
        os.mkfifo(real)  # open() would block: nobody ever writes
        with Exporter(binary, ["--replay", tree, "--collector.timeout=30s",
                               "--web.coalesce-window=0"]) as exp:
            for attempt in range(2):
                t0 = time.monotonic()
                status, body = exp.get("/metrics", {"X-Prometheus-Scrape-Timeout-Seconds": "2"})
                took = time.monotonic() - t0
                if status != 200:
                    failures.append(f"fifo, scrape {attempt}: HTTP {status}")
                if took > 1.5:
                    failures.append(f"fifo, scrape {attempt}: took {took:.1f} s: the FIFO was waited on")
                if value(body, 'roce_exporter_collector_success{collector="rdma"}') != 1:
                    failures.append(f"fifo, scrape {attempt}: rdma should stay successful")
                if (value(body, 'roce_exporter_unavailable_values{collector="rdma"}') or 0) < 1:  # the fixture's N/A is not read by default
                    failures.append(f"fifo, scrape {attempt}: the refused FIFO is not counted unavailable")
                if value(body, 'roce_hw_stat_total{device="mlx5_0",port="1",counter="np_cnp_sent"}') is not None:
                    failures.append(f"fifo, scrape {attempt}: a value was served for the FIFO")
                if value(body, 'roce_port_state{device="mlx5_0",port="1"}') != 4:
                    failures.append(f"fifo, scrape {attempt}: mlx5_0's other series missing")
                if value(body, 'roce_netdev_mtu_bytes{netdev="ens1f0np0"}') != 9000:
                    failures.append(f"fifo, scrape {attempt}: netdev series missing")

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
