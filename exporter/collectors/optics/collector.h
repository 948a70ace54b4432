#pragma once

// The optics collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/optics/section.h"

namespace rocewatch {
namespace collectors {
void RenderOptics(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& OpticsSpecs();

struct Optics {
  using Section = OpticsSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
