#pragma once

// The ethtool collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/ethtool/section.h"

namespace rocewatch {
namespace metrics {
void RenderEthtool(const NodeSnapshot& snap, MetricSink& out);
const SpecList& EthtoolSpecs();
}  // namespace metrics

namespace collectors {
struct Ethtool {
  using Section = EthtoolSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
