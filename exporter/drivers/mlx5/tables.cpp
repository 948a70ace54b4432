// mlx5 (mlx5_core, mlx5_ib): ConnectX-4 and later.
//
// ethtool -S: drivers/net/ethernet/mellanox/mlx5/core/en_stats.c (torvalds/linux, kernels
// 5.x-6.x: pport_802_3_stats_desc, pport_2863_stats_desc, pport_2819_stats_desc,
// pport_phy_statistical_stats_desc, pport_per_prio_traffic/pfc, pport_pfc_stall_stats_desc,
// pcie_perf_stats_desc, vport_stats_desc), meanings from
// Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst; the kernel 4.4
// inbox names from en_main.c/en.h pport_strings[] of 4.4 (real dump:
// tests/fixtures/real/ethtool-S/mlx5-cx4lx-ubuntu16.04-4.4.txt).
// hw counters: drivers/infiniband/hw/mlx5/counters.c (kernels 5.x-6.x: basic_q_cnts,
// out_of_seq_q_cnts, retrans_q_cnts, extended_err_cnts, roce_accl_cnts, cong_cnts), meanings
// from NVIDIA's "Understanding mlx5 Linux Counters".

#include "exporter/drivers/all.h"

namespace rocewatch::drivers {
namespace {

constexpr double kMicroseconds = 1e-6;
constexpr double kPercent = 0.01;
using D = Direction;
using K = PriorityKind;
using E = TransportEvent;

// An IPoIB netdev of mlx5 (mlx5i_get_drvinfo) says "mlx5_core[ib_ipoib]".
constexpr std::string_view kNetdevDrivers[] = {"mlx5_core", "mlx5_core[ib_ipoib]"};
constexpr std::string_view kRdmaDrivers[] = {"mlx5_core", "mlx5_ib"};

// pport_per_prio_traffic ("rx_prio%d_bytes"), pport_per_prio_pfc ("rx_prio%d_pause",
// "_pause_duration", "_pause_transition"), MLNX_OFED's pport_per_tc_prio and
// pport_per_tc_congest_prio (_buf_discard, _cong_discard, _marked), and the MLNX_OFED 3.x /
// kernel 4.6-4.8 spelling "prio%d_rx_pause" (en_ethtool.c of that era, no dump seen).
// rx_prio%d_pause counts pause frames with a non-zero time (XOFF).
constexpr PriorityName kPriority[] = {
    {"rx_prio", "_pause", D::kRx, K::kPauseFrames, 1},
    {"tx_prio", "_pause", D::kTx, K::kPauseFrames, 1},
    {"rx_prio", "_pause_duration", D::kRx, K::kPauseDurationSeconds, kMicroseconds},
    {"tx_prio", "_pause_duration", D::kTx, K::kPauseDurationSeconds, kMicroseconds},
    {"rx_prio", "_pause_transition", D::kRx, K::kPauseTransitions, 1},
    {"rx_prio", "_bytes", D::kRx, K::kBytes, 1},
    {"tx_prio", "_bytes", D::kTx, K::kBytes, 1},
    {"rx_prio", "_packets", D::kRx, K::kPackets, 1},
    {"tx_prio", "_packets", D::kTx, K::kPackets, 1},
    {"rx_prio", "_discards", D::kRx, K::kDiscards, 1},
    {"rx_prio", "_buf_discard", D::kRx, K::kBufferDiscards, 1},
    {"rx_prio", "_cong_discard", D::kRx, K::kCongestionDiscards, 1},
    {"rx_prio", "_marked", D::kRx, K::kEcnMarked, 1},
    {"prio", "_rx_pause", D::kRx, K::kPauseFrames, 1},
    {"prio", "_tx_pause", D::kTx, K::kPauseFrames, 1},
    {"prio", "_rx_pause_duration", D::kRx, K::kPauseDurationSeconds, kMicroseconds},
    {"prio", "_tx_pause_duration", D::kTx, K::kPauseDurationSeconds, kMicroseconds},
    {"prio", "_rx_pause_transition", D::kRx, K::kPauseTransitions, 1},
    {"prio", "_rx_octets", D::kRx, K::kBytes, 1},
    {"prio", "_tx_octets", D::kTx, K::kBytes, 1},
    {"prio", "_rx_frames", D::kRx, K::kPackets, 1},
    {"prio", "_tx_frames", D::kTx, K::kPackets, 1},
};

constexpr PortName kPort[] = {
    {"rx_bytes_phy", "rx_bytes", 1},
    {"tx_bytes_phy", "tx_bytes", 1},
    {"rx_packets_phy", "rx_packets", 1},
    {"tx_packets_phy", "tx_packets", 1},
    {"rx_crc_errors_phy", "rx_crc_error_frames", 1},
    {"rx_symbol_err_phy", "rx_symbol_errors", 1},
    {"rx_pcs_symbol_err_phy", "rx_pcs_symbol_errors", 1},
    {"rx_corrected_bits_phy", "rx_fec_corrected_bit_errors", 1},
    {"rx_discards_phy", "rx_discarded_packets", 1},
    {"tx_discards_phy", "tx_discarded_packets", 1},
    {"tx_errors_phy", "tx_error_packets", 1},
    {"rx_out_of_buffer", "rx_out_of_buffer_packets", 1},
    {"rx_buffer_passed_thres_phy", "rx_buffer_almost_full_events", 1},
    {"rx_pause_ctrl_phy", "rx_pause_control_frames", 1},
    {"tx_pause_ctrl_phy", "tx_pause_control_frames", 1},
    {"rx_mac_control_phy", "rx_mac_control_frames", 1},
    {"tx_mac_control_phy", "tx_mac_control_frames", 1},
    {"rx_oversize_pkts_phy", "rx_oversize_frames", 1},
    {"rx_undersize_pkts_phy", "rx_undersize_frames", 1},
    {"rx_fragments_phy", "rx_fragment_frames", 1},
    {"rx_jabbers_phy", "rx_jabber_frames", 1},
    {"link_down_events_phy", "link_down_events", 1},
    {"total_success_recovery_phy", "link_recovery_events", 1},
    {"tx_pause_storm_warning_events", "tx_pause_storm_warning_events", 1},
    {"tx_pause_storm_error_events", "tx_pause_storm_error_events", 1},
    {"rx_global_pause", "rx_global_pause_frames", 1},
    {"tx_global_pause", "tx_global_pause_frames", 1},
    {"rx_global_pause_duration", "rx_global_pause_duration_seconds", kMicroseconds},
    {"tx_global_pause_duration", "tx_global_pause_duration_seconds", kMicroseconds},
    {"rx_global_pause_transition", "rx_global_pause_transitions", 1},
    {"rx_pci_signal_integrity", "pcie_rx_signal_integrity_errors", 1},
    {"tx_pci_signal_integrity", "pcie_tx_signal_integrity_errors", 1},
    {"outbound_pci_buffer_overflow", "pcie_outbound_buffer_overflow_packets", 1},
    {"outbound_pci_stalled_rd", "pcie_outbound_read_stalled_ratio", kPercent},
    {"outbound_pci_stalled_wr", "pcie_outbound_write_stalled_ratio", kPercent},
    {"outbound_pci_stalled_rd_events", "pcie_outbound_read_stalled_seconds", 1},
    {"outbound_pci_stalled_wr_events", "pcie_outbound_write_stalled_seconds", 1},
    {"rx_vport_rdma_unicast_packets", "rx_rdma_unicast_packets", 1},
    {"rx_vport_rdma_unicast_bytes", "rx_rdma_unicast_bytes", 1},
    {"tx_vport_rdma_unicast_packets", "tx_rdma_unicast_packets", 1},
    {"tx_vport_rdma_unicast_bytes", "tx_rdma_unicast_bytes", 1},
    {"rx_steer_missed_packets", "rx_steering_missed_packets", 1},
    {"rx_if_down_packets", "rx_interface_down_packets", 1},
    {"dev_internal_queue_oob", "device_internal_queue_out_of_buffer_packets", 1},
    {"rx_oversize_pkts_buffer", "rx_oversize_buffer_packets", 1},
    {"module_unplug", "module_unplug_events", 1},
    {"module_bus_stuck", "module_bus_stuck_events", 1},
    {"module_high_temp", "module_high_temperature_events", 1},
    {"module_bad_shorted", "module_bad_cable_events", 1},
    // Kernel 4.4 inbox (en_main.c pport_strings[], driver "3.0-1 (January 2015)") and its
    // MLNX_OFED 3.x backports: the same PPCNT fields under their IEEE 802.3 / RFC 2863 /
    // RFC 2819 names (pport_802_3_stats_desc: rx_packets_phy = a_frames_received_ok,
    // rx_crc_errors_phy = a_frame_check_sequence_errors …). The 4.4 set also has RFC 2863
    // in_octets, RFC 2819 octets, pkts, crc_align_errors and oversize_pkts, which newer
    // kernels dropped: they stay unmapped so that no kind is served twice.
    {"frames_rx", "rx_packets", 1},
    {"frames_tx", "tx_packets", 1},
    {"octets_received", "rx_bytes", 1},
    {"octets_tx", "tx_bytes", 1},
    {"check_seq_err", "rx_crc_error_frames", 1},
    {"symbol_err", "rx_symbol_errors", 1},
    {"too_long_errors", "rx_oversize_frames", 1},
    {"mac_control_rx", "rx_mac_control_frames", 1},
    {"mac_control_tx", "tx_mac_control_frames", 1},
    {"pause_ctrl_rx", "rx_pause_control_frames", 1},
    {"pause_ctrl_tx", "tx_pause_control_frames", 1},
    {"in_discards", "rx_discarded_packets", 1},
    {"out_discards", "tx_discarded_packets", 1},
    {"out_errors", "tx_error_packets", 1},
    {"undersize_pkts", "rx_undersize_frames", 1},
    {"fragments", "rx_fragment_frames", 1},
    {"jabbers", "rx_jabber_frames", 1},
    // Some 4.x en_stats.c spell the pause storm warning counter with a trailing space
    // (pport_pfc_stall_stats_desc: "tx_pause_storm_warning_events ").
    {"tx_pause_storm_warning_events ", "tx_pause_storm_warning_events", 1},
};

// counters.c. rnr_nak_retry_err counts RNR NAKs received (NVIDIA: "the QP retry limit was
// not exceeded"); req_rnr_retries_exceeded is the exceeded one. rp_cnp_ignored is read only
// with --collector.rdma.all-hw-counters (rdma/default_counters.cpp).
constexpr HwCounterName kHwCounters[] = {
    {"np_cnp_sent", E::kCnpSent},
    {"rp_cnp_handled", E::kCnpHandled},
    {"rp_cnp_ignored", E::kCnpIgnored},
    {"np_ecn_marked_roce_packets", E::kEcnMarked},
    {"out_of_sequence", E::kOutOfSequence},
    {"duplicate_request", E::kDuplicateRequest},
    {"packet_seq_err", E::kSequenceErrorNak},
    {"local_ack_timeout_err", E::kLocalAckTimeout},
    {"roce_adp_retrans", E::kRetransmits},
    {"req_transport_retries_exceeded", E::kRetryExceeded},
    {"rnr_nak_retry_err", E::kRnrNakReceived},
    {"req_rnr_retries_exceeded", E::kRnrRetryExceeded},
    {"implied_nak_seq_err", E::kImpliedNakSequenceError},
};

// mlx5_ib's hw counters read only with --collector.rdma.all-hw-counters: the responder's
// operation mix (volume is roce_port_*_total); work requests flushed after a QP entered the
// error state (they follow the error counted elsewhere); the application-error breakdown of
// req_cqe_error and resp_cqe_error, which stay; congestion-control internals (rp_cnp_handled
// and np_cnp_sent stay).
constexpr std::string_view kDetailHwCounters[] = {
    "rx_write_requests",        "rx_read_requests",           "rx_atomic_requests",
    "rx_dct_connect",           "req_cqe_flush_error",        "resp_cqe_flush_error",
    "req_remote_access_errors", "req_remote_invalid_request", "resp_remote_access_errors",
    "resp_local_length_error",  "roce_slow_restart",          "roce_slow_restart_cnps",
    "roce_slow_restart_trans",  "rp_cnp_ignored",
};

constexpr std::string_view kQuirks[] = {
    "per-priority PFC counters are listed only for priorities with PFC enabled, global pause "
    "counters only while 802.3x pause is on: absent is not zero",
    "pause durations count microseconds",
    "a VF's per-priority counters repeat the PF's physical port (not served on a VF)",
    "hw counters: the operation counts, flush errors and congestion-control internals are "
    "read only with --collector.rdma.all-hw-counters",
};

constexpr Driver kDriver{
    "mlx5",
    kNetdevDrivers,
    kRdmaDrivers,
    1,  // RDMA_DRIVER_MLX5
    "drivers/net/ethernet/mellanox/mlx5/core/en_stats.c (kernels 5.x-6.x; 4.4 en_main.c)",
    "drivers/infiniband/hw/mlx5/counters.c (kernels 5.x-6.x)",
    kPriority,
    kPort,
    {},
    {},
    kHwCounters,
    EcnSettings::kMlx5Sysfs,
    "sysfs class/net/<netdev>/ecn/roce_{np,rp}/enable/<priority>; debugfs "
    "mlx5/<pci>/cc_params/",
    kQuirks,
    "drivers/net/ethernet/mellanox/mlx5/core/en_ethtool.c (mlx5e_ethtool_ops, kernels 5.x-6.x)",
    kDetailHwCounters,
};

}  // namespace

const Driver& Mlx5Driver() { return kDriver; }

}  // namespace rocewatch::drivers
