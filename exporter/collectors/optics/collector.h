#pragma once

// The optics collector (collectors/declarations.h says what its files hold).

#include "collectors/declarations.h"
#include "collectors/optics/section.h"

namespace rocewatch {
namespace metrics {
void RenderOptics(const NodeSnapshot& snap, MetricSink& out);
const SpecList& OpticsSpecs();
}  // namespace metrics

namespace collectors {
struct Optics {
  using Section = OpticsSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
