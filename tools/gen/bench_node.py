#!/usr/bin/env python3
"""Large synthetic nodes for the benchmarks, in the capture layout (docs/capture.md).

    python3 tools/gen/bench_node.py OUT_DIR --devices 16 [--channels 64] [--optics-writer PATH]

N ConnectX-7 RoCE functions (one port each) with the full mlx5 hw_counters and
counters sets, ECN/DCQCN files, rdma_cm groups, a netdev each with the full mlx5
ethtool string set expanded to CHANNELS channels (about 100 per-queue counters a
channel: ~6,900 strings at 64 channels), DCB answers, link state, pause, verbs,
and an 8-lane CMIS module per netdev (written by optics_capture_writer when given).
Deterministic: the same arguments give the same tree.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import kernel_answers as ka  # noqa: E402
import node_tree as nt  # noqa: E402
from mlx5_answers import (  # noqa: E402
    GENL_PORTID, MLX5_FW, MLX5_PRIV_FLAGS, MLX5_SELF_TESTS, MLX5_STRINGS, ROUTE_PORTID,
    ethtool_answers, hw_counters, mlx5_dcb, mlx5_link_settings, mlx5_stat_values, pma_counters)

KERNEL = "6.8.0-60-generic"
_CHANNEL = re.compile(r"^(rx|tx|ch)(\d+)_(.+)$")


def strings_for_channels(channels: int) -> List[str]:
    """The mlx5 stat names with the per-channel groups expanded to `channels` channels."""
    base = [n for n in MLX5_STRINGS if not _CHANNEL.match(n)]
    suffixes = {"ch": [], "rx": [], "tx": []}
    for n in MLX5_STRINGS:
        m = _CHANNEL.match(n)
        if m and m.group(2) == "0":
            suffixes[m.group(1)].append(m.group(3))
    per_channel = [f"{kind}{c}_{s}" for kind in ("ch", "rx", "tx") for c in range(channels)
                   for s in suffixes[kind]]
    return base + per_channel


def pci_of(i: int) -> str:
    return f"0000:{0x17 + 0x10 * (i % 12):02x}:{i // 12:02x}.{0}"


def build(devices: int, channels: int) -> nt.NodeSpec:
    host = f"bench-{devices}"
    names = strings_for_channels(channels)
    hw_names = nt.mlx5_hw_counter_names()
    specs, answers = [], {}
    for i in range(devices):
        ib, netdev, pci = f"mlx5_{i}", f"ens{i + 1}f0np0", pci_of(i)
        mac = f"94:6d:ae:{i // 256:02x}:{i % 256:02x}:3a"
        dev = nt.mlx5_roce_device(
            ib, pci=pci, netdev=netdev, mac=mac, ifindex=3 + i,
            roce_ips=[f"10.{10 + i}.0.1"], numa_node=i % 2, hostname=host,
            counters=pma_counters(3_000_000_000 + i, 2_900_000_000 + i, 4118, 4106, 18_000, 17_900),
            hw_counters=hw_counters(f"{host}/{ib}", hw_names),
            ecn=nt.EcnSpec(), rdma_cm=nt.RdmaCmPortSpec())
        specs.append(dev)
        values = mlx5_stat_values(names, f"{host}/{ib}/ethtool", {})
        answers.update(ethtool_answers(
            netdev, names=names, values=values, link_settings=mlx5_link_settings(True),
            drvinfo=ka.ethtool_drvinfo(driver="mlx5_core", kernel_release=KERNEL, fw_version=MLX5_FW,
                                       bus_info=pci, n_priv_flags=MLX5_PRIV_FLAGS, n_stats=len(names),
                                       testinfo_len=MLX5_SELF_TESTS)))
        answers[ka.key_dcb_ieee(netdev)] = ka.dcbnl_ieee_reply(netdev, mlx5_dcb(1000, 2000), seq=i + 1,
                                                               portid=ROUTE_PORTID)
        answers[ka.key_linkstate(netdev)] = ka.ethtool_linkstate_reply(
            ifindex=3 + i, ifname=netdev, seq=2 * i + 1, portid=GENL_PORTID, link=True, ext_down_count=1)
        answers[ka.key_pause(netdev)] = ka.ethtool_pause_reply(
            ifindex=3 + i, ifname=netdev, seq=2 * i + 2, portid=GENL_PORTID,
            autoneg=False, rx=False, tx=False, tx_frames=0, rx_frames=0)
        answers[ka.key_verbs_port(ib, 1)] = ka.ibv_port_attr(
            state=ka.IBV_PORT_ACTIVE, max_mtu=ka.IBV_MTU_4096, active_mtu=ka.IBV_MTU_4096,
            gid_tbl_len=255, port_cap_flags=ka.IBV_PORT_CM_SUP | ka.IBV_PORT_IP_BASED_GIDS,
            pkey_tbl_len=1, active_width=ka.IBV_WIDTH_4X, active_speed=ka.IBV_SPEED_NDR,
            phys_state=ka.PHYS_STATE_LINK_UP, link_layer=ka.IBV_LINK_LAYER_ETHERNET)
    return nt.NodeSpec(hostname=host, kernel=KERNEL,
                       description=f"benchmark node: {devices} ConnectX-7, {channels} channels each",
                       devices=specs, kernel_answers=answers)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--devices", type=int, required=True)
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--optics-writer", type=Path)
    args = ap.parse_args()
    node = nt.write_node(build(args.devices, args.channels), args.out, replace=True)
    if args.optics_writer:
        for i in range(args.devices):
            subprocess.run([str(args.optics_writer), str(node), f"ens{i + 1}f0np0", "qsfp_dd_8_lane",
                            "--rx-power-scale=1.9"], check=True, stdout=subprocess.DEVNULL)
    print(f"wrote {node}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
