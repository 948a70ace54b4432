#include "exporter/collectors/rdma/default_counters.h"

#include <algorithm>
#include <iterator>
#include <span>

#include "exporter/drivers/driver.h"

namespace rocewatch {
namespace {

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

bool Listed(std::span<const std::string_view> list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

// The driver's unit names its detail counters (exporter/drivers/<driver>/tables.cpp); a driver
// without a unit has all of its counters read.
bool ReadsHwCounter(const RdmaDetail& detail, std::string_view driver, std::string_view name) {
  if (detail.all_hw_counters) return true;
  const drivers::Driver* unit = drivers::FindByRdmaDriver(driver);
  return unit == nullptr || !Listed(unit->detail_hw_counters, name);
}

bool ReadsPortCounter(const RdmaDetail& detail, std::string_view link_layer, std::string_view name) {
  return detail.all_port_counters || link_layer != "Ethernet" || !Listed(kEthernetDetailPortCounters, name);
}

}  // namespace rocewatch
