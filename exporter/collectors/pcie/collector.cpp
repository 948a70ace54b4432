#include "collectors/pcie/collector.h"

#include "collectors/pcie/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo Pcie::Info() {
  return {"pcie",
          "PCIe link speed and width of the RDMA devices from sysfs",
          true,
          {},
          &sources::MakePcieSource,
          &metrics::RenderPcie,
          &metrics::PcieSpecs,
          sources::OwnSection<PcieSection>()};
}

}  // namespace rocewatch::collectors
