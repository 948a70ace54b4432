#pragma once

// The pcie collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/pcie/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderPcie(const NodeSnapshot& snap, MetricSink& out);
const SpecList& PcieSpecs();
}  // namespace metrics

namespace collectors {
struct Pcie {
  using Section = PcieSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
