#pragma once

// Test-only: RDMA netlink (nldev) replies built the way drivers/infiniband/core/nldev.c builds
// them, attribute by attribute, over KernelSkb's nla_* mirrors: fill_nldev_handle (DEV_INDEX,
// DEV_NAME), stat_get_doit_default_counter and rdma_nl_stat_hwcounter_entry (STAT_GET),
// nldev_stat_get_counter_status_doit (STAT_GET_STATUS), stat_get_doit_qp (the QP-counter
// mode), fill_res_counter_entry under res_get_common_dumpit (bound counters) and
// fill_res_info / fill_res_info_entry (RES_GET). The values are the test's; the layout is
// the kernel's.

#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netlink/kernel_skb.h"

namespace rocewatch::testing {

inline std::uint16_t NldevType(std::uint8_t command) {
  return static_cast<std::uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, command));
}

struct NldevCounter {
  std::string name;
  std::uint64_t value = 0;
};

struct NldevOptional {
  std::string name;
  std::uint32_t index = 0;
  bool enabled = false;
};

struct NldevBound {
  std::uint32_t port = 1;
  std::uint32_t id = 0;
  std::uint32_t mode = RDMA_COUNTER_MODE_AUTO;
  std::optional<std::uint8_t> qp_type;
  std::optional<std::uint32_t> pid;
  std::vector<std::uint32_t> qps;
  std::vector<NldevCounter> counters;
};

inline constexpr std::uint32_t kNldevSeq = 3;
inline constexpr std::uint32_t kNldevPortId = 4711;

inline void PutHandle(KernelSkb& skb, std::uint32_t index, const std::string& name) {
  skb.NlaPutU32(RDMA_NLDEV_ATTR_DEV_INDEX, index);
  skb.NlaPutString(RDMA_NLDEV_ATTR_DEV_NAME, name);
}

inline void PutHwCounters(KernelSkb& skb, const std::vector<NldevCounter>& counters, bool pad64) {
  const std::size_t table = skb.NestStart(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  for (const NldevCounter& c : counters) {
    const std::size_t entry = skb.NestStartNoflag(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
    skb.NlaPutString(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, c.name);
    skb.NlaPutU64With64BitPad(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, c.value,
                              RDMA_NLDEV_ATTR_PAD, pad64);
    skb.NestEnd(entry);
  }
  skb.NestEnd(table);
}

// STAT_GET for a port: the enabled counters, then the ACK the request's NLM_F_ACK asks for.
inline std::vector<std::uint8_t> BuildStatReply(std::uint32_t dev_index, const std::string& dev,
                                                std::uint32_t port,
                                                const std::vector<NldevCounter>& counters,
                                                bool pad64 = false) {
  KernelSkb skb;
  const std::size_t m =
      skb.NlmsgPut(kNldevPortId, kNldevSeq, NldevType(RDMA_NLDEV_CMD_STAT_GET), 0, 0);
  PutHandle(skb, dev_index, dev);
  skb.NlaPutU32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
  PutHwCounters(skb, counters, pad64);
  skb.NlmsgEnd(m);
  return skb.bytes();
}

inline std::vector<std::uint8_t> BuildStatStatusReply(std::uint32_t dev_index,
                                                      const std::string& dev, std::uint32_t port,
                                                      const std::vector<NldevOptional>& optional) {
  KernelSkb skb;
  const std::size_t m =
      skb.NlmsgPut(kNldevPortId, kNldevSeq, NldevType(RDMA_NLDEV_CMD_STAT_GET_STATUS), 0, 0);
  PutHandle(skb, dev_index, dev);
  skb.NlaPutU32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
  const std::size_t table = skb.NestStart(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  for (const NldevOptional& o : optional) {
    const std::size_t entry = skb.NestStart(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
    skb.NlaPutString(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, o.name);
    skb.NlaPutU32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, o.index);
    skb.NlaPutU8(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, o.enabled ? 1 : 0);
    skb.NestEnd(entry);
  }
  skb.NestEnd(table);
  skb.NlmsgEnd(m);
  return skb.bytes();
}

inline std::vector<std::uint8_t> BuildCounterModeReply(std::uint32_t dev_index,
                                                       const std::string& dev, std::uint32_t port,
                                                       std::uint32_t mode, std::uint32_t mask) {
  KernelSkb skb;
  const std::size_t m =
      skb.NlmsgPut(kNldevPortId, kNldevSeq, NldevType(RDMA_NLDEV_CMD_STAT_GET), 0, 0);
  PutHandle(skb, dev_index, dev);
  skb.NlaPutU32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
  skb.NlaPutU32(RDMA_NLDEV_ATTR_STAT_MODE, mode);
  if (mode == RDMA_COUNTER_MODE_AUTO) skb.NlaPutU32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, mask);
  skb.NlmsgEnd(m);
  return skb.bytes();
}

// res_get_common_dumpit over counters: one message per counter, then NLMSG_DONE.
inline std::vector<std::uint8_t> BuildBoundCountersDump(std::uint32_t dev_index,
                                                        const std::string& dev,
                                                        const std::vector<NldevBound>& bound) {
  KernelSkb skb;
  for (const NldevBound& b : bound) {
    const std::size_t m = skb.NlmsgPut(kNldevPortId, kNldevSeq,
                                       NldevType(RDMA_NLDEV_CMD_STAT_GET), 0, NLM_F_MULTI);
    PutHandle(skb, dev_index, dev);
    const std::size_t table = skb.NestStartNoflag(RDMA_NLDEV_ATTR_STAT_COUNTER);
    const std::size_t entry = skb.NestStartNoflag(RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
    skb.NlaPutU32(RDMA_NLDEV_ATTR_PORT_INDEX, b.port);
    skb.NlaPutU32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, b.id);
    skb.NlaPutU32(RDMA_NLDEV_ATTR_STAT_MODE, b.mode);
    if (b.qp_type) skb.NlaPutU8(RDMA_NLDEV_ATTR_RES_TYPE, *b.qp_type);
    if (b.pid) skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_PID, *b.pid);
    const std::size_t qps = skb.NestStart(RDMA_NLDEV_ATTR_RES_QP);
    for (std::uint32_t qp : b.qps) {
      const std::size_t q = skb.NestStart(RDMA_NLDEV_ATTR_RES_QP_ENTRY);
      skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_LQPN, qp);
      skb.NestEnd(q);
    }
    skb.NestEnd(qps);
    PutHwCounters(skb, b.counters, false);
    skb.NestEnd(entry);
    skb.NestEnd(table);
    skb.NlmsgEnd(m);
  }
  const std::size_t done = skb.NlmsgPut(kNldevPortId, kNldevSeq, NLMSG_DONE, 4, NLM_F_MULTI);
  skb.NlmsgEnd(done);
  return skb.bytes();
}

