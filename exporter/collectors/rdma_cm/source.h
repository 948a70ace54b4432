#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// rdma_cm defaults from configfs: rdma_cm/<dev>/ports/<n>/default_roce_mode and
// default_roce_tos. The kernel only shows them once rdma_cm/<dev> was created
// (mkdir); we read what exists, and create the groups only when
// --collector.rdma_cm.create-groups asks for it.
Result<std::unique_ptr<Source>> MakeRdmaCmSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
