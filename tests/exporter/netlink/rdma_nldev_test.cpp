// RDMA netlink (nldev): the requests, and replies laid out the way drivers/infiniband/core/
// nldev.c builds them (tests/exporter/netlink/rdma_reply.h), field by field; one reply written out byte
// by byte with the attribute numbers of include/uapi/rdma/rdma_netlink.h; hostile replies.

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cerrno>
#include <cstring>

#include "exporter/netlink/rdma_nldev.h"
#include "exporter/netlink/rdma_res_qp.h"
#include "exporter/netlink/rdma_stat.h"
#include "exporter/netlink/kernel_skb.h"
#include "exporter/netlink/rdma_reply.h"

namespace rocewatch::rdma_nl {
namespace {

// The numbers the byte-by-byte replies below are written with: the header's ABI.
static_assert(RDMA_NL_NLDEV == 5);
static_assert(RDMA_NLDEV_CMD_GET == 1 && RDMA_NLDEV_CMD_RES_GET == 9);
static_assert(RDMA_NLDEV_CMD_STAT_GET == 17 && RDMA_NLDEV_CMD_STAT_GET_STATUS == 24);
static_assert(RDMA_NLDEV_ATTR_DEV_INDEX == 1 && RDMA_NLDEV_ATTR_DEV_NAME == 2 &&
              RDMA_NLDEV_ATTR_PORT_INDEX == 3);
static_assert(RDMA_NLDEV_ATTR_RES_SUMMARY == 15 && RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY == 16 &&
              RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME == 17 &&
              RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR == 18);
static_assert(RDMA_NLDEV_ATTR_STAT_MODE == 74 && RDMA_NLDEV_ATTR_STAT_RES == 75);
static_assert(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS == 80 && RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY == 81 &&
              RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME == 82 &&
              RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE == 83);
static_assert(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX == 94 &&
              RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC == 95);

using testing::NldevBound;
using testing::NldevCounter;
using testing::NldevOptional;
using testing::NldevQp;

// STAT_GET of mlx5_0 port 1 with one counter, np_cnp_sent = 0x0102030405060708.
const std::vector<std::uint8_t> kOneCounter = {
    80, 0, 0, 0,            // nlmsg_len
    0x11, 0x14,             // (RDMA_NL_NLDEV << 10) + RDMA_NLDEV_CMD_STAT_GET = 5137
    0, 0, 3, 0, 0, 0,       // flags, seq 3
    0, 0, 0, 0,             // pid
    8, 0, 1, 0, 2, 0, 0, 0,  // RDMA_NLDEV_ATTR_DEV_INDEX 2
    11, 0, 2, 0, 'm', 'l', 'x', '5', '_', '0', 0, 0,  // RDMA_NLDEV_ATTR_DEV_NAME, 1 pad byte
    8, 0, 3, 0, 1, 0, 0, 0,       // RDMA_NLDEV_ATTR_PORT_INDEX 1
    36, 0, 80, 0x80,              // RDMA_NLDEV_ATTR_STAT_HWCOUNTERS | NLA_F_NESTED
    32, 0, 81, 0,                 //   RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY (noflag, as the kernel)
    16, 0, 82, 0,                 //     _ENTRY_NAME "np_cnp_sent"
    'n', 'p', '_', 'c', 'n', 'p', '_', 's', 'e', 'n', 't', 0,
    12, 0, 83, 0,                 //     _ENTRY_VALUE u64
    8, 7, 6, 5, 4, 3, 2, 1};

TEST(RdmaNldevRequest, StatGetBytes) {
  const std::vector<std::uint8_t> expected = {
      32, 0, 0, 0,  0x11, 0x14,  // STAT_GET
      5, 0,                      // NLM_F_REQUEST | NLM_F_ACK
      9, 0, 0, 0, 0, 0, 0, 0,    // seq 9, pid 0
      8, 0, 1, 0, 2, 0, 0, 0,    // DEV_INDEX 2
      8, 0, 3, 0, 1, 0, 0, 0};   // PORT_INDEX 1
  EXPECT_EQ(BuildStatRequest(2, 1, 9), expected);
  auto status = BuildStatStatusRequest(2, 1, 9);
  ASSERT_EQ(status.size(), 32u);
  EXPECT_EQ(status[4], 0x18);  // (5 << 10) + 24 = 0x1418
  EXPECT_EQ(status[5], 0x14);
  // What `rdma statistic qp mode link rxe0/1` (iproute2 6.1) sent to Debian's kernel 6.1.0-57 in
  // the QEMU guest (strace -xx; tests/vm/checks/rdma_qp_mode.sh compares the exporter's request
  // with it there): without STAT_MODE the kernel answers EINVAL.
  const std::vector<std::uint8_t> rdma_tool_mode = {
      48, 0, 0, 0,  0x11, 0x14,  // STAT_GET
      5, 0,                      // NLM_F_REQUEST | NLM_F_ACK
      9, 0, 0, 0, 0, 0, 0, 0,    // seq (9 here), pid 0
      8, 0, 1, 0, 0, 0, 0, 0,    // DEV_INDEX 0
      8, 0, 3, 0, 1, 0, 0, 0,    // PORT_INDEX 1
      8, 0, 74, 0, 2, 0, 0, 0,   // STAT_MODE 2
      8, 0, 75, 0, 19, 0, 0, 0}; // STAT_RES = RES_QP
  EXPECT_EQ(BuildCounterModeRequest(0, 1, 9), rdma_tool_mode);
  auto dump = BuildBoundCountersRequest(2, 1, 9);
  EXPECT_EQ(dump[6], (NLM_F_REQUEST | NLM_F_DUMP) & 0xff);
  EXPECT_EQ(dump[7], (NLM_F_REQUEST | NLM_F_DUMP) >> 8);
  const std::vector<std::uint8_t> devices = {16, 0, 0, 0, 0x01, 0x14, 0x01, 0x03,
                                             1,  0, 0, 0, 0,    0,    0,    0};
  EXPECT_EQ(BuildDeviceDumpRequest(1), devices);
  auto res = BuildResourceSummaryRequest(7, 2);
  ASSERT_EQ(res.size(), 24u);
  EXPECT_EQ(res[4], 0x09);
  EXPECT_EQ(res[20], 7);
}

// RDMA_NLDEV_CMD_GET_CHARDEV "uverbs" for rxe0 (index 0), as Debian's kernel 6.1.0-57 answered
// libibverbs (rdma-core 44) in the QEMU guest of tests/vm (strace -xx of `ib_write_bw -d …`,
// tests/vm/checks/rdma_driver.sh, 2026-12-07): strace printed the header decoded (nlmsg_len 60,
// type 0x140f, flags 0), the attributes below byte for byte. The driver id comes first, a u32,
// though the uapi header comments it as u64.
const std::vector<std::uint8_t> kRxeUverbsChardev = {
    60, 0, 0, 0, 0x0f, 0x14, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,  // header: GET_CHARDEV, seq 1
    0x08, 0x00, 0x49, 0x00, 0x0e, 0x00, 0x00, 0x00,          // UVERBS_DRIVER_ID 14 (RXE)
    0x0c, 0x00, 0x48, 0x00, 0xc0, 0xe7, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // CHARDEV dev_t
    0x0c, 0x00, 0x47, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // CHARDEV_ABI 2
    0x0c, 0x00, 0x46, 0x00, 'u', 'v', 'e', 'r', 'b', 's', '0', 0x00};        // CHARDEV_NAME

TEST(RdmaNldevChardev, RequestIsLibibverbsAndTheRealRxeAnswerDecodes) {
  static_assert(RDMA_NLDEV_CMD_GET_CHARDEV == 15 && RDMA_NLDEV_ATTR_CHARDEV_TYPE == 69 &&
                RDMA_NLDEV_ATTR_CHARDEV_NAME == 70 && RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID == 73);
  // libibverbs' request for index 0 in the same guest, attributes byte for byte; it sends
  // NLM_F_REQUEST alone, we ask for the ACK too (as every nldev request of ours).
  const std::vector<std::uint8_t> attributes = {0x08, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b, 0x00,
                                                0x45, 0x00, 'u',  'v',  'e',  'r',  'b',  's',  0x00, 0x00};
  auto request = BuildUverbsChardevRequest(0, 7);
  ASSERT_EQ(request.size(), 16 + attributes.size());
  EXPECT_EQ(std::vector<std::uint8_t>(request.begin() + 16, request.end()), attributes);
  EXPECT_EQ(request[4], 0x0f);
  EXPECT_EQ(request[5], 0x14);
  EXPECT_EQ(request[6], NLM_F_REQUEST | NLM_F_ACK);

  auto chardev = DecodeUverbsChardevReply(kRxeUverbsChardev);
  ASSERT_TRUE(chardev) << chardev.error().message;
  EXPECT_EQ(chardev->name, "uverbs0");
  ASSERT_TRUE(chardev->driver_id.has_value());
  EXPECT_EQ(*chardev->driver_id, 14u);  // RDMA_DRIVER_RXE
}

TEST(RdmaNldevChardev, HostileAndPartialAnswers) {
  // A driver that opts out of driver-id binding answers no UVERBS_DRIVER_ID: not an error.
  std::vector<std::uint8_t> no_id(kRxeUverbsChardev.begin(), kRxeUverbsChardev.end());
  no_id.erase(no_id.begin() + 16, no_id.begin() + 24);
  no_id[0] = static_cast<std::uint8_t>(no_id.size());
  auto c = DecodeUverbsChardevReply(no_id);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->driver_id.has_value());
  // A 2-byte driver id, a name with a slash, no name: errors naming the attribute.
  std::vector<std::uint8_t> short_id = kRxeUverbsChardev;
  short_id[16] = 6;
  auto bad = DecodeUverbsChardevReply(short_id);
  EXPECT_FALSE(bad);
  std::vector<std::uint8_t> slash = kRxeUverbsChardev;
  slash[slash.size() - 3] = '/';
  auto s = DecodeUverbsChardevReply(slash);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("RDMA_NLDEV_ATTR_CHARDEV_NAME"), std::string::npos) << s.error().message;
  std::vector<std::uint8_t> nameless(kRxeUverbsChardev.begin(), kRxeUverbsChardev.end() - 12);
  nameless[0] = static_cast<std::uint8_t>(nameless.size());
  auto n = DecodeUverbsChardevReply(nameless);
  ASSERT_FALSE(n);
  EXPECT_NE(n.error().message.find("no RDMA_NLDEV_ATTR_CHARDEV_NAME"), std::string::npos) << n.error().message;
  // The kernel's EINVAL (ib_uverbs not loaded, the index gone) keeps its errno.
  testing::KernelSkb err;
  err.Ack(BuildUverbsChardevRequest(0, 1), EINVAL, /*capped=*/true);
  auto e = DecodeUverbsChardevReply(err.bytes());
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().code, EINVAL);
}

