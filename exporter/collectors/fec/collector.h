#pragma once

// The fec collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/fec/section.h"

namespace rocewatch {
namespace collectors {
void RenderFec(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& FecSpecs();

struct Fec {
  using Section = FecSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
