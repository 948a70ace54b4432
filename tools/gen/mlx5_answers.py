"""Builders for what an mlx5 (ConnectX) RoCE node answers: PMA and hw counter
sets, the ethtool statistics with consistent per-channel, per-priority and PHY
values, link settings, and the DCB state mlx5 reports. Shared by the test
fixtures (tests/fixtures/generate.py), the demo cluster (examples/generate.py)
and the benchmark node generator; built on node_tree.py and kernel_answers.py."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Dict, List, Sequence

import kernel_answers as ka
import node_tree as nt

REPO = Path(__file__).resolve().parent.parent.parent

def pma_counters(xmit_words: int, rcv_words: int, tx_avg: int, rx_avg: int,
                 mc_tx: int, mc_rx: int, **errors: nt.Value) -> Dict[str, nt.Value]:
    """The 21 extended PMA counters of an mlx5 port.  Data is in 4-byte
    words; packet counts follow from an average packet size so the numbers
    agree with each other (packets = unicast + multicast)."""
    tx_pkts = xmit_words * 4 // tx_avg
    rx_pkts = rcv_words * 4 // rx_avg
    values: Dict[str, nt.Value] = {name: 0 for name in nt.PMA_COUNTERS_EXT}
    values.update(
        port_xmit_data=xmit_words, port_rcv_data=rcv_words,
        port_xmit_packets=tx_pkts, port_rcv_packets=rx_pkts,
        unicast_xmit_packets=tx_pkts - mc_tx, unicast_rcv_packets=rx_pkts - mc_rx,
        multicast_xmit_packets=mc_tx, multicast_rcv_packets=mc_rx,
    )
    for name, v in errors.items():
        if name not in values:
            raise KeyError(f"{name} is not a PMA counter")
        values[name] = v
    return values


# Ranges for the hw counters not set explicitly (drawn with a per-device seed).
HW_RANGES = {
    "rx_atomic_requests": (0, 4000), "rx_dct_connect": (0, 0),
    "duplicate_request": (0, 200), "rnr_nak_retry_err": (0, 40),
    "implied_nak_seq_err": (0, 150), "resp_local_length_error": (0, 3),
    "resp_cqe_error": (0, 6), "req_cqe_error": (0, 6),
    "req_remote_invalid_request": (0, 2), "req_remote_access_errors": (0, 2),
    "resp_remote_access_errors": (0, 2), "resp_cqe_flush_error": (40, 400),
    "req_cqe_flush_error": (40, 400), "req_transport_retries_exceeded": (0, 3),
    "req_rnr_retries_exceeded": (0, 1), "roce_adp_retrans_to": (0, 90),
    "roce_slow_restart": (0, 25), "roce_slow_restart_cnps": (200, 6000),
    "roce_slow_restart_trans": (0, 25), "rx_icrc_encapsulated": (0, 0),
}


def hw_counters(seed: str, names, **explicit: nt.Value) -> Dict[str, nt.Value]:
    """All ``names`` in kernel order: explicit values, the rest seeded."""
    seeded = nt.seeded_values(names, seed, HW_RANGES, default_range=(0, 50))
    unknown = set(explicit) - set(names)
    if unknown:
        raise KeyError(f"not hw counters here: {sorted(unknown)}")
    return {n: explicit.get(n, seeded[n]) for n in names}



MLX5_STRINGS = (REPO / "tests" / "exporter" / "netlink" / "mlx5_ethtool_strings.txt").read_text().split()
MLX5_FW = "28.39.2048 (MT_0000000838)"        # "%d.%d.%04d (%.16s)" fw_rev + board_id
MLX5_PRIV_FLAGS = 8                            # MLX5E_NUM_PFLAGS
MLX5_SELF_TESTS = 4                            # link, speed, health, loopback
# libnl port ids of the exporter's two netlink sockets (pid, then pid + (1 << 22)).
ROUTE_PORTID = 2817
GENL_PORTID = 2817 + (1 << 22)

# Per-channel counters that move on a busy netdev; every other per-channel counter is 0.
_LIVE_CHANNEL = {
    "rx": {"packets", "bytes", "csum_complete", "csum_unnecessary", "gro_packets", "gro_bytes",
           "gro_skbs", "cqe_compress_blks", "cqe_compress_pkts", "pp_alloc_fast",
           "pp_recycle_cached", "pp_recycle_ring", "ecn_mark"},
    "tx": {"packets", "bytes", "tso_packets", "tso_bytes", "csum_partial", "nop", "xmit_more",
           "cqes", "wake", "mpwqe_blks", "mpwqe_pkts", "stopped"},
    "ch": {"events", "poll", "arm", "aff_change"},
}
# sw counters whose per-channel name differs.
_SW_ALIASES = {"tx_queue_stopped": "stopped", "tx_queue_wake": "wake", "tx_queue_dropped": "dropped",
               "tx_cqe_err": "cqe_err"}
_CHANNEL = re.compile(r"^(rx|tx|ch)(\d+)_(.+)$")


def _channel_values(names: Sequence[str], seed: str, scale: float) -> Dict[str, int]:
    """Per-channel netdev counters (rxN_, txN_, chN_): plausible and consistent
    (bytes = packets x an average size, GRO/TSO/checksum counts below packets)."""
    rng = random.Random(f"rocewatch-fixture:{seed}")
    out: Dict[str, int] = {}
    for name in names:
        m = _CHANNEL.match(name)
        if not m or m.group(3) not in _LIVE_CHANNEL[m.group(1)] or scale == 0:
            continue
        counter = m.group(3)
        if counter == "packets":
            out[name] = int(rng.randint(20_000_000, 90_000_000) * scale)
        elif counter == "events":
            out[name] = int(rng.randint(5_000_000, 30_000_000) * scale)
        elif counter in ("stopped", "wake", "aff_change", "ecn_mark"):
            out[name] = int(rng.randint(0, 40) * scale)
        else:
            out[name] = -1          # derived below, once packets are known
    for name, v in list(out.items()):
        if v != -1:
            continue
        m = _CHANNEL.match(name)
        kind, q, counter = m.group(1), m.group(2), m.group(3)
        pk = out.get(f"{kind}{q}_packets") or out.get(f"{kind}{q}_events", 0)
        frac = {"bytes": 1183.0, "gro_bytes": 1370.0 * 0.62, "tso_bytes": 1448.0 * 0.41 * 24,
                "csum_complete": 0.97, "csum_unnecessary": 0.02, "gro_packets": 0.62,
                "gro_skbs": 0.11, "cqe_compress_blks": 0.08, "cqe_compress_pkts": 0.31,
                "pp_alloc_fast": 0.05, "pp_recycle_cached": 0.88, "pp_recycle_ring": 0.07,
                "tso_packets": 0.41, "csum_partial": 0.93, "nop": 0.001, "xmit_more": 0.22,
                "cqes": 0.97, "mpwqe_blks": 0.09, "mpwqe_pkts": 0.54, "poll": 1.4,
                "arm": 0.9}[counter]
        out[name] = int(pk * frac) + rng.randint(1, 97)
    return out


def mlx5_stat_values(names: Sequence[str], seed: str, explicit: Dict[str, int],
                     channel_scale: float = 1.0) -> List[int]:
    """GSTATS values for ``names`` (mlx5 en_stats.c order): per-channel counters
    seeded, the sw group summing them (as mlx5e_grp_sw_update_stats does), the
    ``explicit`` values, 0 for the rest (XDP, TLS, AF_XDP, errors …)."""
    unknown = set(explicit) - set(names)
    if unknown:
        raise KeyError(f"not in the string set: {sorted(unknown)}")
    values = {n: 0 for n in names}
    channel = _channel_values(names, seed, channel_scale)
    values.update(channel)
    by_counter: Dict[tuple, int] = {}
    for name, v in channel.items():
        m = _CHANNEL.match(name)
        key = (m.group(1), m.group(3))
        by_counter[key] = by_counter.get(key, 0) + v
    for name in names:
        if _CHANNEL.match(name) or name.startswith("ptp"):
            continue
        if name in _SW_ALIASES:
            values[name] = by_counter.get(("tx", _SW_ALIASES[name]), 0)
            continue
        for kind in ("rx", "tx", "ch"):
            if name.startswith(kind + "_") and (kind, name[len(kind) + 1:]) in by_counter:
                values[name] = by_counter[(kind, name[len(kind) + 1:])]
    values.update(explicit)
    return [values[n] for n in names]


def ethtool_answers(netdev: str, *, drvinfo: bytes, names: Sequence[str], values: Sequence[int],
                    link_settings: bytes) -> Dict[str, nt.KernelAnswer]:
    """The five SIOCETHTOOL answers the ethtool collector asks for."""
    if len(names) != len(values):
        raise ValueError(f"{netdev}: {len(names)} names but {len(values)} values")
    return {
        ka.key_drvinfo(netdev): drvinfo,
        ka.key_link_settings(netdev): link_settings,
        ka.key_sset_info(netdev, ka.ETH_SS_STATS): ka.ethtool_sset_info(ka.ETH_SS_STATS, len(names)),
        ka.key_strings(netdev, ka.ETH_SS_STATS): ka.ethtool_gstrings(ka.ETH_SS_STATS, names),
        ka.key_stats(netdev): ka.ethtool_gstats(values),
    }


MLX5_400G_MODES = (ka.LINK_MODE_400000baseKR4_Full, ka.LINK_MODE_400000baseSR4_Full,
                   ka.LINK_MODE_400000baseLR4_ER4_FR4_Full, ka.LINK_MODE_400000baseDR4_Full,
                   ka.LINK_MODE_400000baseCR4_Full)


def mlx5_link_settings(up: bool) -> bytes:
    """mlx5e_ethtool_get_link_ksettings on a ConnectX-7 400G port with an optical
    module, autonegotiation off (forced 400GAUI-4), global pause off."""
    return ka.ethtool_link_settings(
        speed_mbps=400000 if up else ka.SPEED_UNKNOWN,
        duplex=ka.DUPLEX_FULL if up else ka.DUPLEX_UNKNOWN,
        port=ka.PORT_FIBRE, autoneg=ka.AUTONEG_DISABLE,
        supported=(ka.LINK_MODE_Autoneg, ka.LINK_MODE_FIBRE, ka.LINK_MODE_Pause,
                   ka.LINK_MODE_FEC_NONE, ka.LINK_MODE_FEC_RS, ka.LINK_MODE_FEC_LLRS)
        + MLX5_400G_MODES,
        advertising=(ka.LINK_MODE_FEC_RS,) + MLX5_400G_MODES)


def mlx5_dcb(pfc_tx: int, pfc_rx: int, pfc_priorities: Sequence[int] = (3,),
             trust_dscp: bool = True) -> ka.DcbConfig:
    """What mlx5 (en_dcbnl.c) reports after `mlnx_qos --trust dscp --pfc 0,0,0,1,0,0,0,0`
    with the firmware's default ETS: every TC in its own vendor group (tsa vendor, 100%),
    priority 0 on TC 1 and priority 1 on TC 0; no rate limits; cable length 7 m in
    ieee_pfc.delay; priority 3 on buffer 1; DCBX in host (OS controlled) mode. Trust dscp
    made mlx5e_dcbnl_dscp_app() add an APP entry per DSCP d -> d >> 3 (so 26 -> 3 and
    48 -> 6) in the order 0..63; dcb_app_add() puts each at the head of the list, so the
    kernel reports them 63..0."""
    return ka.DcbConfig(
        ets=ka.IeeeEts(willing=0, ets_cap=8, cbs=0, tc_tx_bw=(100,) * 8,
                       tc_tsa=(ka.IEEE_8021QAZ_TSA_VENDOR,) * 8, prio_tc=(1, 0, 2, 3, 4, 5, 6, 7)),
        maxrate_kbps=(0,) * 8,
        pfc=ka.IeeePfc(pfc_cap=8, pfc_en=sum(1 << p for p in pfc_priorities), mbc=0, delay=7,
                       requests=tuple(pfc_tx if p == 3 else 0 for p in range(8)),
                       indications=tuple(pfc_rx if p == 3 else 0 for p in range(8))),
        buffer=ka.DcbBuffer(prio2buffer=(0, 0, 0, 1, 0, 0, 0, 0),
                            buffer_size=(130944, 261888, 0, 0, 0, 0, 0, 0), total_size=1048576),
        apps=[ka.DcbApp(ka.IEEE_8021QAZ_APP_SEL_DSCP, dscp >> 3, dscp) for dscp in range(63, -1, -1)]
        if trust_dscp else [],
        dcbx=ka.DCB_CAP_DCBX_HOST | ka.DCB_CAP_DCBX_VER_CEE | ka.DCB_CAP_DCBX_VER_IEEE,
    )


