#!/usr/bin/env python3
"""A synthetic fleet for roce-lint's benchmarks: M nodes of /metrics text and the
matching plan, with a few seeded faults whose expected findings are written down.

    python3 tools/gen/fleet.py OUT_DIR --nodes 1000 --template node8.prom [--faults 20] [--seed 1]

TEMPLATE is one healthy node's /metrics, as roce_exporter serves it (bench/run_all.sh
scrapes it from an 8-device bench node made by bench_node.py). Every node gets a copy
with its own addresses; FAULTS nodes, spread through the fleet, get one fault each:
PFC off on the RoCE priority, a netdev MTU of 1500, trust pcp, a port down, ECN off
on the RoCE priority or an older firmware. Writes

    OUT_DIR/plan.json            the cluster plan (one profile, the template's NICs)
    OUT_DIR/metrics/<node>.prom  each node's /metrics
    OUT_DIR/expected.json        [{"node", "check", "netdev"}] for every seeded fault

Deterministic: the same arguments give the same fleet.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

# The profile the bench node is configured to (tools/gen/bench_node.py).
PROFILE = {
    "link_speed_gbps": 400, "netdev_mtu": 9000, "roce_mtu": 4096, "trust": "dscp",
    "pfc_priorities": [3], "roce_dscp": 26, "roce_priority": 3, "cnp_dscp": 48, "cnp_priority": 6,
    "ecn": {"np_priorities": [3], "rp_priorities": [3]}, "pcie": {"speed_gts": 32, "width": 16},
}


def nics_of(template: str):
    """(ib_dev, netdev) pairs from the template's roce_netdev_info, in device order."""
    pairs = re.findall(r'^roce_netdev_info\{netdev="([^"]+)",device="([^"]+)"', template, re.M)
    if not pairs:
        sys.exit("template has no roce_netdev_info series: is it a roce_exporter /metrics?")
    return sorted(((dev, nd) for nd, dev in pairs), key=lambda p: (len(p[0]), p[0]))


class Addresses:
    """The template split around its RoCE addresses (the ip label and the IPv4-mapped GID of
    each NIC's GIDs), so every node's copy carries its own addresses at the cost of a join."""

    def __init__(self, template: str, nics):
        self.template_ips = {}
        for n, (dev, nd) in enumerate(nics):
            m = re.search(rf'^roce_gid_info\{{device="{dev}",[^}}]*type="RoCE v2",netdev="{nd}",ip="([0-9.]+)"',
                          template, re.M)
            if m is None:
                sys.exit(f"template has no RoCE v2 GID with an IPv4 address for {dev}/{nd}")
            self.template_ips[n] = m.group(1)
        tokens = []
        for ip in self.template_ips.values():
            tokens += [f'ip="{ip}"', f'ffff:{self.gid_tail(ip)}"']
        self.parts = re.split("(" + "|".join(re.escape(t) for t in tokens) + ")", template)

    @staticmethod
    def gid_tail(ip: str) -> str:
        a, b, c, d = (int(x) for x in ip.split("."))
        return f"{a:02x}{b:02x}:{c:02x}{d:02x}"

    def node_text(self, ips) -> str:
        """`ips`: NIC index -> the node's address for it."""
        repl = {}
        for n, ip in ips.items():
            old = self.template_ips[n]
            repl[f'ip="{old}"'] = f'ip="{ip}"'
            repl[f'ffff:{self.gid_tail(old)}"'] = f'ffff:{self.gid_tail(ip)}"'
        return "".join(repl.get(p, p) if k % 2 else p for k, p in enumerate(self.parts))


def roce_ip(n: int, i: int) -> str:
    """Node i's address on its NIC n: one /16 per rail, so 62,500 nodes fit."""
    return f"10.{100 + n}.{i // 250}.{i % 250 + 1}"


def replace_one(text: str, pattern: str, repl: str, what: str) -> str:
    new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
    if n != 1:
        sys.exit(f"template has no series to seed {what} ({pattern})")
    return new


