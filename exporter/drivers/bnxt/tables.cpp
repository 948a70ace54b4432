// bnxt (Broadcom NetXtreme-E/C: BCM573xx/574xx, Thor BCM575xx) with bnxt_re for RDMA.
//
// ethtool -S: drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c (torvalds/linux, kernels
// 5.x-6.x: bnxt_port_stats_arr, bnxt_port_stats_ext_arr, bnxt_rx_bytes_pri_arr,
// bnxt_rx_pkts_pri_arr, bnxt_tx_bytes_pri_arr, bnxt_tx_pkts_pri_arr and the
// BNXT_RX/TX_STATS_EXT_PFC_ENTRY names; ring statistics as "[%d]: %s"), field meanings from
// the HWRM port statistics (bnxt_hsi.h: rx_port_stats, rx_port_stats_ext).
//   - rx/tx_pfc_ena_frames_pri<N> count every PFC frame whose class-enable vector names
//     priority N, resume frames (XON, time 0) included: served as roce_pfc_frames_total,
//     never as pause frames.
//   - pfc_pri<N>_rx/tx_duration_us: time paused, in microseconds.
//   - pfc_pri<N>_rx/tx_transitions: rx/tx_pfc_xon2xoff_transitions_pri<N>, XON -> XOFF, i.e.
//     pauses entered (mlx5 counts the XOFF -> XON edge; they differ by the pause under way).
//   - rx/tx_bytes_pri<N>, rx/tx_packets_pri<N>: the per-CoS counters read through the
//     priority-to-CoS map (bnxt_ethtool.c bnxt_get_ethtool_stats), so per priority; the raw
//     *_cos<N> counters are per hardware queue and are not served as priorities.
// hw counters: drivers/infiniband/hw/bnxt_re/hw_counters.c bnxt_re_stat_descs (kernels
// 4.14-6.x; tx_cnp_pkts, rx_cnp_pkts and rx_ecn_marked_pkts from 6.4, renamed np_cnp_pkts,
// rp_cnp_handled and np_ecn_marked_roce_packets by a later patch: both spellings listed).

#include "exporter/drivers/all.h"

