#pragma once

// RDMA netlink RDMA_NLDEV_CMD_RES_QP_GET dump (drivers/infiniband/core/nldev.c,
// res_get_common_dumpit over fill_res_qp_entry): what `rdma resource show qp` prints, the QPs
// of one device with their owner. The request is in rdma_nldev.h. Pure decoder over bytes.
//
// The kernel fills messages of type RES_QP_GET, each
//   DEV_INDEX u32, DEV_NAME string,
//   RES_QP nest { RES_QP_ENTRY nest { [PORT_INDEX u32] RES_LQPN u32, [RES_PDN u32],
//                 RES_PID u32 (a user QP; left out when the task is gone) |
//                 RES_KERN_NAME string (a kernel QP), [RES_RQPN, RES_RQ_PSN, RES_SQ_PSN u32,
//                 RES_PATH_MIG_STATE u8], RES_TYPE u8, RES_STATE u8, [driver details] } ... }
// as many entries as fit a message, then more messages, then NLMSG_DONE. The PID is in the
// pid namespace of the process that asks (task_pid_vnr), and a QP of another pid namespace
// is not listed at all (rdma_is_visible_in_pid_ns).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "exporter/netlink/rdma_nldev.h"
#include "rocewatch/result.h"

namespace rocewatch::rdma_nl {

struct ResourceQp {
  std::uint32_t lqpn = 0;                // the local QP number
  std::optional<std::uint32_t> port;     // absent before the QP is bound to a port
  std::optional<std::uint32_t> pid;      // a user QP's owner
  std::string kernel_owner;              // a kernel QP's owner (RES_KERN_NAME, "ib_core")
  std::optional<std::uint8_t> type;      // IB_QPT_* (2 RC, 3 UC, 4 UD, ...)
  std::optional<std::uint8_t> state;     // IB_QPS_* (0 RESET ... 6 ERR)
};

struct ResourceQps {
  DeviceHandle device;
  std::vector<ResourceQp> qps;  // in the kernel's order
};

// Errors name the attribute (an entry without RES_LQPN, a PID and a kernel owner both, a
// value of the wrong size, more than kMaxResourceQps entries, messages about two devices);
// an NLMSG_ERROR keeps its errno as the code. A device without QPs answers NLMSG_DONE alone.
Result<ResourceQps> DecodeResourceQpDump(netlink::Bytes reply);

inline constexpr std::size_t kMaxResourceQps = 1 << 20;  // mlx5's max_qp is 2^18

}  // namespace rocewatch::rdma_nl
