#pragma once

// A profile's `gpudirect` object (docs/plan.md#gpudirect): how far a NIC may be from the GPU it
// serves and what the PCIe path between them must look like; checked by lint/checks/gpudirect.
// A NIC's GPU is its `gpu` (a PCI address) or, without one, the nearest GPU of its node.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch::lint::plan {

struct GpuDirectSettings {
  // The farthest relation allowed between a NIC and its GPU, in NCCL's words ("PIX", "PXB",
  // "PHB", "NODE", "SYS"), like NCCL_NET_GDR_LEVEL; absent: not checked.
  std::optional<std::string> max_relation;
  bool iommu_passthrough = false;  // the NIC's IOMMU group must be identity (or have no IOMMU)
  bool peer_memory = false;        // a peer-memory module (nvidia_peermem …) must be loaded
  std::optional<std::int64_t> min_max_read_request_bytes;  // 128 … 4096
  // AER correctable errors allowed over the window on the NIC and its bridges (non-fatal and
  // fatal: none); absent: correctable errors are not checked.
  std::optional<std::int64_t> max_aer_correctable;
};

// The relations from nearest to farthest, as the exporter's roce_gpu_nic_relation values (1…5).
inline const std::vector<std::string_view>& GpuRelations() {
  static const std::vector<std::string_view> kRelations = {"PIX", "PXB", "PHB", "NODE", "SYS"};
  return kRelations;
}

}  // namespace rocewatch::lint::plan
