#pragma once

// The optics collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/optics/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderOptics(const NodeSnapshot& snap, MetricSink& out);
const SpecList& OpticsSpecs();
}  // namespace metrics

namespace collectors {
struct Optics {
  using Section = OpticsSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
