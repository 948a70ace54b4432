#pragma once

// RDMA netlink counters (drivers/infiniband/core/nldev.c, include/uapi/rdma/rdma_netlink.h):
// what `rdma statistic show` prints. Requests are in rdma_nldev.h.
//
// RDMA_NLDEV_CMD_STAT_GET for a port (stat_get_doit_default_counter), every hw counter the
// port has enabled, mandatory and optional alike, in one answer:
//   DEV_INDEX u32, DEV_NAME string, PORT_INDEX u32,
//   STAT_HWCOUNTERS nest { STAT_HWCOUNTER_ENTRY nest { _ENTRY_NAME string,
//                                                      [PAD] _ENTRY_VALUE u64 } ... }
// RDMA_NLDEV_CMD_STAT_GET_STATUS (kernels 6.0 and later): the optional counters only,
//   STAT_HWCOUNTERS nest { STAT_HWCOUNTER_ENTRY nest { _ENTRY_NAME string,
//                          STAT_HWCOUNTER_INDEX u32, STAT_HWCOUNTER_DYNAMIC u8 (1 = enabled) } }
// STAT_GET with STAT_RES = RES_QP (stat_get_doit_qp): STAT_MODE u32 (none, auto, manual)
//   and, in auto mode, STAT_AUTO_MODE_MASK u32 (RDMA_COUNTER_MASK_QP_TYPE, _PID).
// The same as a dump: one message per bound counter, each
//   DEV_INDEX, DEV_NAME, STAT_COUNTER nest { STAT_COUNTER_ENTRY nest { PORT_INDEX u32,
//   STAT_COUNTER_ID u32, STAT_MODE u32, [RES_TYPE u8 | RES_PID u32 in auto mode],
//   RES_QP nest { RES_QP_ENTRY nest { RES_LQPN u32 } ... }, STAT_HWCOUNTERS nest {...} } }
// then NLMSG_DONE.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "exporter/netlink/rdma_nldev.h"
#include "rocewatch/result.h"

namespace rocewatch::rdma_nl {

struct HwCounter {
  std::string name;  // the driver's name, the same as the sysfs file's ("rx_write_requests")
  std::uint64_t value = 0;
};

struct PortCounters {
  DeviceHandle device;
  std::uint32_t port = 0;
  std::vector<HwCounter> counters;  // in the driver's order; names unique
};

// Errors name the attribute (an entry without a name or value, a value that is not a u64, a
// name twice, more than kMaxHwCounters entries); an NLMSG_ERROR keeps its errno as the code.
Result<PortCounters> DecodeStatReply(netlink::Bytes reply);

struct OptionalCounter {
  std::string name;
  std::uint32_t index = 0;  // the driver's counter index (`rdma statistic set` uses names)
  bool enabled = false;     // RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC
};

struct OptionalCounters {
  DeviceHandle device;
  std::uint32_t port = 0;
  std::vector<OptionalCounter> counters;
};

Result<OptionalCounters> DecodeStatStatusReply(netlink::Bytes reply);

enum class CounterMode : std::uint32_t { kNone = 0, kAuto = 1, kManual = 2 };
// "none", "auto", "manual" (`rdma statistic qp mode` prints the same).
std::string_view CounterModeName(CounterMode mode);

struct PortCounterMode {
  DeviceHandle device;
  std::uint32_t port = 0;
  CounterMode mode = CounterMode::kNone;
  std::uint32_t auto_mask = 0;  // RDMA_COUNTER_MASK_* in auto mode, else 0
};

Result<PortCounterMode> DecodeCounterModeReply(netlink::Bytes reply);

struct BoundCounter {
  DeviceHandle device;
  std::uint32_t port = 0;
  std::uint32_t id = 0;
  CounterMode mode = CounterMode::kNone;
  std::optional<std::uint8_t> qp_type;  // auto mode by QP type
  std::optional<std::uint32_t> pid;     // auto mode by PID
  std::vector<std::uint32_t> qps;       // the local QP numbers bound to the counter
  std::vector<HwCounter> counters;
};

// A dump: every message up to NLMSG_DONE (required: without it the dump was cut).
Result<std::vector<BoundCounter>> DecodeBoundCountersDump(netlink::Bytes reply);

inline constexpr std::size_t kMaxHwCounters = 1024;  // mlx5 has about 100
inline constexpr std::size_t kMaxBoundQps = 65536;

}  // namespace rocewatch::rdma_nl
