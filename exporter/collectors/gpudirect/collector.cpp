#include "exporter/collectors/gpudirect/collector.h"

#include "exporter/collectors/gpudirect/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo GpuDirect::Info() {
  return {"gpudirect",
          "The PCIe path between each RDMA device and each GPU from sysfs: NCCL's relation, ACS on the "
          "bridges, IOMMU, ATS, Device Control, peer-memory modules, AER counters",
          true,
          {},
          &MakeGpuDirectSource,
          &RenderGpuDirect,
          &GpuDirectSpecs,
          OwnSection<GpuDirectSection>()};
}

}  // namespace rocewatch::collectors
