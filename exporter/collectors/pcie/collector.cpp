#include "exporter/collectors/pcie/collector.h"

#include "exporter/collectors/pcie/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo Pcie::Info() {
  return {"pcie",
          "PCIe link speed and width of the RDMA devices from sysfs",
          true,
          {},
          &MakePcieSource,
          &RenderPcie,
          &PcieSpecs,
          OwnSection<PcieSection>()};
}

}  // namespace rocewatch::collectors