TEST(RdmaStat, OneCounterByteByByte) {
  auto stats = DecodeStatReply(kOneCounter);
  ASSERT_TRUE(stats) << stats.error().message;
  EXPECT_EQ(stats->device.index, 2u);
  EXPECT_EQ(stats->device.name, "mlx5_0");
  EXPECT_EQ(stats->port, 1u);
  ASSERT_EQ(stats->counters.size(), 1u);
  EXPECT_EQ(stats->counters[0].name, "np_cnp_sent");
  EXPECT_EQ(stats->counters[0].value, 0x0102030405060708u);
}

TEST(RdmaStat, KernelShapedWithPadAndAck) {
  const std::vector<NldevCounter> counters = {{"rx_write_requests", 12},
                                              {"out_of_buffer", 0},
                                              {"cc_rx_ce_pkts", 18446744073709551615u},
                                              {"np_ecn_marked_roce_packets", 77}};
  for (bool pad64 : {false, true}) {
    auto bytes = testing::BuildStatReply(4, "mlx5_1", 2, counters, pad64);
    // The ACK NLM_F_ACK asks for follows the answer in the same buffer.
    testing::KernelSkb ack;
    ack.Ack(BuildStatRequest(4, 2, 3), 0, /*capped=*/true);
    bytes.insert(bytes.end(), ack.bytes().begin(), ack.bytes().end());
    auto stats = DecodeStatReply(bytes);
    ASSERT_TRUE(stats) << stats.error().message;
    EXPECT_EQ(stats->device.name, "mlx5_1");
    EXPECT_EQ(stats->port, 2u);
    ASSERT_EQ(stats->counters.size(), counters.size());
    for (std::size_t i = 0; i < counters.size(); ++i) {
      EXPECT_EQ(stats->counters[i].name, counters[i].name);
      EXPECT_EQ(stats->counters[i].value, counters[i].value);
    }
  }
}

