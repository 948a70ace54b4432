#pragma once

// The netdev collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/netdev/section.h"

namespace rocewatch {
namespace metrics {
void RenderNetdev(const NodeSnapshot& snap, MetricSink& out);
const SpecList& NetdevSpecs();
}  // namespace metrics

namespace collectors {
struct Netdev {
  using Section = NetdevSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
