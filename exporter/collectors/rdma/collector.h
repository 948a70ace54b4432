#pragma once

// The rdma collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/rdma/section.h"

namespace rocewatch {
namespace metrics {
void RenderRdma(const NodeSnapshot& snap, MetricSink& out);
const SpecList& RdmaSpecs();
}  // namespace metrics

namespace collectors {
struct Rdma {
  using Section = RdmaSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