TEST(RdmaStat, KernelErrorKeepsErrno) {
  testing::KernelSkb skb;
  skb.Ack(BuildStatRequest(9, 1, 3), EOPNOTSUPP, false, "Unsupported port");
  auto stats = DecodeStatReply(skb.bytes());
  ASSERT_FALSE(stats);
  EXPECT_EQ(stats.error().code, EOPNOTSUPP);
  EXPECT_NE(stats.error().message.find("Unsupported port"), std::string::npos);
}

TEST(RdmaStat, HostileRepliesAreErrors) {
  // Truncated at every length: an error, never a crash.
  for (std::size_t n = 0; n < kOneCounter.size(); ++n) {
    std::vector<std::uint8_t> cut(kOneCounter.begin(), kOneCounter.begin() + n);
    EXPECT_FALSE(DecodeStatReply(cut)) << n;
  }
  // The value as a u32: wrong size.
  auto bytes = testing::BuildStatReply(1, "mlx5_0", 1, {});
  {
    testing::KernelSkb skb;
    const std::size_t m = skb.NlmsgPut(1, 3, testing::NldevType(RDMA_NLDEV_CMD_STAT_GET), 0, 0);
    testing::PutHandle(skb, 1, "mlx5_0");
    skb.NlaPutU32(RDMA_NLDEV_ATTR_PORT_INDEX, 1);
    const std::size_t t = skb.NestStart(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
    const std::size_t e = skb.NestStartNoflag(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
    skb.NlaPutString(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "rx_atomic_requests");
    skb.NlaPutU32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 5);
    skb.NestEnd(e);
    skb.NestEnd(t);
    skb.NlmsgEnd(m);
    auto stats = DecodeStatReply(skb.bytes());
    ASSERT_FALSE(stats);
    EXPECT_NE(stats.error().message.find("RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE"),
              std::string::npos)
        << stats.error().message;
  }
  // A name twice, a name with '/', port 0, no counters table.
  EXPECT_FALSE(DecodeStatReply(testing::BuildStatReply(1, "mlx5_0", 1, {{"a", 1}, {"a", 2}})));
  EXPECT_FALSE(DecodeStatReply(testing::BuildStatReply(1, "mlx5_0", 1, {{"../x", 1}})));
  EXPECT_FALSE(DecodeStatReply(testing::BuildStatReply(1, "mlx5_0", 0, {{"a", 1}})));
  EXPECT_FALSE(DecodeStatReply(testing::BuildCounterModeReply(1, "mlx5_0", 1, 0, 0)));
  // More entries than kMaxHwCounters.
  std::vector<NldevCounter> many;
  for (std::size_t i = 0; i <= kMaxHwCounters; ++i) many.push_back({"c" + std::to_string(i), i});
  auto huge = DecodeStatReply(testing::BuildStatReply(1, "mlx5_0", 1, many));
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message.find("more than 1024"), std::string::npos);
  // Another command's answer is not a STAT_GET answer.
  EXPECT_FALSE(DecodeStatReply(testing::BuildStatStatusReply(1, "mlx5_0", 1, {})));
  // An empty table is a port without counters, not an error.
  auto empty = DecodeStatReply(bytes);
  ASSERT_TRUE(empty) << empty.error().message;
  EXPECT_TRUE(empty->counters.empty());
}

