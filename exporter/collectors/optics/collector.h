#pragma once

// The optics collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/optics/section.h"

namespace rocewatch {
namespace metrics {
void RenderOptics(const NodeSnapshot& snap, MetricSink& out);
const SpecList& OpticsSpecs();
}  // namespace metrics

namespace collectors {
struct Optics {
  using Section = OpticsSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
