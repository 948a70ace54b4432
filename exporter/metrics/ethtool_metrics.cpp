#include "metrics/renderers.h"

namespace rocewatch::metrics {

// Placeholder until the renderer is written.
const SpecList& EthtoolSpecs() {
  static const SpecList kSpecs;
  return kSpecs;
}

void RenderEthtool(const NodeSnapshot&, FamilySet&) {}

}  // namespace rocewatch::metrics
