#include <string>

#include "exporter/collectors/pcie/collector.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;

const MetricSpec kInfo{"roce_pcie_info", T::kGauge,
    "The PCI function of an RDMA device with its ids and NUMA node; always 1.",
    {"device", "pci_address", "vendor_id", "device_id", "numa_node"}};
const MetricSpec kSpeed{"roce_pcie_link_speed_transfers_per_second", T::kGauge,
    "PCIe link speed per lane in transfers per second (32e9 for Gen5); kind is current or max.",
    {"device", "kind"}};
const MetricSpec kWidth{"roce_pcie_link_width", T::kGauge,
    "PCIe link width in lanes; kind is current or max.", {"device", "kind"}};

}  // namespace

const SpecList& PcieSpecs() {
  static const SpecList kSpecs = {&kInfo, &kSpeed, &kWidth};
  return kSpecs;
}

void RenderPcie(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& p : snap.pcie) {
    out.Add(kInfo, {p.device, p.pci_address, p.vendor_id, p.device_id,
                    p.numa_node ? std::to_string(*p.numa_node) : std::string()}, 1);
    if (p.current_speed_transfers) out.Add(kSpeed, {p.device, "current"}, *p.current_speed_transfers);
    if (p.max_speed_transfers) out.Add(kSpeed, {p.device, "max"}, *p.max_speed_transfers);
    if (p.current_width) out.Add(kWidth, {p.device, "current"}, *p.current_width);
    if (p.max_width) out.Add(kWidth, {p.device, "max"}, *p.max_width);
  }
}

}  // namespace rocewatch::collectors