inline std::vector<std::uint8_t> BuildResourceSummaryReply(
    std::uint32_t dev_index, const std::string& dev,
    const std::vector<std::pair<std::string, std::uint64_t>>& entries) {
  KernelSkb skb;
  const std::size_t m =
      skb.NlmsgPut(kNldevPortId, kNldevSeq, NldevType(RDMA_NLDEV_CMD_RES_GET), 0, 0);
  PutHandle(skb, dev_index, dev);
  const std::size_t table = skb.NestStartNoflag(RDMA_NLDEV_ATTR_RES_SUMMARY);
  for (const auto& [name, curr] : entries) {
    const std::size_t entry = skb.NestStartNoflag(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
    skb.NlaPutString(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name);
    skb.NlaPutU64With64BitPad(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, curr, RDMA_NLDEV_ATTR_PAD,
                              false);
    skb.NestEnd(entry);
  }
  skb.NestEnd(table);
  skb.NlmsgEnd(m);
  return skb.bytes();
}

// RDMA_NLDEV_CMD_GET dump: fill_dev_info's handle (and more we do not read) per device.
inline std::vector<std::uint8_t> BuildDeviceDump(
    const std::vector<std::pair<std::uint32_t, std::string>>& devices) {
  KernelSkb skb;
  for (const auto& [index, name] : devices) {
    const std::size_t m =
        skb.NlmsgPut(kNldevPortId, kNldevSeq, NldevType(RDMA_NLDEV_CMD_GET), 0, NLM_F_MULTI);
    PutHandle(skb, index, name);
    skb.NlaPutU32(RDMA_NLDEV_ATTR_PORT_INDEX, 1);  // the number of ports, for CMD_GET
    skb.NlaPutString(RDMA_NLDEV_ATTR_FW_VERSION, "16.35.2000");
    skb.NlmsgEnd(m);
  }
  const std::size_t done = skb.NlmsgPut(kNldevPortId, kNldevSeq, NLMSG_DONE, 4, NLM_F_MULTI);
  skb.NlmsgEnd(done);
  return skb.bytes();
}

}  // namespace rocewatch::testing
