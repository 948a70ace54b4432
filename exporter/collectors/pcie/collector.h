#pragma once

// The pcie collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/pcie/section.h"

namespace rocewatch {
namespace metrics {
void RenderPcie(const NodeSnapshot& snap, MetricSink& out);
const SpecList& PcieSpecs();
}  // namespace metrics

namespace collectors {
struct Pcie {
  using Section = PcieSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
