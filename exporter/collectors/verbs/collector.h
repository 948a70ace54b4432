#pragma once

// The verbs collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/verbs/section.h"

namespace rocewatch {
namespace collectors {
void RenderVerbs(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& VerbsSpecs();

struct Verbs {
  using Section = VerbsSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
