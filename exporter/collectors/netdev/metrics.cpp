#include <string>

#include "exporter/collectors/netdev/collector.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;
using S = Served;

const MetricSpec kInfo{"roce_netdev_info", T::kGauge,
    "A netdev of an RDMA port with its MAC address and PCI function; always 1. pci_function is "
    "pf, vf (an SR-IOV virtual function; pf_pci_address names its PF) or none (not on PCI; the "
    "PCI labels empty).",
    {"netdev", "device", "port", "address", "pci_address", "pci_function", "pf_pci_address"}};
const MetricSpec kMtu{"roce_netdev_mtu_bytes", T::kGauge, "Netdev MTU in bytes.", {"netdev"}};
const MetricSpec kUp{"roce_netdev_up", T::kGauge,
    "1 when the netdev operstate is up, else 0; only with --collector.netdev.repeats "
    "(roce_netdev_operstate == 1 says the same).",
    {"netdev"},
    S::kOptIn, "--collector.netdev.repeats (= roce_netdev_operstate == 1)"};
const MetricSpec kOperState{"roce_netdev_operstate", T::kGauge,
    "Netdev operstate as RFC 2863 ifOperStatus: 1 up, 2 down, 3 testing, 4 unknown, 5 dormant, "
    "6 notpresent, 7 lowerlayerdown.",
    {"netdev"}};
const MetricSpec kCarrier{"roce_netdev_carrier", T::kGauge,
    "1 when the netdev has carrier, 0 when not (absent while the netdev is down).", {"netdev"}};
const MetricSpec kCarrierChanges{"roce_netdev_carrier_changes_total", T::kCounter,
    "Carrier up/down transitions of the netdev (link flaps).", {"netdev"}};
const MetricSpec kSpeed{"roce_netdev_speed_bytes_per_second", T::kGauge,
    "Netdev link speed in bytes per second (absent while the link is down); while "
    "roce_ethtool_link_speed_bytes_per_second serves the same value (sysfs speed is the "
    "driver's ethtool link settings), only with --collector.netdev.repeats.",
    {"netdev"},
    S::kRepeat, "--collector.netdev.repeats (left out while "
    "roce_ethtool_link_speed_bytes_per_second serves it)"};

// Whether the ethtool collector serves the link speed of `netdev` (the same driver call).
bool EthtoolHasSpeed(const NodeSnapshot& snap, const std::string& netdev) {
  for (const auto& e : snap.ethtool)
    if (e.netdev == netdev && e.speed_bytes_per_second) return true;
  return false;
}

}  // namespace

const SpecList& NetdevSpecs() {
  static const SpecList kSpecs = {&kInfo, &kMtu, &kUp, &kOperState, &kCarrier, &kCarrierChanges, &kSpeed};
  return kSpecs;
}

void RenderNetdev(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& n : snap.netdevs) {
    out.Add(kInfo, {n.name, n.device, n.port == 0 ? "" : std::to_string(n.port), n.address,
                    n.pci_address, n.pci_function, n.pf_pci_address}, 1);
    if (n.mtu_bytes) out.Add(kMtu, {n.name}, *n.mtu_bytes);
    if (n.operstate_id) {
      if (n.repeats) out.Add(kUp, {n.name}, *n.operstate_id == 1 ? 1 : 0);
      out.Add(kOperState, {n.name}, *n.operstate_id);
    }
    if (n.carrier) out.Add(kCarrier, {n.name}, *n.carrier ? 1 : 0);
    if (n.carrier_changes) out.Add(kCarrierChanges, {n.name}, *n.carrier_changes);
    if (n.speed_bytes_per_second && (n.repeats || !EthtoolHasSpeed(snap, n.name))) out.Add(kSpeed, {n.name}, *n.speed_bytes_per_second);
  }
}

}  // namespace rocewatch::collectors
