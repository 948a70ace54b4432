#pragma once

// The dcb collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/dcb/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderDcb(const NodeSnapshot& snap, MetricSink& out);
const SpecList& DcbSpecs();
}  // namespace metrics

namespace collectors {
struct Dcb {
  using Section = DcbSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