TEST(RdmaStatStatus, OptionalCountersAndWhichAreEnabled) {
  auto status = DecodeStatStatusReply(testing::BuildStatStatusReply(
      2, "mlx5_0", 1,
      {{"cc_rx_ce_pkts", 40, true}, {"cc_rx_cnp_pkts", 41, false}, {"cc_tx_cnp_pkts", 42, true}}));
  ASSERT_TRUE(status) << status.error().message;
  EXPECT_EQ(status->device.name, "mlx5_0");
  ASSERT_EQ(status->counters.size(), 3u);
  EXPECT_EQ(status->counters[0].name, "cc_rx_ce_pkts");
  EXPECT_EQ(status->counters[0].index, 40u);
  EXPECT_TRUE(status->counters[0].enabled);
  EXPECT_EQ(status->counters[1].name, "cc_rx_cnp_pkts");
  EXPECT_FALSE(status->counters[1].enabled);
  EXPECT_TRUE(status->counters[2].enabled);
  auto none = DecodeStatStatusReply(testing::BuildStatStatusReply(2, "mlx5_0", 1, {}));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->counters.empty());
  // Kernels before 6.0 do not know the command.
  testing::KernelSkb skb;
  skb.Ack(BuildStatStatusRequest(2, 1, 3), EOPNOTSUPP);
  auto old = DecodeStatStatusReply(skb.bytes());
  ASSERT_FALSE(old);
  EXPECT_EQ(old.error().code, EOPNOTSUPP);
}

