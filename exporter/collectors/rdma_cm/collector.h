#pragma once

// The rdma_cm collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/rdma_cm/section.h"

namespace rocewatch {
namespace collectors {
void RenderRdmaCm(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& RdmaCmSpecs();

struct RdmaCm {
  using Section = RdmaCmSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
