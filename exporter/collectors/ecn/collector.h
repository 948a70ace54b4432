#pragma once

// The ecn collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/ecn/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderEcn(const NodeSnapshot& snap, MetricSink& out);
const SpecList& EcnSpecs();
}  // namespace metrics

namespace collectors {
struct Ecn {
  using Section = EcnSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
