#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// The PCIe link of each RDMA device's PCI function: current and maximum speed
// and width (a NIC that trained at x8 or Gen4 halves its bandwidth silently).
Result<std::unique_ptr<Source>> MakePcieSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
