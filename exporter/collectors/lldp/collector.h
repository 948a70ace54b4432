#pragma once

// The lldp collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/lldp/section.h"

namespace rocewatch {
namespace collectors {
void RenderLldp(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& LldpSpecs();

struct Lldp {
  using Section = LldpSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
