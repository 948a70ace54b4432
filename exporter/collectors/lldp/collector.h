#pragma once

// The lldp collector (collectors/declarations.h says what its files hold).

#include "collectors/declarations.h"
#include "collectors/lldp/section.h"

namespace rocewatch {
namespace metrics {
void RenderLldp(const NodeSnapshot& snap, MetricSink& out);
const SpecList& LldpSpecs();
}  // namespace metrics

namespace collectors {
struct Lldp {
  using Section = LldpSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
