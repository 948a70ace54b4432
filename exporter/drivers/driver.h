#pragma once

// A driver as a unit (docs/architecture.md "A new driver"): everything the exporter knows
// about one kernel driver lives in its folder exporter/drivers/<name>/ — its `ethtool -S`
// names and what each counts, its RDMA hw counter names and their transport events, where
// its ECN/DCQCN settings live, its quirks — and one line registers it in
// exporter/drivers/all.h. A driver is chosen by what the kernel reports it is
// (ETHTOOL_GDRVINFO's driver for a netdev; the RDMA device's parent driver), never guessed
// from a counter name another driver may print too. A netdev or device whose driver has no
// table is served raw (roce_ethtool_stat_total with --collector.ethtool.metrics-include,
// roce_hw_stat_total) and its unknown names are counted
// (roce_exporter_unclassified_statistics).
//
// Each table cites the kernel source file and version it was written from.

#include <cstdint>
#include <span>
#include <string_view>

#include "exporter/drivers/meaning.h"

namespace rocewatch::drivers {

// A per-priority `ethtool -S` name: prefix, one priority digit 0-7, suffix
// ("rx_prio" 3 "_pause").
struct PriorityName {
  std::string_view prefix;
  std::string_view suffix;
  Direction direction;
  PriorityKind kind;
  double scale;  // raw value * scale = base units (µs -> s: 1e-6)
};

// A port-wide `ethtool -S` name and the port statistic kind it is served as
// (roce_ethtool_<kind>[_total]; the kinds are ethtool::PortStatTable()'s).
struct PortName {
  std::string_view name;
  std::string_view kind;
  double scale;  // raw value * scale = base units
};

// A name the driver prints that its table knows and deliberately gives no family (it repeats
// another, counts per hardware queue rather than per priority, or counts XON frames): served
// raw only, with --collector.ethtool.metrics-include, and not counted as unclassified. With
// `digit`, the name is prefix + one digit 0-7 + suffix; else prefix alone, exactly.
struct KnownName {
  std::string_view prefix;
  std::string_view suffix;
  bool digit;
};

// A per-queue shape of the driver's own, beyond the shapes every driver shares
// (ethtool/classify.cpp): prefix, a queue number, separator, the counter ("tx_" 3 "_" "pkts").
struct QueueName {
  std::string_view prefix;
  std::string_view separator;
  std::string_view queue_kind;
};

// An RDMA hw counter (hw_counters/ file or RDMA netlink STAT_GET name) and the transport
// event it is (roce_transport_events_total{event}).
struct HwCounterName {
  std::string_view name;
  TransportEvent event;
};

// Where a driver keeps its RoCE congestion control (ECN/DCQCN) settings.
enum class EcnSettings : std::uint8_t {
  kMlx5Sysfs,     // class/net/<dev>/ecn/roce_{np,rp}/enable/<prio>, debugfs mlx5/<pci>/cc_params
  kBnxtReConfigfs,  // configfs bnxt_re/<ibdev>/ports/<n>/cc/ (Broadcom's own bnxt_re)
  kNotExposed,    // no kernel interface this exporter can read: "not exposed by this driver"
};

struct Driver {
  std::string_view name;                             // the unit's name: "mlx5", "bnxt"
  std::span<const std::string_view> netdev_drivers;  // GDRVINFO drivers: "mlx5_core"
  // RDMA parent drivers ("mlx5_core"), the RDMA driver's own module last ("mlx5_ib"): the
  // name a device known only by its uverbs driver id is given.
  std::span<const std::string_view> rdma_drivers;
  // The RDMA device's enum rdma_driver_id (include/uapi/rdma/ib_user_ioctl_verbs.h), which
  // RDMA netlink's GET_CHARDEV "uverbs" answers: how a device with no parent in sysfs (rxe)
  // is known. 0 (RDMA_DRIVER_UNKNOWN): none.
  std::uint32_t uverbs_driver_id;
  std::string_view ethtool_source;     // kernel file and version the ethtool names are from
  std::string_view hw_counter_source;  // likewise for the hw counter names
  std::span<const PriorityName> priority;
  std::span<const PortName> port;
  std::span<const KnownName> known;
  std::span<const QueueName> queues;
  std::span<const HwCounterName> hw_counters;
  EcnSettings ecn;
  std::string_view ecn_where;  // the paths, or why none ("not exposed by this driver: …")
  std::span<const std::string_view> quirks;
  // Where the driver's ethtool_ops.get_link is the kernel's ethtool_op_get_link (the carrier,
  // netif_carrier_ok): the file that says so. Then ethtool netlink's link state repeats sysfs
  // carrier. Empty where the driver asks its firmware instead (bnxt_get_link) or has no netdev.
  std::string_view link_is_carrier = {};
  // hw counters read only with --collector.rdma.all-hw-counters: no check, rule or panel reads
  // them, and each repeats what another family serves (traffic volume, resource counts) or
  // breaks down an error counter that stays (docs/metrics.md, per driver).
  std::span<const std::string_view> detail_hw_counters = {};
};

// Every registered driver, in exporter/drivers/all.h's order.
std::span<const Driver* const> AllDrivers();
// The driver whose table serves a netdev whose GDRVINFO driver is `driver`; null when none.
const Driver* FindByNetdevDriver(std::string_view driver);
// The driver whose table serves an RDMA device whose parent's driver is `driver`; null when
// none.
const Driver* FindByRdmaDriver(std::string_view driver);
// The driver whose RDMA devices carry enum rdma_driver_id `id`; null when none (or id 0).
const Driver* FindByUverbsDriverId(std::uint32_t id);
// The event `counter` is on `driver`; false when the driver's table does not map it.
bool FindTransportEvent(const Driver& driver, std::string_view counter, TransportEvent& event);

}  // namespace rocewatch::drivers
