#pragma once

// The gpudirect collector's section: the PCIe path between each RDMA device and each GPU of
// the node (docs/metrics.md "gpudirect"): the relation in NCCL's and nvidia-smi's words, the
// ACS control of every bridge on the path, the NIC's IOMMU group, ATS and Device Control, the
// peer-memory modules and the AER counters of the NIC and its bridges.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

// AER totals of one PCI function (sysfs aer_dev_{correctable,nonfatal,fatal}: TOTAL_ERR_*).
struct PcieAerCounts {
  std::string pci_address;
  std::optional<std::uint64_t> correctable, nonfatal, fatal;
  bool operator==(const PcieAerCounts&) const = default;
};

// A bridge on some NIC's path to its root port or on a GPU↔NIC path.
struct PcieBridgeState {
  std::string pci_address;
  std::optional<std::uint16_t> acs_control;  // ACS Control register; absent: no ACS capability
                                             // found or config space beyond 64 bytes unreadable
  // False only when the whole config space was read and holds no ACS capability (such a
  // bridge redirects nothing); true when it has one or its config could not be read.
  bool may_have_acs = true;
  std::optional<double> link_speed_transfers;  // current_link_speed
  std::optional<std::uint32_t> link_width;     // current_link_width
  bool operator==(const PcieBridgeState&) const = default;
};

struct GpuState {
  std::string pci_address;
  std::string vendor_id, device_id;
  std::optional<std::int64_t> numa_node;
  bool operator==(const GpuState&) const = default;
};

// One RDMA device (its PCI function).
struct GpuDirectNic {
  std::string device;                    // ibdev
  std::string pci_address;
  std::vector<std::string> upstream;     // bridges from the NIC's port up to the root port
  std::string iommu_group_type;          // identity, DMA, DMA-FQ, none (no group); "" unknown
  std::optional<bool> ats_enabled;
  std::optional<std::uint32_t> max_read_request_bytes, max_payload_bytes;
  std::optional<bool> relaxed_ordering;
  bool operator==(const GpuDirectNic&) const = default;
};

// One GPU↔NIC pair.
struct GpuNicPath {
  std::string device;       // ibdev
  std::string gpu;          // the GPU's PCI address
  std::string relation;     // PIX, PXB, PHB, NODE, SYS
  std::vector<std::string> bridges;  // the bridges a peer-to-peer transfer crosses (PIX, PXB)
  bool operator==(const GpuNicPath&) const = default;
};

// What one pass read.
struct GpuDirectNode {
  std::vector<GpuDirectNic> nics;
  std::vector<GpuState> gpus;
  std::vector<GpuNicPath> paths;
  std::vector<PcieBridgeState> bridges;
  std::vector<PcieAerCounts> aer;  // the NICs and their bridges
  std::vector<std::pair<std::string, bool>> peer_memory;  // module name → loaded
  bool operator==(const GpuDirectNode&) const = default;
};

// The collector's part of the NodeSnapshot (model/section.h): one value, as the source reads
// the node as a whole.
struct GpuDirectSection {
  std::optional<GpuDirectNode> gpudirect;
  bool operator==(const GpuDirectSection&) const = default;  // the render cache's key
  void Append(GpuDirectSection&& part) { AppendSection(gpudirect, part.gpudirect); }
};

}  // namespace rocewatch
