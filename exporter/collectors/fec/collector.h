#pragma once

// The fec collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/fec/section.h"

namespace rocewatch {
namespace metrics {
void RenderFec(const NodeSnapshot& snap, MetricSink& out);
const SpecList& FecSpecs();
}  // namespace metrics

namespace collectors {
struct Fec {
  using Section = FecSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
