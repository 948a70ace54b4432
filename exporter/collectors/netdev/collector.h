#pragma once

// The netdev collector (collectors/declarations.h says what its files hold).

#include "collectors/declarations.h"
#include "collectors/netdev/section.h"

namespace rocewatch {
namespace metrics {
void RenderNetdev(const NodeSnapshot& snap, MetricSink& out);
const SpecList& NetdevSpecs();
}  // namespace metrics

namespace collectors {
struct Netdev {
  using Section = NetdevSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