namespace rocewatch::drivers {
namespace {

constexpr double kMicroseconds = 1e-6;
using D = Direction;
using K = PriorityKind;
using E = TransportEvent;

constexpr std::string_view kNetdevDrivers[] = {"bnxt_en"};
constexpr std::string_view kRdmaDrivers[] = {"bnxt_en", "bnxt_re"};

constexpr PriorityName kPriority[] = {
    {"rx_pfc_ena_frames_pri", "", D::kRx, K::kPfcFrames, 1},
    {"tx_pfc_ena_frames_pri", "", D::kTx, K::kPfcFrames, 1},
    {"pfc_pri", "_rx_duration_us", D::kRx, K::kPauseDurationSeconds, kMicroseconds},
    {"pfc_pri", "_tx_duration_us", D::kTx, K::kPauseDurationSeconds, kMicroseconds},
    {"pfc_pri", "_rx_transitions", D::kRx, K::kPauseTransitions, 1},
    {"pfc_pri", "_tx_transitions", D::kTx, K::kPauseTransitions, 1},
    {"rx_bytes_pri", "", D::kRx, K::kBytes, 1},
    {"tx_bytes_pri", "", D::kTx, K::kBytes, 1},
    {"rx_packets_pri", "", D::kRx, K::kPackets, 1},
    {"tx_packets_pri", "", D::kTx, K::kPackets, 1},
};

// rx/tx_pause_frames: 802.3x pause frames (global pause); rx_good_frames/tx_good_frames:
// frames without error; rx/tx_stat_discard: the port's discards.
constexpr PortName kPort[] = {
    {"rx_bytes", "rx_bytes", 1},
    {"tx_bytes", "tx_bytes", 1},
    {"rx_good_frames", "rx_packets", 1},
    {"tx_good_frames", "tx_packets", 1},
    {"rx_fcs_err_frames", "rx_crc_error_frames", 1},
    {"rx_pcs_symbol_err", "rx_pcs_symbol_errors", 1},
    {"rx_corrected_bits", "rx_fec_corrected_bit_errors", 1},
    {"rx_stat_discard", "rx_discarded_packets", 1},
    {"tx_stat_discard", "tx_discarded_packets", 1},
    {"rx_buffer_passed_threshold", "rx_buffer_almost_full_events", 1},
    {"rx_pause_frames", "rx_global_pause_frames", 1},
    {"tx_pause_frames", "tx_global_pause_frames", 1},
    {"rx_ctrl_frames", "rx_mac_control_frames", 1},
    {"rx_ovrsz_frames", "rx_oversize_frames", 1},
    {"rx_undrsz_frames", "rx_undersize_frames", 1},
    {"rx_jbr_frames", "rx_jabber_frames", 1},
    {"link_down_events", "link_down_events", 1},
};

// Known, no family: per hardware queue (CoS) counters, whose priority depends on the ETS
// queue map; PFC frame totals over all priorities (rx/tx_pfc_frames); FEC codewords (the fec
// collector serves them from ethtool netlink); frame-size bins and other MAC detail; the
// software ring totals.
constexpr KnownName kKnown[] = {
    {"rx_bytes_cos", "", true},          {"rx_packets_cos", "", true},
    {"tx_bytes_cos", "", true},          {"tx_packets_cos", "", true},
    {"rx_discard_bytes_cos", "", true},  {"rx_discard_packets_cos", "", true},
    {"rx_pfc_frames", "", false},        {"tx_pfc_frames", "", false},
    {"rx_fec_corrected_blocks", "", false}, {"rx_fec_uncorrectable_blocks", "", false},
    {"rx_bits", "", false},              {"rx_total_frames", "", false},
    {"tx_total_frames", "", false},      {"rx_ucast_frames", "", false},
    {"rx_mcast_frames", "", false},      {"rx_bcast_frames", "", false},
    {"tx_ucast_frames", "", false},      {"tx_mcast_frames", "", false},
    {"tx_bcast_frames", "", false},      {"rx_align_err_frames", "", false},
    {"rx_mtu_err_frames", "", false},    {"rx_tagged_frames", "", false},
    {"rx_double_tagged_frames", "", false}, {"rx_runt_bytes", "", false},
    {"rx_runt_frames", "", false},       {"rx_stat_err", "", false},
    {"tx_stat_error", "", false},        {"tx_err", "", false},
    {"tx_jabber_frames", "", false},     {"tx_fcs_err_frames", "", false},
    {"tx_fifo_underruns", "", false},    {"tx_total_collisions", "", false},
    {"tx_xthol_frames", "", false},      {"rx_eee_lpi_events", "", false},
    {"rx_eee_lpi_duration", "", false},  {"tx_eee_lpi_events", "", false},
    {"tx_eee_lpi_duration", "", false},  {"rx_good_vlan_frames", "", false},
    {"tx_good_vlan_frames", "", false},  {"continuous_pause_events", "", false},
    {"resume_pause_events", "", false},  {"continuous_roce_pause_events", "", false},
    {"resume_roce_pause_events", "", false},
};

constexpr QueueName kQueues[] = {{"[", "]: ", "ring"}};  // "[%d]: %s" ring statistics

constexpr HwCounterName kHwCounters[] = {
    {"tx_cnp_pkts", E::kCnpSent},
    {"np_cnp_pkts", E::kCnpSent},
    {"rx_cnp_pkts", E::kCnpHandled},
    {"rp_cnp_handled", E::kCnpHandled},
    {"rx_ecn_marked_pkts", E::kEcnMarked},
    {"np_ecn_marked_roce_packets", E::kEcnMarked},
    {"oos_drop_count", E::kOutOfSequence},
    {"dup_req", E::kDuplicateRequest},
    {"seq_err_naks_rcvd", E::kSequenceErrorNak},
    {"to_retransmits", E::kLocalAckTimeout},
    {"max_retry_exceeded", E::kRetryExceeded},
    {"rnr_naks_rcvd", E::kRnrNakReceived},
};

// bnxt_re's hw counters read only with --collector.rdma.all-hw-counters (the 6.8 names of a
// Thor port, hw_counters.c bnxt_re_stat_descs): resource counts and their high-water marks
// (gauges, which roce_rdma_resources serves from RDMA netlink); traffic volume (rx/tx_pkts,
// _bytes, the RoCE-only and good-packet counts: roce_port_*_total and ethtool serve it); the
// operation mix; doorbell pacing internals; the responder's error breakdown (res_*) of the
// error counters that stay (remote_*_err, local_*_err, bad_resp_err, …).
constexpr std::string_view kDetailHwCounters[] = {
    "active_pds", "active_ahs", "active_qps", "active_rc_qps", "active_ud_qps", "active_srqs",
    "active_cqs", "active_mrs", "active_mws", "watermark_pds", "watermark_ahs", "watermark_qps",
    "watermark_rc_qps", "watermark_ud_qps", "watermark_srqs", "watermark_cqs", "watermark_mrs",
    "watermark_mws", "resize_cq_cnt", "rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes",
    "res_exceed_max", "res_length_mismatch", "res_exceeds_wqe", "res_opcode_err",
    "res_rx_invalid_rkey", "res_rx_domain_err", "res_rx_no_perm", "res_rx_range_err",
    "res_tx_invalid_rkey", "res_tx_domain_err", "res_tx_no_perm", "res_tx_range_err",
    "res_irrq_oflow", "res_unsup_opcode", "res_unaligned_atomic", "res_rem_inv_err",
    "res_mem_err", "res_srq_err", "res_cmp_err", "res_invalid_dup_rkey", "res_wqe_format_err",
    "res_cq_load_err", "res_srq_load_err", "res_tx_pci_err", "res_rx_pci_err",
    "tx_atomic_req", "tx_read_req", "tx_read_resp", "tx_write_req", "tx_send_req",
    "tx_roce_only_pkts", "tx_roce_only_bytes", "rx_atomic_req", "rx_read_req", "rx_read_resp",
    "rx_write_req", "rx_send_req", "rx_roce_only_pkts", "rx_roce_only_bytes",
    "rx_roce_good_pkts", "rx_roce_good_bytes", "pacing_reschedule", "pacing_complete",
    "pacing_alerts", "db_fifo_register",
};

constexpr std::string_view kQuirks[] = {
    "rx/tx_pfc_ena_frames_pri<N> include resume (XON) frames: roce_pfc_frames_total, not "
    "roce_pfc_pause_frames_total; a pause shows as roce_pfc_pause_duration_seconds_total",
    "per-priority bytes and packets go through the priority-to-CoS map; the *_cos<N> "
    "counters are per hardware queue",
    "bnxt_re answers EINVAL for port 0 hw counters and for PMA reads it cannot answer",
    "bnxt_re counts CNPs received without telling handled from ignored: rx_cnp_pkts is "
    "cnp_handled",
};

constexpr Driver kDriver{
    "bnxt",
    kNetdevDrivers,
    kRdmaDrivers,
    6,  // RDMA_DRIVER_BNXT_RE
    "drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c (kernels 5.x-6.x)",
    "drivers/infiniband/hw/bnxt_re/hw_counters.c (kernels 4.14-6.x)",
    kPriority,
    kPort,
    kKnown,
    kQueues,
    kHwCounters,
    EcnSettings::kBnxtReConfigfs,
    "configfs bnxt_re/<ibdev>/ports/<port>/cc/ of Broadcom's own bnxt_re (ecn_enable, "
    "cnp_dscp, cnp_prio read; the group exists once something made it with mkdir)",
    kQuirks,
    {},  // bnxt_get_link asks the firmware: the link state is not the carrier
    kDetailHwCounters,
};

}  // namespace

const Driver& BnxtDriver() { return kDriver; }

}  // namespace rocewatch::drivers
