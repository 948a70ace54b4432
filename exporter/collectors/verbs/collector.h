#pragma once

// The verbs collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/verbs/section.h"

namespace rocewatch {
namespace metrics {
void RenderVerbs(const NodeSnapshot& snap, MetricSink& out);
const SpecList& VerbsSpecs();
}  // namespace metrics

namespace collectors {
struct Verbs {
  using Section = VerbsSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
