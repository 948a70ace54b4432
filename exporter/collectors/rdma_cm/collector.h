#pragma once

// The rdma_cm collector (collectors/declarations.h says what its files hold).

#include "collectors/declarations.h"
#include "collectors/rdma_cm/section.h"

namespace rocewatch {
namespace metrics {
void RenderRdmaCm(const NodeSnapshot& snap, MetricSink& out);
const SpecList& RdmaCmSpecs();
}  // namespace metrics

namespace collectors {
struct RdmaCm {
  using Section = RdmaCmSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
