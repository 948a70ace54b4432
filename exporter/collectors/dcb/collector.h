#pragma once

// The dcb collector (collectors/declarations.h says what its files hold).

#include "collectors/declarations.h"
#include "collectors/dcb/section.h"

namespace rocewatch {
namespace metrics {
void RenderDcb(const NodeSnapshot& snap, MetricSink& out);
const SpecList& DcbSpecs();
}  // namespace metrics

namespace collectors {
struct Dcb {
  using Section = DcbSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
