#pragma once

// The gpudirect collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/gpudirect/section.h"

namespace rocewatch {
namespace collectors {
void RenderGpuDirect(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& GpuDirectSpecs();

struct GpuDirect {
  using Section = GpuDirectSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
