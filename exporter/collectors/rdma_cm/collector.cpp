#include "collectors/rdma_cm/collector.h"

#include "collectors/rdma_cm/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo RdmaCm::Info() {
  return {"rdma_cm",
          "rdma_cm default RoCE mode and ToS from configfs",
          true,
          {{"create-groups", "false",
            "create rdma_cm/<dev> in configfs so the kernel shows the defaults (needs root)"}},
          &sources::MakeRdmaCmSource,
          &metrics::RenderRdmaCm,
          &metrics::RdmaCmSpecs,
          sources::OwnSection<RdmaCmSection>()};
}

}  // namespace rocewatch::collectors
