#include "exporter/collectors/rdma/default_counters.h"

#include <algorithm>
#include <iterator>

namespace rocewatch {
namespace {

// mlx5 hw_counters read only with --collector.rdma.all-hw-counters. No check, rule or
// panel reads them, and each is one of: the responder's operation mix (volume is
// roce_port_*_total); work requests flushed after a QP entered the error state (they
// follow the error counted elsewhere); the application-error breakdown of req_cqe_error
// and resp_cqe_error, which stay; congestion-control internals (rp_cnp_handled and
// np_cnp_sent stay). Other drivers' counters are all read.
constexpr std::string_view kMlx5DetailHwCounters[] = {
    "rx_write_requests",        "rx_read_requests",           "rx_atomic_requests",
    "rx_dct_connect",           "req_cqe_flush_error",        "resp_cqe_flush_error",
    "req_remote_access_errors", "req_remote_invalid_request", "resp_remote_access_errors",
    "resp_local_length_error",  "roce_slow_restart",          "roce_slow_restart_cnps",
    "roce_slow_restart_trans",  "rp_cnp_ignored",
};

// counters/ files of an Ethernet (RoCE) port read only with
// --collector.rdma.all-port-counters: the unicast/multicast split of
// roce_port_{received,transmitted}_packets_total (mlx5 reads all of them from the vport
// RDMA counters), and InfiniBand-fabric mechanisms a RoCE link does not have (VL15
// subnet-management packets, switch relay, partition-key constraints, IB link-integrity
// and credit-overrun thresholds, EBP-marked packets). InfiniBand ports read every file.
constexpr std::string_view kEthernetDetailPortCounters[] = {
    "unicast_rcv_packets",         "unicast_xmit_packets",
    "multicast_rcv_packets",       "multicast_xmit_packets",
    "VL15_dropped",                "port_rcv_switch_relay_errors",
    "port_rcv_constraint_errors",  "port_xmit_constraint_errors",
    "excessive_buffer_overrun_errors", "local_link_integrity_errors",
    "port_rcv_remote_physical_errors",
};

template <std::size_t N>
bool Listed(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

}  // namespace

bool ReadsHwCounter(const RdmaDetail& detail, std::string_view driver, std::string_view name) {
  return detail.all_hw_counters || !driver.starts_with("mlx5") || !Listed(kMlx5DetailHwCounters, name);
}

bool ReadsPortCounter(const RdmaDetail& detail, std::string_view link_layer, std::string_view name) {
  return detail.all_port_counters || link_layer != "Ethernet" || !Listed(kEthernetDetailPortCounters, name);
}

}  // namespace rocewatch
