#include "metrics/renderers.h"

namespace rocewatch::metrics {

// Placeholder until the renderer is written.
const SpecList& DcbSpecs() {
  static const SpecList kSpecs;
  return kSpecs;
}

void RenderDcb(const NodeSnapshot&, FamilySet&) {}

}  // namespace rocewatch::metrics
