#pragma once

// The ecn collector (collectors/declarations.h says what its files hold).

#include "collectors/declarations.h"
#include "collectors/ecn/section.h"

namespace rocewatch {
namespace metrics {
void RenderEcn(const NodeSnapshot& snap, MetricSink& out);
const SpecList& EcnSpecs();
}  // namespace metrics

namespace collectors {
struct Ecn {
  using Section = EcnSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
