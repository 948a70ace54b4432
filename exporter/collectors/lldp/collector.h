#pragma once

// The lldp collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/lldp/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderLldp(const NodeSnapshot& snap, MetricSink& out);
const SpecList& LldpSpecs();
}  // namespace metrics

namespace collectors {
struct Lldp {
  using Section = LldpSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
