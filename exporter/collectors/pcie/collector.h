#pragma once

// The pcie collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/pcie/section.h"

namespace rocewatch {
namespace collectors {
void RenderPcie(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& PcieSpecs();

struct Pcie {
  using Section = PcieSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
