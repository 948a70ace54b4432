#pragma once

// The verbs collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/verbs/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderVerbs(const NodeSnapshot& snap, MetricSink& out);
const SpecList& VerbsSpecs();
}  // namespace metrics

namespace collectors {
struct Verbs {
  using Section = VerbsSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
