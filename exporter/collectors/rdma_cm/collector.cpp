#include "exporter/collectors/rdma_cm/collector.h"

#include "exporter/collectors/rdma_cm/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo RdmaCm::Info() {
  return {"rdma_cm",
          "rdma_cm default RoCE mode and ToS from configfs",
          true,
          {{"create-groups", "false",
            "create rdma_cm/<dev> in configfs so the kernel shows the defaults (needs root)"}},
          &MakeRdmaCmSource,
          &RenderRdmaCm,
          &RdmaCmSpecs,
          OwnSection<RdmaCmSection>()};
}

}  // namespace rocewatch::collectors
