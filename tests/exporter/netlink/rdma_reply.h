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

#include "exporter/netlink/kernel_skb.h"

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
  std::string kern_name;  // a kernel user's counter in auto mode by PID: RES_KERN_NAME
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

// res_get_common_dumpit over counters (fill_res_counter_entry): one message holding every
// counter's STAT_COUNTER_ENTRY, as many as fit a dump skb (`per_message`), then NLMSG_DONE; no
// counter at all: the message is cancelled and NLMSG_DONE comes alone.
inline std::vector<std::uint8_t> BuildBoundCountersDump(std::uint32_t dev_index,
                                                        const std::string& dev,
                                                        const std::vector<NldevBound>& bound,
                                                        std::size_t per_message = 64) {
  KernelSkb skb;
  for (std::size_t first = 0; first < bound.size(); first += per_message) {
    const std::size_t m = skb.NlmsgPut(kNldevPortId, kNldevSeq,
                                       NldevType(RDMA_NLDEV_CMD_STAT_GET), 0, NLM_F_MULTI);
    PutHandle(skb, dev_index, dev);
    const std::size_t table = skb.NestStartNoflag(RDMA_NLDEV_ATTR_STAT_COUNTER);
    for (std::size_t i = first; i < bound.size() && i < first + per_message; ++i) {
      const NldevBound& b = bound[i];
      const std::size_t entry = skb.NestStartNoflag(RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
      skb.NlaPutU32(RDMA_NLDEV_ATTR_PORT_INDEX, b.port);
      skb.NlaPutU32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, b.id);
      skb.NlaPutU32(RDMA_NLDEV_ATTR_STAT_MODE, b.mode);
      if (b.qp_type) skb.NlaPutU8(RDMA_NLDEV_ATTR_RES_TYPE, *b.qp_type);
      if (b.pid) skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_PID, *b.pid);
      if (!b.kern_name.empty()) skb.NlaPutString(RDMA_NLDEV_ATTR_RES_KERN_NAME, b.kern_name);
      const std::size_t qps = skb.NestStart(RDMA_NLDEV_ATTR_RES_QP);
      for (std::uint32_t qp : b.qps) {
        const std::size_t q = skb.NestStart(RDMA_NLDEV_ATTR_RES_QP_ENTRY);
        skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_LQPN, qp);
        skb.NestEnd(q);
      }
      skb.NestEnd(qps);
      PutHwCounters(skb, b.counters, false);
      skb.NestEnd(entry);
    }
    skb.NestEnd(table);
    skb.NlmsgEnd(m);
  }
  const std::size_t done = skb.NlmsgPut(kNldevPortId, kNldevSeq, NLMSG_DONE, 4, NLM_F_MULTI);
  skb.NlmsgEnd(done);
  return skb.bytes();
}

// A QP as fill_res_qp_entry describes it: a user QP has a PID (and a PD number), a kernel QP
// its owner's name.
struct NldevQp {
  std::uint32_t lqpn = 0;
  std::optional<std::uint32_t> port;
  std::optional<std::uint32_t> pid;
  std::string kern_name;
  std::uint8_t type = 2;   // IB_QPT_RC
  std::uint8_t state = 3;  // IB_QPS_RTS
};

// res_get_common_dumpit over QPs (RES_QP_GET): RES_QP (noflag) of RES_QP_ENTRY (noflag) per
// QP: [PORT_INDEX] LQPN [PDN] PID | KERN_NAME, then fill_res_qp_entry_query's RQPN and RQ_PSN
// (RC/UC), SQ_PSN, PATH_MIG_STATE (RC/UC), TYPE and STATE; `per_message` entries a message,
// then NLMSG_DONE.
inline std::vector<std::uint8_t> BuildResourceQpDump(std::uint32_t dev_index,
                                                     const std::string& dev,
                                                     const std::vector<NldevQp>& qps,
                                                     std::size_t per_message = 64) {
  KernelSkb skb;
  for (std::size_t first = 0; first < qps.size(); first += per_message) {
    const std::size_t m = skb.NlmsgPut(kNldevPortId, kNldevSeq,
                                       NldevType(RDMA_NLDEV_CMD_RES_QP_GET), 0, NLM_F_MULTI);
    PutHandle(skb, dev_index, dev);
    const std::size_t table = skb.NestStartNoflag(RDMA_NLDEV_ATTR_RES_QP);
    for (std::size_t i = first; i < qps.size() && i < first + per_message; ++i) {
      const NldevQp& q = qps[i];
      const std::size_t entry = skb.NestStartNoflag(RDMA_NLDEV_ATTR_RES_QP_ENTRY);
      if (q.port) skb.NlaPutU32(RDMA_NLDEV_ATTR_PORT_INDEX, *q.port);
      skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_LQPN, q.lqpn);
      if (q.pid) {
        skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_PDN, 3);
        skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_PID, *q.pid);
      } else {
        skb.NlaPutString(RDMA_NLDEV_ATTR_RES_KERN_NAME, q.kern_name);
      }
      const bool connected = q.type == 2 || q.type == 3;  // IB_QPT_RC, IB_QPT_UC
      if (connected) {
        skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_RQPN, q.lqpn + 1);
        skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_RQ_PSN, 0x1234);
      }
      skb.NlaPutU32(RDMA_NLDEV_ATTR_RES_SQ_PSN, 0x5678);
      if (connected) skb.NlaPutU8(RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, 0);
      skb.NlaPutU8(RDMA_NLDEV_ATTR_RES_TYPE, q.type);
      skb.NlaPutU8(RDMA_NLDEV_ATTR_RES_STATE, q.state);
      skb.NestEnd(entry);
    }
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
