#include "exporter/collectors/pcie/collector.h"

#include "exporter/collectors/pcie/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

collectors::CollectorInfo Pcie::Info() {
  return {"pcie",
          "PCIe link speed and width of the RDMA devices from sysfs",
          true,
          {},
          &collectors::MakePcieSource,
          &metrics::RenderPcie,
          &metrics::PcieSpecs,
          collectors::OwnSection<PcieSection>()};
}

}  // namespace rocewatch::collectors
