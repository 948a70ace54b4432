#include "metrics/renderers.h"

namespace rocewatch::metrics {

// Placeholder until the renderer is written.
const SpecList& VerbsSpecs() {
  static const SpecList kSpecs;
  return kSpecs;
}

void RenderVerbs(const NodeSnapshot&, FamilySet&) {}

}  // namespace rocewatch::metrics
