#pragma once

// The ToS byte rdma_cm's default_roce_tos holds for a DSCP: the DSCP in the upper six bits and
// ECN-capable transport, ECT(0), in the lower two (DSCP << 2 | 2).

#include <cstdint>

namespace rocewatch::lint {

constexpr std::int64_t TosForDscp(std::int64_t dscp) { return dscp << 2 | 2; }

}  // namespace rocewatch::lint
