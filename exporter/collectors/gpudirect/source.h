#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// The PCIe path between every RDMA device and every GPU of the node (section.h): read from
// sysfs (the devices' canonical paths, `class`, `numa_node`, `iommu_group/type`, `config`,
// `aer_dev_*`, `module/*`); no GPU driver or library. The topology is read when the inventory
// changes; the control registers, link state, AER counters and modules on every pass.
Result<std::unique_ptr<Source>> MakeGpuDirectSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
