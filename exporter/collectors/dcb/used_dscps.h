#pragma once

// The DSCPs "in use" on a netdev: rdma_cm's default ToS of its device, the CNP DSCP its
// DCQCN notification point sends, and --collector.dcb.dscps. The dcb renderer exports
// their priority map; the ethtool renderer serves the per-priority counters of the
// priorities they map to. Defined in collectors/dcb/metrics.cpp.

#include <cstdint>
#include <vector>

namespace rocewatch {
struct NodeSnapshot;
struct DcbSnapshot;
namespace collectors {

// Sorted, without duplicates.
std::vector<std::uint32_t> UsedDscps(const NodeSnapshot& snap, const DcbSnapshot& d);

}  // namespace collectors
}  // namespace rocewatch
