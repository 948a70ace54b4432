// ice (Intel E810) with irdma for RDMA.
//
// ethtool -S: drivers/net/ethernet/intel/ice/ice_ethtool.c (torvalds/linux, kernels 5.10-6.x:
// ice_gstrings_pf_stats, the ".nic" port statistics, and the per-priority
// "tx_priority_%u_xon.nic"/"_xoff.nic", "rx_priority_%u_xon.nic"/"_xoff.nic" from
// ice_get_strings; Intel's out-of-tree ice prints the same without ".nic" in some versions).
// The priority XOFF counters count PFC frames that pause (PRCXOFFRXC/PXOFFTXC registers); the
// XON counters, the resume frames, are known and not served as pause.
// hw counters: drivers/infiniband/hw/irdma/verbs.c irdma_hw_stat_names (kernels 5.14-6.x;
// gen2, E810: cnpHandled, cnpIgnored, cnpSent, RxECNMrkd); the IP/TCP/RDMA-operation counters
// have no transport event (RetransSegs counts TCP segments: iWARP, not RoCE).

#include "exporter/drivers/all.h"

namespace rocewatch::drivers {
namespace {

using D = Direction;
using K = PriorityKind;
using E = TransportEvent;

constexpr std::string_view kNetdevDrivers[] = {"ice"};
constexpr std::string_view kRdmaDrivers[] = {"ice", "irdma"};

constexpr PriorityName kPriority[] = {
    {"rx_priority_", "_xoff.nic", D::kRx, K::kPauseFrames, 1},
    {"tx_priority_", "_xoff.nic", D::kTx, K::kPauseFrames, 1},
    {"rx_priority_", "_xoff", D::kRx, K::kPauseFrames, 1},
    {"tx_priority_", "_xoff", D::kTx, K::kPauseFrames, 1},
};

// ice_gstrings_pf_stats: link_xoff_* count 802.3x XOFF frames (what mlx5 calls global pause);
// rx_dropped.nic is eth.rx_discards (the port dropped for lack of buffers).
constexpr PortName kPort[] = {
    {"rx_bytes.nic", "rx_bytes", 1},
    {"tx_bytes.nic", "tx_bytes", 1},
    {"rx_crc_errors.nic", "rx_crc_error_frames", 1},
    {"rx_undersize.nic", "rx_undersize_frames", 1},
    {"rx_fragments.nic", "rx_fragment_frames", 1},
    {"rx_oversize.nic", "rx_oversize_frames", 1},
    {"rx_jabber.nic", "rx_jabber_frames", 1},
    {"rx_dropped.nic", "rx_discarded_packets", 1},
    {"link_xoff_rx.nic", "rx_global_pause_frames", 1},
    {"link_xoff_tx.nic", "tx_global_pause_frames", 1},
};

// Known, no family: the XON (resume) frames, global and per priority; the netdev's software
// totals (the same as its rtnl statistics); the port's unicast/multicast/broadcast split and
// size bins (no single packet total: rx/tx packets are missing on ice); link faults and flow
// director.
constexpr KnownName kKnown[] = {
    {"rx_priority_", "_xon.nic", true},  {"tx_priority_", "_xon.nic", true},
    {"rx_priority_", "_xon", true},      {"tx_priority_", "_xon", true},
    {"link_xon_rx.nic", "", false},      {"link_xon_tx.nic", "", false},
    {"rx_unicast", "", false},           {"tx_unicast", "", false},
    {"rx_multicast", "", false},         {"tx_multicast", "", false},
    {"rx_broadcast", "", false},         {"tx_broadcast", "", false},
    {"rx_bytes", "", false},             {"tx_bytes", "", false},
    {"rx_dropped", "", false},           {"tx_errors", "", false},
    {"rx_unicast.nic", "", false},       {"tx_unicast.nic", "", false},
    {"rx_multicast.nic", "", false},     {"tx_multicast.nic", "", false},
    {"rx_broadcast.nic", "", false},     {"tx_broadcast.nic", "", false},
    {"tx_errors.nic", "", false},        {"tx_timeout.nic", "", false},
    {"rx_size_64.nic", "", false},       {"tx_size_64.nic", "", false},
    {"rx_size_127.nic", "", false},      {"tx_size_127.nic", "", false},
    {"rx_size_255.nic", "", false},      {"tx_size_255.nic", "", false},
    {"rx_size_511.nic", "", false},      {"tx_size_511.nic", "", false},
    {"rx_size_1023.nic", "", false},     {"tx_size_1023.nic", "", false},
    {"rx_size_1522.nic", "", false},     {"tx_size_1522.nic", "", false},
    {"rx_size_big.nic", "", false},      {"tx_size_big.nic", "", false},
    {"tx_dropped_link_down.nic", "", false}, {"rx_csum_bad.nic", "", false},
    {"rx_length_errors.nic", "", false}, {"illegal_bytes.nic", "", false},
    {"mac_local_faults.nic", "", false}, {"mac_remote_faults.nic", "", false},
    {"fdir_sb_match.nic", "", false},    {"fdir_sb_status.nic", "", false},
};

constexpr HwCounterName kHwCounters[] = {
    {"cnpSent", E::kCnpSent},
    {"cnpHandled", E::kCnpHandled},
    {"cnpIgnored", E::kCnpIgnored},
    {"RxECNMrkd", E::kEcnMarked},
};

// irdma's hw counters read only with --collector.rdma.all-hw-counters (verbs.c
// irdma_hw_stat_names, 6.8): IP and UDP volume (roce_ethtool_*_bytes_total and the port's
// counters serve it), the operation mix, and the TCP counters of iWARP, which RoCE does not
// use. The discards, truncations, no-route and VLAN errors stay.
constexpr std::string_view kDetailHwCounters[] = {
    "tcpRetransSegs", "tcpInOptErrors", "tcpInProtoErrors", "ip4InOctets", "ip4InPkts",
    "ip4InReasmRqd", "ip4InMcastPkts", "ip4OutOctets", "ip4OutPkts", "ip4OutSegRqd",
    "ip4OutMcastPkts", "ip6InOctets", "ip6InPkts", "ip6InReasmRqd", "ip6InMcastPkts",
    "ip6OutOctets", "ip6OutPkts", "ip6OutSegRqd", "ip6OutMcastPkts", "tcpInSegs", "tcpOutSegs",
    "iwInRdmaReads", "iwInRdmaSends", "iwInRdmaWrites", "iwOutRdmaReads", "iwOutRdmaSends",
    "iwOutRdmaWrites", "iwRdmaBnd", "iwRdmaInv", "ip4InMcastOctets", "ip4OutMcastOctets",
    "ip6InMcastOctets", "ip6OutMcastOctets", "RxUDP", "TxUDP",
};

constexpr std::string_view kQuirks[] = {
    "per-priority pause is counted as XOFF and XON separately; only XOFF is served as pause",
    "no pause duration and no per-priority bytes or packets in ethtool -S",
    "irdma has no counters/ (no PMA) and no transport retransmission counters for RoCE",
};

constexpr Driver kDriver{
    "ice",
    kNetdevDrivers,
    kRdmaDrivers,
    9,  // RDMA_DRIVER_IRDMA (= RDMA_DRIVER_I40IW)
    "drivers/net/ethernet/intel/ice/ice_ethtool.c (kernels 5.10-6.x)",
    "drivers/infiniband/hw/irdma/verbs.c irdma_hw_stat_names (kernels 5.14-6.x)",
    kPriority,
    kPort,
    kKnown,
    {},
    kHwCounters,
    EcnSettings::kNotExposed,
    "not exposed by this driver: upstream irdma has no sysfs, configfs or debugfs for its "
    "DCQCN settings (the out-of-tree driver's module parameters are not read)",
    kQuirks,
    "drivers/net/ethernet/intel/ice/ice_ethtool.c (ice_ethtool_ops, kernels 5.x-6.x)",
    kDetailHwCounters,
};

}  // namespace

const Driver& IceDriver() { return kDriver; }

}  // namespace rocewatch::drivers
