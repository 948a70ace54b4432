#pragma once

// The fec collector (collectors/declarations.h says what its files hold).

#include "collectors/declarations.h"
#include "collectors/fec/section.h"

namespace rocewatch {
namespace metrics {
void RenderFec(const NodeSnapshot& snap, MetricSink& out);
const SpecList& FecSpecs();
}  // namespace metrics

namespace collectors {
struct Fec {
  using Section = FecSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
