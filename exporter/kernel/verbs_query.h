#pragma once

#include <cstdint>
#include <string>

#include "exporter/kernel/answers.h"

namespace rocewatch::kernel {

// ibv_query_port on the verbs device named `device`: the struct ibv_port_attr
// as bytes, or ENODEV when libibverbs lists no such device (no RDMA stack, no
// provider library, or the device is gone).
Answer QueryVerbsPort(const std::string& device, std::uint32_t port);

}  // namespace rocewatch::kernel
