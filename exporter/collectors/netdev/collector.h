#pragma once

// The netdev collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/netdev/section.h"

namespace rocewatch {
namespace collectors {
void RenderNetdev(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& NetdevSpecs();

struct Netdev {
  using Section = NetdevSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
