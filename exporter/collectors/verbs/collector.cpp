#include "collectors/verbs/collector.h"

#include "collectors/verbs/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo Verbs::Info() {
  return {"verbs",
          "active MTU and speed of each port via libibverbs",
          true,
          {},
          &sources::MakeVerbsSource,
          &metrics::RenderVerbs,
          &metrics::VerbsSpecs,
          sources::OwnSection<VerbsSection>()};
}

}  // namespace rocewatch::collectors
