#pragma once

// The netdev collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/netdev/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderNetdev(const NodeSnapshot& snap, MetricSink& out);
const SpecList& NetdevSpecs();
}  // namespace metrics

namespace collectors {
struct Netdev {
  using Section = NetdevSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