TEST(RdmaCounterMode, NoneAutoManual) {
  auto none = DecodeCounterModeReply(
      testing::BuildCounterModeReply(2, "mlx5_0", 1, RDMA_COUNTER_MODE_NONE, 0));
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(none->mode, CounterMode::kNone);
  auto autom = DecodeCounterModeReply(testing::BuildCounterModeReply(
      2, "mlx5_0", 1, RDMA_COUNTER_MODE_AUTO, RDMA_COUNTER_MASK_QP_TYPE));
  ASSERT_TRUE(autom) << autom.error().message;
  EXPECT_EQ(autom->mode, CounterMode::kAuto);
  EXPECT_EQ(CounterModeName(autom->mode), "auto");
  EXPECT_EQ(autom->auto_mask, static_cast<std::uint32_t>(RDMA_COUNTER_MASK_QP_TYPE));
  EXPECT_FALSE(DecodeCounterModeReply(testing::BuildCounterModeReply(2, "mlx5_0", 1, 3, 0)));
}

TEST(RdmaBoundCounters, DumpWithQpsAndCounters) {
  NldevBound a;
  a.id = 4;
  a.qp_type = 2;  // IB_QPT_RC
  a.qps = {0x1a5, 0x1a6};
  a.counters = {{"rx_write_requests", 100}, {"out_of_sequence", 1}};
  NldevBound b;
  b.id = 5;
  b.mode = RDMA_COUNTER_MODE_MANUAL;
  b.pid = 30489;
  b.qps = {0x2b0};
  b.counters = {{"rx_write_requests", 7}};
  auto bound = DecodeBoundCountersDump(testing::BuildBoundCountersDump(2, "mlx5_0", {a, b}));
  ASSERT_TRUE(bound) << bound.error().message;
  ASSERT_EQ(bound->size(), 2u);
  const BoundCounter& first = (*bound)[0];
  EXPECT_EQ(first.device.name, "mlx5_0");
  EXPECT_EQ(first.port, 1u);
  EXPECT_EQ(first.id, 4u);
  EXPECT_EQ(first.mode, CounterMode::kAuto);
  EXPECT_EQ(first.qp_type, std::optional<std::uint8_t>(2));
  EXPECT_FALSE(first.pid);
  EXPECT_EQ(first.qps, (std::vector<std::uint32_t>{0x1a5, 0x1a6}));
  ASSERT_EQ(first.counters.size(), 2u);
  EXPECT_EQ(first.counters[0].value, 100u);
  const BoundCounter& second = (*bound)[1];
  EXPECT_EQ(second.mode, CounterMode::kManual);
  EXPECT_EQ(second.pid, std::optional<std::uint32_t>(30489));
  EXPECT_EQ(second.qps, (std::vector<std::uint32_t>{0x2b0}));

  auto empty = DecodeBoundCountersDump(testing::BuildBoundCountersDump(2, "mlx5_0", {}));
  ASSERT_TRUE(empty) << empty.error().message;
  EXPECT_TRUE(empty->empty());
  // Without NLMSG_DONE the dump was cut: an error, not a shorter list.
  auto bytes = testing::BuildBoundCountersDump(2, "mlx5_0", {a});
  bytes.resize(bytes.size() - 20);
  EXPECT_FALSE(DecodeBoundCountersDump(bytes));
  // The same counter id twice.
  EXPECT_FALSE(DecodeBoundCountersDump(testing::BuildBoundCountersDump(2, "mlx5_0", {a, a})));
}

