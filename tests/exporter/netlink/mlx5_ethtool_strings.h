#pragma once

// Test support: the ETH_SS_STATS names an mlx5 port (ConnectX-6/7, kernel 6.8-era
// drivers/net/ethernet/mellanox/mlx5/core/en_stats.c, CONFIG_MLX5_EN_TLS and _ARFS on)
// reports with 8 channels, one traffic class, PFC on priority 3, the PTP TX queue open and
// no AF_XDP. Groups in the order of mlx5e_nic_stats_grps[]. The same list is in
// mlx5_ethtool_strings.txt (one name a line) for the Python fixture generator; a test
// checks that the two agree and rewrites the file when ROCEWATCH_UPDATE_FIXTURES=1.

#include <string>
#include <vector>

namespace rocewatch::testing {

inline constexpr int kMlx5Channels = 8;
inline constexpr int kMlx5PfcPriority = 3;

inline std::vector<std::string> Mlx5EthtoolStrings() {
  std::vector<std::string> out;
  auto add = [&out](std::initializer_list<const char*> names) {
    for (const char* n : names) out.emplace_back(n);
  };
  auto add_prefixed = [&out](const std::string& prefix, std::initializer_list<const char*> names) {
    for (const char* n : names) out.push_back(prefix + n);
  };

  // sw: software counters summed over all channels.
  add({"rx_packets",
       "rx_bytes",
       "tx_packets",
       "tx_bytes",
       "tx_tso_packets",
       "tx_tso_bytes",
       "tx_tso_inner_packets",
       "tx_tso_inner_bytes",
       "tx_added_vlan_packets",
       "tx_nop",
       "tx_mpwqe_blks",
       "tx_mpwqe_pkts",
       "tx_tls_encrypted_packets",
       "tx_tls_encrypted_bytes",
       "tx_tls_ooo",
       "tx_tls_dump_packets",
       "tx_tls_dump_bytes",
       "tx_tls_resync_bytes",
       "tx_tls_skip_no_sync_data",
       "tx_tls_drop_no_sync_data",
       "tx_tls_drop_bypass_req",
       "rx_lro_packets",
       "rx_lro_bytes",
       "rx_gro_packets",
       "rx_gro_bytes",
       "rx_gro_skbs",
       "rx_gro_large_hds",
       "rx_ecn_mark",
       "rx_removed_vlan_packets",
       "rx_csum_unnecessary",
       "rx_csum_none",
       "rx_csum_complete",
       "rx_csum_complete_tail",
       "rx_csum_complete_tail_slow",
       "rx_csum_unnecessary_inner",
       "rx_xdp_drop",
       "rx_xdp_redirect",
       "rx_xdp_tx_xmit",
       "rx_xdp_tx_mpwqe",
       "rx_xdp_tx_inlnw",
       "rx_xdp_tx_nops",
       "rx_xdp_tx_full",
       "rx_xdp_tx_err",
       "rx_xdp_tx_cqe",
       "tx_csum_none",
       "tx_csum_partial",
       "tx_csum_partial_inner",
       "tx_queue_stopped",
       "tx_queue_dropped",
       "tx_xmit_more",
       "tx_recover",
       "tx_cqes",
       "tx_queue_wake",
       "tx_cqe_err",
       "tx_xdp_xmit",
       "tx_xdp_mpwqe",
       "tx_xdp_inlnw",
       "tx_xdp_nops",
       "tx_xdp_full",
       "tx_xdp_err",
       "tx_xdp_cqes",
       "rx_wqe_err",
       "rx_mpwqe_filler_cqes",
       "rx_mpwqe_filler_strides",
       "rx_oversize_pkts_sw_drop",
       "rx_buff_alloc_err",
       "rx_cqe_compress_blks",
       "rx_cqe_compress_pkts",
       "rx_congst_umr",
       "rx_arfs_add",
       "rx_arfs_request_in",
       "rx_arfs_request_out",
       "rx_arfs_expired",
       "rx_arfs_err",
       "rx_recover",
       "rx_pp_alloc_fast",
       "rx_pp_alloc_slow",
       "rx_pp_alloc_slow_high_order",
       "rx_pp_alloc_empty",
       "rx_pp_alloc_refill",
       "rx_pp_alloc_waive",
       "rx_pp_recycle_cached",
       "rx_pp_recycle_cache_full",
       "rx_pp_recycle_ring",
       "rx_pp_recycle_ring_full",
       "rx_pp_recycle_released_ref",
       "rx_tls_decrypted_packets",
       "rx_tls_decrypted_bytes",
       "rx_tls_resync_req_pkt",
       "rx_tls_resync_req_start",
       "rx_tls_resync_req_end",
       "rx_tls_resync_req_skip",
       "rx_tls_resync_res_ok",
       "rx_tls_resync_res_retry",
       "rx_tls_resync_res_skip",
       "rx_tls_err",
       "ch_events",
       "ch_poll",
       "ch_arm",
       "ch_aff_change",
       "ch_force_irq",
       "ch_eq_rearm",
       "rx_xsk_packets",
       "rx_xsk_bytes",
       "rx_xsk_csum_complete",
       "rx_xsk_csum_unnecessary",
       "rx_xsk_csum_unnecessary_inner",
       "rx_xsk_csum_none",
       "rx_xsk_ecn_mark",
       "rx_xsk_removed_vlan_packets",
       "rx_xsk_xdp_drop",
       "rx_xsk_xdp_redirect",
       "rx_xsk_wqe_err",
       "rx_xsk_mpwqe_filler_cqes",
       "rx_xsk_mpwqe_filler_strides",
       "rx_xsk_oversize_pkts_sw_drop",
       "rx_xsk_buff_alloc_err",
       "rx_xsk_cqe_compress_blks",
       "rx_xsk_cqe_compress_pkts",
       "rx_xsk_congst_umr",
       "tx_xsk_xmit",
       "tx_xsk_mpwqe",
       "tx_xsk_inlnw",
       "tx_xsk_full",
       "tx_xsk_err",
       "tx_xsk_cqes"});
  // qcnt, vnic_env, vport.
  add({"rx_out_of_buffer", "rx_if_down_packets", "rx_steer_missed_packets",
       "dev_internal_queue_oob", "rx_oversize_pkts_buffer"});
  add({"rx_vport_unicast_packets",        "rx_vport_unicast_bytes",
       "tx_vport_unicast_packets",        "tx_vport_unicast_bytes",
       "rx_vport_multicast_packets",      "rx_vport_multicast_bytes",
       "tx_vport_multicast_packets",      "tx_vport_multicast_bytes",
       "rx_vport_broadcast_packets",      "rx_vport_broadcast_bytes",
       "tx_vport_broadcast_packets",      "tx_vport_broadcast_bytes",
       "rx_vport_rdma_unicast_packets",   "rx_vport_rdma_unicast_bytes",
       "tx_vport_rdma_unicast_packets",   "tx_vport_rdma_unicast_bytes",
       "rx_vport_rdma_multicast_packets", "rx_vport_rdma_multicast_bytes",
       "tx_vport_rdma_multicast_packets", "tx_vport_rdma_multicast_bytes",
       "vport_loopback_packets",          "vport_loopback_bytes"});
  // 802_3, 2863, 2819 (PPCNT counter groups).
  add({"tx_packets_phy", "rx_packets_phy", "rx_crc_errors_phy", "tx_bytes_phy", "rx_bytes_phy",
       "tx_multicast_phy", "tx_broadcast_phy", "rx_multicast_phy", "rx_broadcast_phy",
       "rx_in_range_len_errors_phy", "rx_out_of_range_len_phy", "rx_oversize_pkts_phy",
       "rx_symbol_err_phy", "tx_mac_control_phy", "rx_mac_control_phy", "rx_unsupported_op_phy",
       "rx_pause_ctrl_phy", "tx_pause_ctrl_phy"});
  add({"rx_discards_phy", "tx_discards_phy", "tx_errors_phy"});
  add({"rx_undersize_pkts_phy", "rx_fragments_phy", "rx_jabbers_phy", "rx_64_bytes_phy",
       "rx_65_to_127_bytes_phy", "rx_128_to_255_bytes_phy", "rx_256_to_511_bytes_phy",
       "rx_512_to_1023_bytes_phy", "rx_1024_to_1518_bytes_phy", "rx_1519_to_2047_bytes_phy",
       "rx_2048_to_4095_bytes_phy", "rx_4096_to_8191_bytes_phy", "rx_8192_to_10239_bytes_phy"});
  // phy, eth_ext, pcie.
  add({"link_down_events_phy", "rx_pcs_symbol_err_phy", "rx_corrected_bits_phy",
       "rx_err_lane_0_phy", "rx_err_lane_1_phy", "rx_err_lane_2_phy", "rx_err_lane_3_phy",
       "total_success_recovery_phy"});
  add({"rx_buffer_passed_thres_phy"});
  add({"rx_pci_signal_integrity", "tx_pci_signal_integrity", "outbound_pci_buffer_overflow",
       "outbound_pci_stalled_rd", "outbound_pci_stalled_wr", "outbound_pci_stalled_rd_events",
       "outbound_pci_stalled_wr_events"});
  // per_prio: traffic for every priority, PFC for the enabled one, pause-storm counters.
  for (int p = 0; p < 8; ++p) {
    const std::string prio = std::to_string(p);
    for (const char* f : {"rx_prio%_bytes", "rx_prio%_packets", "rx_prio%_discards",
                          "tx_prio%_bytes", "tx_prio%_packets"}) {
      std::string name = f;
      name.replace(name.find('%'), 1, prio);
      out.push_back(name);
    }
  }
  {
    const std::string p = "prio" + std::to_string(kMlx5PfcPriority);
    for (const char* f : {"rx_%_pause", "rx_%_pause_duration", "tx_%_pause", "tx_%_pause_duration",
                          "rx_%_pause_transition"}) {
      std::string name = f;
      name.replace(name.find('%'), 1, p);
      out.push_back(name);
    }
  }
  add({"tx_pause_storm_warning_events", "tx_pause_storm_error_events"});
  // pme.
  add({"module_unplug", "module_bus_stuck", "module_high_temp", "module_bad_shorted"});

  // channels: ch, then per channel rq and rq_xdpsq, then sq (one TC), then xdpsq.
  for (int i = 0; i < kMlx5Channels; ++i) {
    add_prefixed("ch" + std::to_string(i) + "_",
                 {"events", "poll", "arm", "aff_change", "force_irq", "eq_rearm"});
  }
  for (int i = 0; i < kMlx5Channels; ++i) {
    add_prefixed("rx" + std::to_string(i) + "_", {"packets",
                                                  "bytes",
                                                  "csum_complete",
                                                  "csum_complete_tail",
                                                  "csum_complete_tail_slow",
                                                  "csum_unnecessary",
                                                  "csum_unnecessary_inner",
                                                  "csum_none",
                                                  "xdp_drop",
                                                  "xdp_redirect",
                                                  "lro_packets",
                                                  "lro_bytes",
                                                  "gro_packets",
                                                  "gro_bytes",
                                                  "gro_skbs",
                                                  "gro_large_hds",
                                                  "ecn_mark",
                                                  "removed_vlan_packets",
                                                  "wqe_err",
                                                  "mpwqe_filler_cqes",
                                                  "mpwqe_filler_strides",
                                                  "oversize_pkts_sw_drop",
                                                  "buff_alloc_err",
                                                  "cqe_compress_blks",
                                                  "cqe_compress_pkts",
                                                  "congst_umr",
                                                  "arfs_add",
                                                  "arfs_request_in",
                                                  "arfs_request_out",
                                                  "arfs_expired",
                                                  "arfs_err",
                                                  "recover",
                                                  "pp_alloc_fast",
                                                  "pp_alloc_slow",
                                                  "pp_alloc_slow_high_order",
                                                  "pp_alloc_empty",
                                                  "pp_alloc_refill",
                                                  "pp_alloc_waive",
                                                  "pp_recycle_cached",
                                                  "pp_recycle_cache_full",
                                                  "pp_recycle_ring",
                                                  "pp_recycle_ring_full",
                                                  "pp_recycle_released_ref",
                                                  "tls_decrypted_packets",
                                                  "tls_decrypted_bytes",
                                                  "tls_resync_req_pkt",
                                                  "tls_resync_req_start",
                                                  "tls_resync_req_end",
                                                  "tls_resync_req_skip",
                                                  "tls_resync_res_ok",
                                                  "tls_resync_res_retry",
                                                  "tls_resync_res_skip",
                                                  "tls_err"});
    add_prefixed("rx" + std::to_string(i) + "_xdp_tx_",
                 {"xmit", "mpwqe", "inlnw", "nops", "full", "err", "cqes"});
  }
  for (int i = 0; i < kMlx5Channels; ++i) {
    add_prefixed("tx" + std::to_string(i) + "_", {"packets",
                                                  "bytes",
                                                  "tso_packets",
                                                  "tso_bytes",
                                                  "tso_inner_packets",
                                                  "tso_inner_bytes",
                                                  "csum_partial",
                                                  "csum_partial_inner",
                                                  "added_vlan_packets",
                                                  "nop",
                                                  "timestamps",
                                                  "mpwqe_blks",
                                                  "mpwqe_pkts",
                                                  "tls_encrypted_packets",
                                                  "tls_encrypted_bytes",
                                                  "tls_ooo",
                                                  "tls_dump_packets",
                                                  "tls_dump_bytes",
                                                  "tls_resync_bytes",
                                                  "tls_skip_no_sync_data",
                                                  "tls_drop_no_sync_data",
                                                  "tls_drop_bypass_req",
                                                  "csum_none",
                                                  "stopped",
                                                  "dropped",
                                                  "xmit_more",
                                                  "recover",
                                                  "cqes",
                                                  "wake",
                                                  "cqe_err"});
  }
  for (int i = 0; i < kMlx5Channels; ++i) {
    add_prefixed("tx" + std::to_string(i) + "_xdp_",
                 {"xmit", "mpwqe", "inlnw", "nops", "full", "err", "cqes"});
  }

  // per_port_buff_congest: per priority buffer and congestion discards, ECN marks.
  for (int p = 0; p < 8; ++p) {
    const std::string prio = "rx_prio" + std::to_string(p);
    out.push_back(prio + "_buf_discard");
    out.push_back(prio + "_cong_discard");
    out.push_back(prio + "_marked");
  }

  // ptp: the PTP channel with its TX queue for TC 0.
  add_prefixed("ptp_ch_", {"events", "poll", "arm", "eq_rearm"});
  add_prefixed("ptp_tx0_", {"packets", "bytes", "csum_partial", "csum_partial_inner",
                            "added_vlan_packets", "nop", "csum_none", "stopped", "dropped",
                            "xmit_more", "recover", "cqes", "wake", "cqe_err"});
  add_prefixed("ptp_cq0_",
               {"cqe", "err_cqe", "abort", "abort_abs_diff_ns", "late_cqe", "lost_cqe"});
  return out;
}

}  // namespace rocewatch::testing
