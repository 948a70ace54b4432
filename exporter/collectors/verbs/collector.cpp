#include "exporter/collectors/verbs/collector.h"

#include "exporter/collectors/registry.h"
#include "exporter/collectors/verbs/source.h"

namespace rocewatch::collectors {

CollectorInfo Verbs::Info() {
  return {"verbs",
          "active MTU and speed of each port via libibverbs",
          true,
          {},
          &MakeVerbsSource,
          &RenderVerbs,
          &VerbsSpecs,
          OwnSection<VerbsSection>()};
}

}  // namespace rocewatch::collectors
