#include "exporter/collectors/verbs/collector.h"

#include "exporter/collectors/verbs/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

collectors::CollectorInfo Verbs::Info() {
  return {"verbs",
          "active MTU and speed of each port via libibverbs",
          true,
          {},
          &collectors::MakeVerbsSource,
          &metrics::RenderVerbs,
          &metrics::VerbsSpecs,
          collectors::OwnSection<VerbsSection>()};
}

}  // namespace rocewatch::collectors
