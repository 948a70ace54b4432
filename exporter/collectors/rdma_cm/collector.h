#pragma once

// The rdma_cm collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/rdma_cm/section.h"

namespace rocewatch {
namespace metrics {
void RenderRdmaCm(const NodeSnapshot& snap, MetricSink& out);
const SpecList& RdmaCmSpecs();
}  // namespace metrics

namespace collectors {
struct RdmaCm {
  using Section = RdmaCmSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
