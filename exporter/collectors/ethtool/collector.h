#pragma once

// The ethtool collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/ethtool/section.h"

namespace rocewatch {
namespace collectors {
void RenderEthtool(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& EthtoolSpecs();

struct Ethtool {
  using Section = EthtoolSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
