#include "collectors/ecn/collector.h"

#include "collectors/ecn/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo Ecn::Info() {
  return {"ecn", "ECN enable and DCQCN parameters from sysfs (MLNX_OFED) and debugfs (upstream mlx5)",
          true,
          {{"interval", "30s", "how long a clean read of the settings is served before they are read again (0s: every scrape)"},
           {"all-priorities", "false", "ECN enable of all 8 priorities (default: those with ECN or PFC on)"},
           {"all-sources", "false", "debugfs DCQCN parameters also where they repeat the sysfs value"}},
          &sources::MakeEcnSource, &metrics::RenderEcn, &metrics::EcnSpecs};
}

}  // namespace rocewatch::collectors
