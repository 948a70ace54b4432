#pragma once

// The lldp collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/lldp/section.h"

namespace rocewatch {
namespace metrics {
void RenderLldp(const NodeSnapshot& snap, MetricSink& out);
const SpecList& LldpSpecs();
}  // namespace metrics

namespace collectors {
struct Lldp {
  using Section = LldpSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
