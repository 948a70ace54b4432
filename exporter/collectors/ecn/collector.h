#pragma once

// The ecn collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/ecn/section.h"

namespace rocewatch {
namespace metrics {
void RenderEcn(const NodeSnapshot& snap, MetricSink& out);
const SpecList& EcnSpecs();
}  // namespace metrics

namespace collectors {
struct Ecn {
  using Section = EcnSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
