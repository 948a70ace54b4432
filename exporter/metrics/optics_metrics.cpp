#include "metrics/renderers.h"

namespace rocewatch::metrics {

// Placeholder until the renderer is written.
const SpecList& OpticsSpecs() {
  static const SpecList kSpecs;
  return kSpecs;
}

void RenderOptics(const NodeSnapshot&, FamilySet&) {}

}  // namespace rocewatch::metrics
