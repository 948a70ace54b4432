#include <map>
#include <string>

#include "exporter/collectors/gpudirect/collector.h"
#include "exporter/collectors/gpudirect/pci_config.h"
#include "exporter/collectors/gpudirect/topology.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;

const MetricSpec kGpuInfo{"roce_gpu_info", T::kGauge,
    "A GPU of the node (PCI class 0x0300/0x0302 of NVIDIA or AMD) with its ids and NUMA node; always 1.",
    {"gpu", "vendor_id", "device_id", "numa_node"}};
const MetricSpec kRelation{"roce_gpu_nic_relation", T::kGauge,
    "How far an RDMA device is from a GPU on PCIe, in NCCL's and nvidia-smi's words (relation): "
    "1 PIX, 2 PXB, 3 PHB, 4 NODE, 5 SYS.",
    {"device", "gpu", "relation"}};
const MetricSpec kPathRedirect{"roce_gpu_nic_acs_redirect_bridges", T::kGauge,
    "Bridges on a GPU-NIC peer-to-peer path below the host bridge (PIX, PXB) with ACS P2P request "
    "or completion redirect on; absent when a bridge's ACS cannot be read.",
    {"device", "gpu"}};
const MetricSpec kPathBridge{"roce_gpu_nic_path_bridge", T::kGauge,
    "A bridge a GPU-NIC peer-to-peer transfer crosses below the host bridge (PIX, PXB pairs); the "
    "value is its place on the path counted from the GPU (1: the GPU's own port).",
    {"device", "gpu", "bridge"}};
const MetricSpec kUpstream{"roce_pcie_upstream_bridge", T::kGauge,
    "A bridge between an RDMA device and its root port; the value counts hops from the device "
    "(1: the port it is attached to; the root port has the largest).",
    {"device", "bridge"}};
const MetricSpec kAcs{"roce_pcie_bridge_acs_control", T::kGauge,
    "One bit of a bridge's ACS Control register (bit: src_valid, trans_blk, req_redir, cmplt_redir, "
    "upstream_fwd, egress_ctrl, direct_trans), 1 when on; needs CAP_SYS_ADMIN.",
    {"bridge", "bit"}};
const MetricSpec kBridgeSpeed{"roce_pcie_bridge_link_speed_transfers_per_second", T::kGauge,
    "A bridge's current PCIe link speed per lane in transfers per second.", {"bridge"}};
const MetricSpec kBridgeWidth{"roce_pcie_bridge_link_width", T::kGauge,
    "A bridge's current PCIe link width in lanes.", {"bridge"}};
const MetricSpec kAer{"roce_pcie_aer_errors_total", T::kCounter,
    "AER errors a PCI function (an RDMA device or a bridge above it) reported since boot "
    "(TOTAL_ERR_* of aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal); aer_severity is "
    "correctable, nonfatal or fatal.",
    {"pci_address", "aer_severity"}};
const MetricSpec kIommu{"roce_pcie_iommu_group_info", T::kGauge,
    "The IOMMU domain type of an RDMA device's group (identity, DMA, DMA-FQ, …; none without a "
    "group); always 1.",
    {"device", "type"}};
const MetricSpec kAts{"roce_pcie_ats_enabled", T::kGauge,
    "1 when an RDMA device's ATS capability is enabled; needs CAP_SYS_ADMIN.", {"device"}};
const MetricSpec kMrrs{"roce_pcie_max_read_request_bytes", T::kGauge,
    "An RDMA device's PCIe Max_Read_Request_Size (Device Control); needs CAP_SYS_ADMIN.", {"device"}};
const MetricSpec kMps{"roce_pcie_max_payload_bytes", T::kGauge,
    "An RDMA device's PCIe Max_Payload_Size (Device Control); needs CAP_SYS_ADMIN.", {"device"}};
const MetricSpec kRelaxed{"roce_pcie_relaxed_ordering_enabled", T::kGauge,
    "1 when an RDMA device may use PCIe relaxed ordering (Device Control); needs CAP_SYS_ADMIN.",
    {"device"}};
const MetricSpec kPeerMemory{"roce_gpu_peer_memory_module_loaded", T::kGauge,
    "1 when a GPUDirect peer-memory module (nvidia_peermem, nv_peer_mem, ib_peer_mem) is loaded; served on nodes with a GPU.",
    {"module"}};

}  // namespace

