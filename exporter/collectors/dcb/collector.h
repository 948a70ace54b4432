#pragma once

// The dcb collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/dcb/section.h"

namespace rocewatch {
namespace metrics {
void RenderDcb(const NodeSnapshot& snap, MetricSink& out);
const SpecList& DcbSpecs();
}  // namespace metrics

namespace collectors {
struct Dcb {
  using Section = DcbSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
