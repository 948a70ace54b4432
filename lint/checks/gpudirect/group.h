#pragma once

// GPUDirect (gpudirect.*): the PCIe path between a planned NIC and the GPU it serves, against
// the profile's `gpudirect` object (docs/plan.md#gpudirect): how far apart they are, ACS
// redirect on the bridges between them, the IOMMU, the peer-memory module, MaxReadReq and AER
// errors. One file per check; each is registered in lint/checks/specs.h. Every check skips a
// NIC whose profile has no `gpudirect` and a node whose exporter serves no gpudirect series.

#include <optional>
#include <string>
#include <vector>

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::gpudirect {

void GpuDistance(const NicContext& c, FindingSink& sink);
void AcsRedirect(const NicContext& c, FindingSink& sink);
void IommuTranslation(const NicContext& c, FindingSink& sink);
void PeerMemory(const NodeContext& c, FindingSink& sink);
void MaxReadRequest(const NicContext& c, FindingSink& sink);
void AerErrors(const NicContext& c, FindingSink& sink);

// One GPU as roce_gpu_nic_relation relates it to a NIC.
struct GpuRelation {
  std::string gpu;       // its PCI address
  std::string relation;  // PIX … SYS
  int rank = 0;          // 1 (PIX) … 5 (SYS)
};
// The GPUs the NIC serves: the plan's `gpu`, or (absent or "nearest") every GPU at the nearest
// relation. Empty when the node serves no relation for the NIC (no GPU, or an older exporter).
std::vector<GpuRelation> ServedGpus(const NicContext& c);
// The rank of a relation name (1 … 5), 0 for anything else.
int RelationRank(std::string_view relation);

}  // namespace rocewatch::lint::checks::gpudirect
