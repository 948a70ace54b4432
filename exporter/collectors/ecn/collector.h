#pragma once

// The ecn collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/ecn/section.h"

namespace rocewatch {
namespace collectors {
void RenderEcn(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& EcnSpecs();

struct Ecn {
  using Section = EcnSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
