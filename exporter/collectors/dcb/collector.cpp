#include "collectors/dcb/collector.h"

#include "collectors/dcb/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo Dcb::Info() {
  return {"dcb", "QoS as the kernel holds it via dcbnl: PFC, ETS, APP table (trust, DSCP map), buffers, DCBX",
          true,
          {{"full-tables", "false", "every DSCP map, APP, ETS, buffer and DCBX entry, and dcbnl pause counters beside ethtool's, as series (default: a digest per table)"},
           {"dscps", "26,48", "DSCPs whose priority is exported besides the rdma_cm ToS and CNP DSCPs"}},
          &sources::MakeDcbSource, &metrics::RenderDcb, &metrics::DcbSpecs};
}

}  // namespace rocewatch::collectors
