#pragma once

// The rdma collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/rdma/section.h"

namespace rocewatch {
namespace collectors {
void RenderRdma(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& RdmaSpecs();

struct Rdma {
  using Section = RdmaSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