# fault name -> (check ID, how to apply it to one NIC of a node's text)
def fault_pfc(text, dev, nd):
    return replace_one(text, rf'^(roce_pfc_enabled\{{netdev="{nd}",priority="3"\}}) 1$', r"\1 0", "pfc")


def fault_mtu(text, dev, nd):
    return replace_one(text, rf'^(roce_netdev_mtu_bytes\{{netdev="{nd}"\}}) 9000$', r"\1 1500", "mtu")


def fault_trust(text, dev, nd):
    return replace_one(text, rf'^(roce_qos_trust_info\{{netdev="{nd}",mode=)"dscp"', r'\1"pcp"', "trust")


def fault_port_down(text, dev, nd):
    return replace_one(text, rf'^(roce_port_state\{{device="{dev}",port="1"\}}) 4$', r"\1 1", "port down")


def fault_ecn(text, dev, nd):
    return replace_one(text, rf'^(roce_ecn_enabled\{{netdev="{nd}",point="np",priority="3"\}}) 1$', r"\1 0", "ecn")


def fault_firmware(text, dev, nd):
    return replace_one(text, rf'^(roce_device_info\{{device="{dev}",fw_version=)"[^"]+"', r'\1"28.36.1010"',
                       "firmware")


FAULTS = [
    ("qos.pfc-priorities", fault_pfc),
    ("link.netdev-mtu", fault_mtu),
    ("qos.trust", fault_trust),
    ("link.port-down", fault_port_down),
    ("ecn.np-priorities", fault_ecn),
    ("drift.setting", fault_firmware),  # one NIC of thousands on other firmware: drift
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--nodes", type=int, required=True)
    ap.add_argument("--template", type=Path, required=True)
    ap.add_argument("--faults", type=int, default=None, help="faulty nodes (default: 1 in 50, at least 6)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.nodes < 3:
        sys.exit("--nodes must be at least 3 (drift needs a majority)")
    template = args.template.read_text()
    nics = nics_of(template)
    faults = args.faults if args.faults is not None else max(6, args.nodes // 50)
    faults = min(faults, args.nodes)
    rng = random.Random(args.seed)

    names = [f"gpu-{i:05d}" for i in range(args.nodes)]
    faulty = sorted(rng.sample(range(args.nodes), faults))
    metrics = args.out / "metrics"
    metrics.mkdir(parents=True, exist_ok=True)
    expected = []
    fault_of = {}
    for k, i in enumerate(faulty):
        check, apply = FAULTS[k % len(FAULTS)]
        dev, nd = nics[rng.randrange(len(nics))]
        fault_of[i] = (check, apply, dev, nd)
        expected.append({"node": names[i], "check": check, "netdev": nd})

    addresses = Addresses(template, nics)
    for i, name in enumerate(names):
        text = addresses.node_text({n: roce_ip(n, i) for n in range(len(nics))})
        if i in fault_of:
            check, apply, dev, nd = fault_of[i]
            text = apply(text, dev, nd)
        (metrics / f"{name}.prom").write_text(text)

    plan = {
        "cluster": f"bench-{args.nodes}",
        "profiles": {"gpu": PROFILE},
        "nodes": [
            {
                "name": name,
                "management_ip": f"10.{i // 62500}.{i // 250 % 250}.{i % 250 + 1}",
                "nics": [{"ib_dev": dev, "netdev": nd, "profile": "gpu",
                          "roce_ip": roce_ip(n, i) + "/16"} for n, (dev, nd) in enumerate(nics)],
            }
            for i, name in enumerate(names)
        ],
    }
    (args.out / "plan.json").write_text(json.dumps(plan, indent=1) + "\n")
    (args.out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"{args.out}: {args.nodes} nodes x {len(nics)} NICs, {len(expected)} seeded faults, "
          f"{len(template) * args.nodes / 1e6:.0f} MB of metrics")


if __name__ == "__main__":
    main()
