#include "metrics/renderers.h"

namespace rocewatch::metrics {

// Placeholder until the renderer is written.
const SpecList& LinkStateSpecs() {
  static const SpecList kSpecs;
  return kSpecs;
}

void RenderLinkState(const NodeSnapshot&, FamilySet&) {}

}  // namespace rocewatch::metrics
