#pragma once

// The rdma_cm collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/rdma_cm/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
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