TEST(RdmaResources, Summary) {
  auto summary = DecodeResourceSummaryReply(testing::BuildResourceSummaryReply(
      2, "mlx5_0",
      {{"pd", 3}, {"cq", 12}, {"qp", 9}, {"cm_id", 0}, {"mr", 44}, {"ctx", 2}, {"srq", 0}}));
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->device.index, 2u);
  ASSERT_EQ(summary->resources.size(), 7u);
  EXPECT_EQ(summary->resources[2].name, "qp");
  EXPECT_EQ(summary->resources[2].current, 9u);
  EXPECT_EQ(summary->resources[4].name, "mr");
  EXPECT_EQ(summary->resources[4].current, 44u);
  EXPECT_FALSE(DecodeResourceSummaryReply(
      testing::BuildResourceSummaryReply(2, "mlx5_0", {{"qp", 1}, {"qp", 2}})));
  EXPECT_FALSE(DecodeResourceSummaryReply(testing::BuildResourceSummaryReply(2, "", {{"qp", 1}})));
}

TEST(RdmaDevices, DumpMapsNamesToIndexes) {
  auto devices = DecodeDeviceDump(testing::BuildDeviceDump({{0, "mlx5_0"}, {1, "mlx5_1"}}));
  ASSERT_TRUE(devices) << devices.error().message;
  ASSERT_EQ(devices->size(), 2u);
  EXPECT_EQ((*devices)[1].index, 1u);
  EXPECT_EQ((*devices)[1].name, "mlx5_1");
  auto none = DecodeDeviceDump(testing::BuildDeviceDump({}));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(DecodeDeviceDump(testing::BuildDeviceDump({{0, "a"}, {0, "b"}})));
}

