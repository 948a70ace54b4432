#pragma once

// The ethtool collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/ethtool/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderEthtool(const NodeSnapshot& snap, MetricSink& out);
const SpecList& EthtoolSpecs();
}  // namespace metrics

namespace collectors {
struct Ethtool {
  using Section = EthtoolSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
