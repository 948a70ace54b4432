#pragma once

// The rdma collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/rdma/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderRdma(const NodeSnapshot& snap, MetricSink& out);
const SpecList& RdmaSpecs();
}  // namespace metrics

namespace collectors {
struct Rdma {
  using Section = RdmaSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
