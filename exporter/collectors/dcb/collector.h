#pragma once

// The dcb collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/dcb/section.h"
#include "exporter/collectors/declarations.h"

namespace rocewatch {
namespace collectors {
void RenderDcb(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& DcbSpecs();

struct Dcb {
  using Section = DcbSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