// The kernel fills as many entries as fit a dump skb, then goes on in the next message: the
// counters of both messages are one list.
TEST(RdmaBoundCounters, EntriesOverSeveralMessages) {
  std::vector<NldevBound> bound;
  for (std::uint32_t id = 1; id <= 5; ++id) {
    bound.push_back({.port = 1, .id = id, .mode = RDMA_COUNTER_MODE_AUTO, .qp_type = {},
                     .pid = 1000 + id, .qps = {id * 16, id * 16 + 1}, .counters = {{"out_of_sequence", id}}, .kern_name = {}});
  }
  auto all = DecodeBoundCountersDump(testing::BuildBoundCountersDump(2, "mlx5_0", bound, 2));
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 5u);
  EXPECT_EQ((*all)[4].id, 5u);
  EXPECT_EQ((*all)[4].pid, 1005u);
  EXPECT_EQ((*all)[4].qps, (std::vector<std::uint32_t>{80, 81}));
  ASSERT_EQ((*all)[4].counters.size(), 1u);
  EXPECT_EQ((*all)[4].counters[0].value, 5u);
}

// In auto mode by PID a kernel user's counter names its owner (fill_res_name_pid); a counter
// with a PID and a kernel name both is not one the kernel sends.
TEST(RdmaBoundCounters, KernelOwnerByName) {
  NldevBound k{.port = 1, .id = 3, .mode = RDMA_COUNTER_MODE_AUTO, .qp_type = {}, .pid = {},
               .qps = {2}, .counters = {}, .kern_name = "rdma_cm"};
  auto one = DecodeBoundCountersDump(testing::BuildBoundCountersDump(2, "mlx5_0", {k}));
  ASSERT_TRUE(one) << one.error().message;
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].kernel_owner, "rdma_cm");
  EXPECT_FALSE((*one)[0].pid);
  k.pid = 77;
  auto both = DecodeBoundCountersDump(testing::BuildBoundCountersDump(2, "mlx5_0", {k}));
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().message.find("_RES_KERN_NAME"), std::string::npos);
}

TEST(RdmaResourceQps, UserAndKernelQpsOverSeveralMessages) {
  const std::vector<NldevQp> qps = {
      {.lqpn = 1, .port = 1, .pid = {}, .kern_name = "ib_core", .type = 1, .state = 3},
      {.lqpn = 0x1b5, .port = 1, .pid = 30818, .kern_name = "", .type = 2, .state = 3},
      {.lqpn = 0x1b6, .port = {}, .pid = 30818, .kern_name = "", .type = 4, .state = 0},
  };
  auto dump = DecodeResourceQpDump(testing::BuildResourceQpDump(2, "mlx5_0", qps, 2));
  ASSERT_TRUE(dump) << dump.error().message;
  EXPECT_EQ(dump->device.name, "mlx5_0");
  ASSERT_EQ(dump->qps.size(), 3u);
  EXPECT_EQ(dump->qps[0].kernel_owner, "ib_core");
  EXPECT_FALSE(dump->qps[0].pid);
  EXPECT_EQ(dump->qps[0].type, 1u);  // IB_QPT_GSI
  EXPECT_EQ(dump->qps[1].lqpn, 0x1b5u);
  EXPECT_EQ(dump->qps[1].pid, 30818u);
  EXPECT_EQ(dump->qps[1].port, 1u);
  EXPECT_EQ(dump->qps[1].state, 3u);
  EXPECT_FALSE(dump->qps[2].port);  // not bound to a port yet
  EXPECT_EQ(dump->qps[2].type, 4u);
  // A device without QPs: NLMSG_DONE alone.
  auto none = DecodeResourceQpDump(testing::BuildResourceQpDump(2, "mlx5_0", {}));
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->qps.empty());
}

