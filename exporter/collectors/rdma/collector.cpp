#include "collectors/rdma/collector.h"

#include "collectors/rdma/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo Rdma::Info() {
  return {"rdma",
          "RDMA devices, ports, counters, hw_counters and GID table from sysfs",
          true,
          {{"gid-interval", "30s", "how often to re-read the GID table"}},
          &sources::MakeRdmaSource,
          &metrics::RenderRdma,
          &metrics::RdmaSpecs};
}

}  // namespace rocewatch::collectors