const SpecList& GpuDirectSpecs() {
  static const SpecList kSpecs = {&kGpuInfo, &kRelation, &kPathRedirect, &kPathBridge, &kUpstream, &kAcs,
                                  &kBridgeSpeed, &kBridgeWidth, &kAer, &kIommu, &kAts,
                                  &kMrrs, &kMps, &kRelaxed, &kPeerMemory};
  return kSpecs;
}

void RenderGpuDirect(const NodeSnapshot& snap, MetricSink& out) {
  if (!snap.gpudirect) return;
  const GpuDirectNode& n = *snap.gpudirect;
  std::map<std::string, const PcieBridgeState*> bridges;
  for (const auto& b : n.bridges) bridges.emplace(b.pci_address, &b);

  for (const auto& g : n.gpus)
    out.Add(kGpuInfo, {g.pci_address, g.vendor_id, g.device_id,
                       g.numa_node ? std::to_string(*g.numa_node) : std::string()}, 1);
  for (const auto& p : n.paths) {
    const auto r = gpudirect::ParseRelation(p.relation);
    if (r) out.Add(kRelation, {p.device, p.gpu, p.relation}, static_cast<double>(*r));
    if (!r || *r > gpudirect::Relation::kPxb) continue;
    double redirecting = 0;
    bool known = true;
    for (std::size_t i = 0; i < p.bridges.size(); ++i)
      out.Add(kPathBridge, {p.device, p.gpu, p.bridges[i]}, static_cast<double>(i + 1));
    for (const auto& addr : p.bridges) {
      auto it = bridges.find(addr);
      if (it == bridges.end()) continue;
      const PcieBridgeState& b = *it->second;
      if (!b.may_have_acs) continue;  // no ACS capability: nothing to redirect
      if (!b.acs_control) {
        known = false;
        continue;
      }
      if ((*b.acs_control & (gpudirect::kAcsReqRedir | gpudirect::kAcsCmpltRedir)) != 0) redirecting += 1;
    }
    if (known || redirecting > 0) out.Add(kPathRedirect, {p.device, p.gpu}, redirecting);
  }
  for (const auto& nic : n.nics) {
    for (std::size_t i = 0; i < nic.upstream.size(); ++i)
      out.Add(kUpstream, {nic.device, nic.upstream[i]}, static_cast<double>(i + 1));
    if (!nic.iommu_group_type.empty()) out.Add(kIommu, {nic.device, nic.iommu_group_type}, 1);
    if (nic.ats_enabled) out.Add(kAts, {nic.device}, *nic.ats_enabled ? 1 : 0);
    if (nic.max_read_request_bytes) out.Add(kMrrs, {nic.device}, *nic.max_read_request_bytes);
    if (nic.max_payload_bytes) out.Add(kMps, {nic.device}, *nic.max_payload_bytes);
    if (nic.relaxed_ordering) out.Add(kRelaxed, {nic.device}, *nic.relaxed_ordering ? 1 : 0);
  }
  for (const auto& b : n.bridges) {
    if (b.acs_control)
      for (const auto& bit : gpudirect::kAcsBits)
        out.Add(kAcs, {b.pci_address, std::string(bit.label)}, (*b.acs_control & bit.bit) != 0 ? 1 : 0);
    if (b.link_speed_transfers) out.Add(kBridgeSpeed, {b.pci_address}, *b.link_speed_transfers);
    if (b.link_width) out.Add(kBridgeWidth, {b.pci_address}, *b.link_width);
  }
  for (const auto& a : n.aer) {
    if (a.correctable) out.Add(kAer, {a.pci_address, "correctable"}, static_cast<double>(*a.correctable));
    if (a.nonfatal) out.Add(kAer, {a.pci_address, "nonfatal"}, static_cast<double>(*a.nonfatal));
    if (a.fatal) out.Add(kAer, {a.pci_address, "fatal"}, static_cast<double>(*a.fatal));
  }
  for (const auto& [module, loaded] : n.peer_memory) out.Add(kPeerMemory, {module}, loaded ? 1 : 0);
}

}  // namespace rocewatch::collectors