TEST(RdmaResourceQps, HostileDumpsAreErrors) {
  const std::vector<NldevQp> one = {{.lqpn = 7, .port = 1, .pid = 42, .kern_name = "", .type = 2, .state = 3}};
  auto bytes = testing::BuildResourceQpDump(2, "mlx5_0", one);
  // Cut before NLMSG_DONE: not a shorter list.
  auto cut = bytes;
  cut.resize(cut.size() - 20);
  auto truncated = DecodeResourceQpDump(cut);
  ASSERT_FALSE(truncated);
  EXPECT_NE(truncated.error().message.find("NLMSG_DONE"), std::string::npos);
  // Cut inside an attribute.
  cut = bytes;
  cut.resize(40);
  EXPECT_FALSE(DecodeResourceQpDump(cut));
  // A kernel error (the device went away) keeps its errno.
  testing::KernelSkb skb;
  skb.Ack(BuildResourceQpDumpRequest(2, 3), EINVAL);
  auto error = DecodeResourceQpDump(skb.bytes());
  ASSERT_FALSE(error);
  EXPECT_EQ(error.error().code, EINVAL);
  // An entry without its QP number; a PID and a kernel owner both; port 0.
  testing::KernelSkb bad;
  const std::size_t m =
      bad.NlmsgPut(1, 3, testing::NldevType(RDMA_NLDEV_CMD_RES_QP_GET), 0, NLM_F_MULTI);
  testing::PutHandle(bad, 2, "mlx5_0");
  const std::size_t table = bad.NestStartNoflag(RDMA_NLDEV_ATTR_RES_QP);
  const std::size_t entry = bad.NestStartNoflag(RDMA_NLDEV_ATTR_RES_QP_ENTRY);
  bad.NlaPutU32(RDMA_NLDEV_ATTR_RES_PID, 42);
  bad.NestEnd(entry);
  bad.NestEnd(table);
  bad.NlmsgEnd(m);
  const std::size_t done = bad.NlmsgPut(1, 3, NLMSG_DONE, 4, NLM_F_MULTI);
  bad.NlmsgEnd(done);
  auto no_lqpn = DecodeResourceQpDump(bad.bytes());
  ASSERT_FALSE(no_lqpn);
  EXPECT_NE(no_lqpn.error().message.find("RES_LQPN"), std::string::npos);
  // Messages about two devices in one answer.
  auto a = testing::BuildResourceQpDump(2, "mlx5_0", one);
  auto b = testing::BuildResourceQpDump(3, "mlx5_1", one);
  a.resize(a.size() - 20);
  a.insert(a.end(), b.begin(), b.end());
  EXPECT_FALSE(DecodeResourceQpDump(a));
}

// A dump callback that fails (res_get_common_dumpit: an unknown device index, -EINVAL) ends
// the dump with an NLMSG_DONE carrying the error (netlink_dump_done): not an empty list.
TEST(RdmaResourceQps, DoneCarryingAnErrorIsThatError) {
  testing::KernelSkb skb;
  const std::size_t done = skb.NlmsgPut(1, 3, NLMSG_DONE, 4, NLM_F_MULTI);
  const std::int32_t einval = -EINVAL;
  std::vector<std::uint8_t> bytes = skb.bytes();
  std::memcpy(bytes.data() + done + 16, &einval, sizeof einval);
  auto qps = DecodeResourceQpDump(bytes);
  ASSERT_FALSE(qps);
  EXPECT_EQ(qps.error().code, EINVAL);
  auto bound = DecodeBoundCountersDump(bytes);
  ASSERT_FALSE(bound);
  EXPECT_EQ(bound.error().code, EINVAL);
}

TEST(RdmaResourceQps, RequestIsADumpOfOneDevice) {
  const auto r = BuildResourceQpDumpRequest(7, 9);
  ASSERT_EQ(r.size(), 24u);
  nlmsghdr h;
  std::memcpy(&h, r.data(), sizeof h);
  EXPECT_EQ(h.nlmsg_type, (RDMA_NL_NLDEV << 10) + RDMA_NLDEV_CMD_RES_QP_GET);
  EXPECT_EQ(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
  EXPECT_EQ(h.nlmsg_seq, 9u);
  const std::uint8_t attr[] = {8, 0, RDMA_NLDEV_ATTR_DEV_INDEX, 0, 7, 0, 0, 0};
  EXPECT_EQ(std::memcmp(r.data() + 16, attr, sizeof attr), 0);
}

}  // namespace
}  // namespace rocewatch::rdma_nl
