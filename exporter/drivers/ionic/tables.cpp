// ionic (AMD Pensando DSC / Pollara).
//
// ethtool -S: drivers/net/ethernet/pensando/ionic/ionic_stats.c (torvalds/linux, kernels
// 5.5-6.x: ionic_lif_stats_desc, ionic_port_stats_desc; queues as "tx_%d_%s"/"rx_%d_%s"),
// meanings from ionic_if.h struct ionic_port_stats.
//   - frames_rx_pri_<N>/frames_tx_pri_<N>: frames per priority.
//   - rx/tx_pripause_<N>_1us_count: time paused on priority N in microseconds (rx: the peer
//     paused us); there is no per-priority PFC frame count (frames_rx_pripause counts PFC
//     frames of all priorities together).
// hw counters: the ionic RDMA driver takes its counter names from the device firmware at run
// time (no fixed table in the kernel), so none is mapped to a transport event here.

#include "exporter/drivers/all.h"

namespace rocewatch::drivers {
namespace {

constexpr double kMicroseconds = 1e-6;
using D = Direction;
using K = PriorityKind;

constexpr std::string_view kNetdevDrivers[] = {"ionic"};
constexpr std::string_view kRdmaDrivers[] = {"ionic", "ionic_rdma"};

constexpr PriorityName kPriority[] = {
    {"frames_rx_pri_", "", D::kRx, K::kPackets, 1},
    {"frames_tx_pri_", "", D::kTx, K::kPackets, 1},
    {"rx_pripause_", "_1us_count", D::kRx, K::kPauseDurationSeconds, kMicroseconds},
    {"tx_pripause_", "_1us_count", D::kTx, K::kPauseDurationSeconds, kMicroseconds},
};

constexpr PortName kPort[] = {
    {"octets_rx_ok", "rx_bytes", 1},
    {"octets_tx_ok", "tx_bytes", 1},
    {"frames_rx_ok", "rx_packets", 1},
    {"frames_tx_ok", "tx_packets", 1},
    {"frames_rx_bad_fcs", "rx_crc_error_frames", 1},
    {"frames_rx_dropped", "rx_discarded_packets", 1},
    {"frames_rx_pause", "rx_global_pause_frames", 1},
    {"frames_tx_pause", "tx_global_pause_frames", 1},
    {"rx_pause_1us_count", "rx_global_pause_duration_seconds", kMicroseconds},
    {"frames_rx_undersized", "rx_undersize_frames", 1},
    {"frames_rx_oversized", "rx_oversize_frames", 1},
    {"frames_rx_fragments", "rx_fragment_frames", 1},
    {"frames_rx_jabber", "rx_jabber_frames", 1},
};

// Known, no family: all-priority PFC frame totals, the LIF's software totals, size bins and
// other MAC detail.
constexpr KnownName kKnown[] = {
    {"frames_rx_pripause", "", false}, {"frames_tx_pripause", "", false},
    {"frames_rx_all", "", false},      {"frames_rx_bad_all", "", false},
    {"octets_rx_all", "", false},      {"frames_rx_unicast", "", false},
    {"frames_rx_multicast", "", false}, {"frames_rx_broadcast", "", false},
    {"frames_rx_bad_length", "", false}, {"frames_rx_stomped_crc", "", false},
    {"frames_rx_too_long", "", false}, {"frames_rx_vlan_good", "", false},
    {"frames_tx_all", "", false},      {"frames_tx_bad", "", false},
    {"octets_tx_total", "", false},    {"frames_tx_unicast", "", false},
    {"frames_tx_multicast", "", false}, {"frames_tx_broadcast", "", false},
    {"frames_tx_vlan", "", false},     {"frames_tx_truncated", "", false},
    {"rx_bits_phy", "", false},        {"tx_packets", "", false},
    {"tx_bytes", "", false},           {"rx_packets", "", false},
    {"rx_bytes", "", false},           {"hw_tx_dropped", "", false},
    {"hw_rx_dropped", "", false},      {"hw_rx_over_errors", "", false},
    {"hw_rx_missed_errors", "", false}, {"hw_tx_aborted_errors", "", false},
};

constexpr QueueName kQueues[] = {{"tx_", "_", "tx"}, {"rx_", "_", "rx"}};  // "tx_%d_%s", "rx_%d_%s"

constexpr std::string_view kQuirks[] = {
    "no per-priority PFC frame counter: pause shows as roce_pfc_pause_duration_seconds_total",
    "no link-down counter and no FEC/symbol error counters in ethtool -S",
    "RDMA hw counter names come from the firmware at run time: served raw only",
};

constexpr Driver kDriver{
    "ionic",
    kNetdevDrivers,
    kRdmaDrivers,
    21,  // RDMA_DRIVER_IONIC (kernel 6.18)
    "drivers/net/ethernet/pensando/ionic/ionic_stats.c (kernels 5.5-6.x)",
    "drivers/infiniband/hw/ionic (names from the firmware)",
    kPriority,
    kPort,
    kKnown,
    kQueues,
    {},
    EcnSettings::kNotExposed,
    "not exposed by this driver: ionic keeps DCQCN in the device, set by AMD's tools; the "
    "kernel has no file for it",
    kQuirks,
    "drivers/net/ethernet/pensando/ionic/ionic_ethtool.c (ionic_ethtool_ops, kernels 5.5-6.x)",
};

}  // namespace

const Driver& IonicDriver() { return kDriver; }

}  // namespace rocewatch::drivers
