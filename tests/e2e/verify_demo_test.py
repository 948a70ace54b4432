#!/usr/bin/env python3
"""`roce-lint verify` on the demo cluster (issue 18, "Done when").

Starts examples/run_demo.py's Demo without Prometheus (14 replayed exporters whose counters
move as motion.json says), runs `roce-lint verify` with the stand-in perftest
(tests/lint/verify/stand-in, replaying recorded real perftest outputs) and the demo's stand-in ssh,
and asserts:
  - a healthy pair (gpu-01/mlx5_0 -> gpu-02/mlx5_0 on rail 0) PASSes at 392 Gb/s;
  - the pause-storm node (gpu-10/mlx5_0) FAILs with verify.pause-duration naming
    roce_pfc_pause_duration_seconds_total tx priority 3 and about 70 % of the test;
  - the PFC-off NIC (gpu-02/mlx5_1) FAILs with its discards and retransmission counters (and
    the bandwidth of the replayed 92 Gb/s run);
  - the same faults on the Broadcom node (gpu-13: bnxt_re0's pause storm read from
    `pfc_pri3_tx_duration_us`, bnxt_re1's PFC off from its retransmission and discard counters)
    FAIL with the same checks, and the Intel NIC with PFC off (gpu-14/irdma0) with its discards;
  - the node that does not answer ssh (gpu-11) is UNREACHABLE, and gpu-05's missing mlx5_1
    an ERROR that names the device;
  - the JUnit output parses as XML with one test case per pair and the same verdicts;
  - the JSON output carries the same statuses; exit status 1.
"""

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "examples"))
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from exporter_process import Checks  # noqa: E402
from run_demo import Demo  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, required=True)
    ap.add_argument("--port-base", type=int, default=19500)
    args = ap.parse_args()
    check = Checks(echo=False)
    failures = check.failures

    with Demo(args.build, args.port_base, with_prometheus=False) as demo:
        # The demo's training processes hold QPs on every NIC (the per-job view names them):
        # verify refuses such ports unless told.
        busy = demo.verify_report("--format", "json", "--duration", "2s", allow_busy=False)
        check(busy.returncode == 2 and "--allow-busy-ports" in busy.stderr,
              f"busy ports: exit status {busy.returncode}, expected 2 and the flag named: {busy.stderr[-1000:]}")
        j = demo.verify_report("--format", "json", "--duration", "2s")
        check(j.returncode == 1, f"exit status {j.returncode}, expected 1: {j.stderr[-2000:]}")
        report = json.loads(j.stdout)
        pairs = {p["pair"]: p for p in report["pairs"]}
        print(json.dumps({k: (p["status"], p.get("detail", "")) for k, p in pairs.items()}, indent=1))

        healthy = pairs.get("gpu-02/mlx5_0 -> gpu-01/mlx5_0")
        check(healthy and healthy["status"] == "PASS", f"healthy pair: {healthy}")
        if healthy:
            check(abs(healthy["bandwidth_gbps"] - 392.34) < 0.01, f"healthy bandwidth {healthy['bandwidth_gbps']}")
            check(healthy["server_gid_index"] == 3 and healthy["client_gid_index"] == 3,
                  "GID index of 10.10.0.x RoCE v2 in the capture is 3")

        def paused_about_70_percent(pair_name, node):
            """The pair FAILs with verify.pause-duration naming `node`'s tx priority 3 and about
            70 % of the test; its failed verdicts."""
            pair = pairs.get(pair_name)
            check(pair and pair["status"] == "FAIL", f"pause-storm pair {pair_name}: {pair}")
            if not pair:
                return []
            failed = [v for v in pair["verdicts"] if not v["passed"]]
            pd = [v for v in failed if v["check"] == "verify.pause-duration" and node in v["nic"]]
            check(pd, f"pause storm verdicts of {pair_name}: {failed}")
            if pd:
                check('direction="tx",priority="3"' in pd[0]["counter"], pd[0]["counter"])
                share = float(pd[0]["found"].rstrip("%"))
                check(60 <= share <= 75, f"paused share {share} on {node}")
            return failed

        paused_about_70_percent("gpu-10/mlx5_0 -> gpu-09/mlx5_0", "gpu-10")

        pfc_off = pairs.get("gpu-02/mlx5_1 -> gpu-01/mlx5_1")
        check(pfc_off and pfc_off["status"] == "FAIL", f"PFC-off pair: {pfc_off}")
        if pfc_off:
            failed = {v["check"] for v in pfc_off["verdicts"] if not v["passed"] and "gpu-02" in (v["nic"] or "gpu-02")}
            for c in ("verify.discards", "verify.retransmissions", "verify.bandwidth"):
                check(c in failed, f"PFC-off pair lacks {c}: {pfc_off['verdicts']}")
            retx = [v for v in pfc_off["verdicts"] if v["check"] == "verify.retransmissions" and "gpu-02" in v["nic"]]
            check(retx and "out_of_sequence" in retx[0]["message"], f"retransmissions verdict: {retx}")

        # Other vendors, the same verdicts: each driver's own counters under the same families.
        failed = paused_about_70_percent("gpu-14/irdma0 -> gpu-13/bnxt_re0", "gpu-13")
        check(any(v["check"] == "verify.discards" and "gpu-14" in v["nic"] for v in failed),
              f"Intel PFC-off NIC's discards: {failed}")
        vendor_pfc_off = pairs.get("gpu-14/irdma1 -> gpu-13/bnxt_re1")
        check(vendor_pfc_off and vendor_pfc_off["status"] == "FAIL", f"Broadcom PFC-off pair: {vendor_pfc_off}")
        if vendor_pfc_off:
            failed = {v["check"] for v in vendor_pfc_off["verdicts"]
                      if not v["passed"] and "gpu-13" in (v["nic"] or "gpu-13")}
            for c in ("verify.discards", "verify.retransmissions"):
                check(c in failed, f"Broadcom PFC-off pair lacks {c}: {vendor_pfc_off['verdicts']}")

        gone = [p for k, p in pairs.items() if "gpu-11" in k]
        check(gone and all(p["status"] == "UNREACHABLE" for p in gone), f"gpu-11 pairs: {gone}")
        check(all("gpu-11" in p.get("detail", "") and "No route to host" in p.get("detail", "") for p in gone),
              f"unreachable detail: {gone}")
        missing = pairs.get("gpu-06/mlx5_1 -> gpu-05/mlx5_1")
        check(missing and missing["status"] == "ERROR" and "mlx5_1" in missing.get("detail", ""),
              f"gpu-05 missing NIC: {missing}")

        x = demo.verify_report("--format", "junit", "--duration", "1s")
        root = ET.fromstring(x.stdout)
        cases = root.findall("./testsuite/testcase")
        check(len(cases) == len(pairs), f"{len(cases)} JUnit cases for {len(pairs)} pairs")
        by_name = {c.get("name"): c for c in cases}
        check(by_name.get("gpu-02/mlx5_0 -> gpu-01/mlx5_0") is not None
              and len(list(by_name["gpu-02/mlx5_0 -> gpu-01/mlx5_0"])) == 0, "healthy case passes")
        storm_case = by_name.get("gpu-10/mlx5_0 -> gpu-09/mlx5_0")
        check(storm_case is not None and storm_case.find("failure") is not None
              and "verify.pause-duration" in storm_case.find("failure").get("message"), "storm case fails")
        check(all(by_name[k].find("error") is not None for k in by_name if "gpu-11" in k), "gpu-11 cases are errors")
        check(root.get("tests") == str(len(cases)), "tests attribute")

        t = demo.verify_report("--lang", "zh", "--duration", "1s")
        check("通过" in t.stdout and "不可达" in t.stdout, t.stdout[-1500:])

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
