// Classification of ethtool statistic names by a driver's table, on a full mlx5 string set
// and on names of other drivers (the tables themselves: tests/exporter/drivers_test.cpp).

#include "exporter/ethtool/classify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "exporter/drivers/all.h"
#include "exporter/netlink/mlx5_ethtool_strings.h"

namespace rocewatch::ethtool {
namespace {

const std::string kStringsFile =
    std::string(ROCEWATCH_TEST_DATA) + "/exporter/netlink/mlx5_ethtool_strings.txt";

std::size_t IndexOf(const std::vector<std::string>& names, std::string_view name) {
  auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return static_cast<std::size_t>(it - names.begin());
}

TEST(EthtoolClassify, Mlx5StringsFileMatchesHeader) {
  const std::vector<std::string> names = testing::Mlx5EthtoolStrings();
  if (const char* update = std::getenv("ROCEWATCH_UPDATE_FIXTURES"); update && *update == '1') {
    std::ofstream out(kStringsFile, std::ios::trunc);
    for (const std::string& n : names) out << n << '\n';
    ASSERT_TRUE(out.good()) << "could not write " << kStringsFile;
  }
  std::ifstream in(kStringsFile);
  ASSERT_TRUE(in.good()) << kStringsFile;
  std::vector<std::string> from_file;
  for (std::string line; std::getline(in, line);) from_file.push_back(line);
  EXPECT_EQ(from_file, names)
      << "regenerate with ROCEWATCH_UPDATE_FIXTURES=1 after editing mlx5_ethtool_strings.h";
}

TEST(EthtoolClassify, Mlx5ListIsRealisticAndUnique) {
  const std::vector<std::string> names = testing::Mlx5EthtoolStrings();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const std::string& n : names) EXPECT_LE(n.size(), 32u) << n;  // ETH_GSTRING_LEN
  // sw 126 + qcnt/vnic 5 + vport 22 + 802.3 18 + 2863 3 + 2819 13 + phy 8 + eth_ext 1 +
  // pcie 7 + per_prio 47 + pme 4 + channels 8 x 103 + buffer/congestion 24 + ptp 24.
  EXPECT_EQ(names.size(), 1126u);
}

TEST(EthtoolClassify, Mlx5EveryNameLandsExactlyOnce) {
  const std::vector<std::string> names = testing::Mlx5EthtoolStrings();
  const Classification c = ClassifyStrings(names, &drivers::Mlx5Driver());
  EXPECT_EQ(c.name_count, names.size());
  std::vector<int> seen(names.size(), 0);
  for (const auto& s : c.per_priority) ++seen[s.index];
  for (const auto& s : c.port) ++seen[s.index];
  for (const auto& s : c.per_queue) ++seen[s.index];
  for (const auto& s : c.other) ++seen[s.index];
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(seen[i], 1) << names[i];

  // 8 priorities x (5 traffic + 3 buffer/congestion) + 5 PFC counters for priority 3.
  EXPECT_EQ(c.per_priority.size(), 8u * 8u + 5u);
  // 8 x (6 ch + 53 rx + 7 rx xdp_tx + 30 tx + 7 tx xdp) + 24 xsk + 24 ptp.
  EXPECT_EQ(c.per_queue.size(), 8u * (6 + 53 + 7 + 30 + 7) + 24u + 24u);
  // The 49 port-table rows less the 5 global-pause names (global pause is off with PFC).
  EXPECT_EQ(c.port.size(), 44u);
  EXPECT_EQ(c.other.size(),
            names.size() - c.per_priority.size() - c.per_queue.size() - c.port.size());
}

TEST(EthtoolClassify, Mlx5PerPriorityNames) {
  const std::vector<std::string> names = testing::Mlx5EthtoolStrings();
  const Classification c = ClassifyStrings(names, &drivers::Mlx5Driver());
  auto find = [&](std::string_view name) -> const PriorityStat* {
    const std::size_t index = IndexOf(names, name);
    for (const auto& s : c.per_priority) {
      if (s.index == index) return &s;
    }
    return nullptr;
  };
  const PriorityStat* rx_pause = find("rx_prio3_pause");
  ASSERT_NE(rx_pause, nullptr);
  EXPECT_EQ(rx_pause->priority, 3);
  EXPECT_EQ(rx_pause->direction, Direction::kRx);
  EXPECT_EQ(rx_pause->kind, PriorityKind::kPauseFrames);

  const PriorityStat* tx_duration = find("tx_prio3_pause_duration");
  ASSERT_NE(tx_duration, nullptr);
  EXPECT_EQ(tx_duration->direction, Direction::kTx);
  EXPECT_EQ(PriorityKindName(tx_duration->kind), "pause_duration_seconds");

  EXPECT_EQ(find("rx_prio3_pause_transition")->kind, PriorityKind::kPauseTransitions);
  EXPECT_EQ(find("rx_prio6_discards")->kind, PriorityKind::kDiscards);
  EXPECT_EQ(find("rx_prio3_buf_discard")->kind, PriorityKind::kBufferDiscards);
  EXPECT_EQ(find("rx_prio3_cong_discard")->kind, PriorityKind::kCongestionDiscards);
  EXPECT_EQ(find("rx_prio3_marked")->kind, PriorityKind::kEcnMarked);
  const PriorityStat* tx7 = find("tx_prio7_bytes");
  EXPECT_EQ(tx7->priority, 7);
  EXPECT_EQ(tx7->kind, PriorityKind::kBytes);
  EXPECT_EQ(find("rx_prio0_packets")->kind, PriorityKind::kPackets);
}

TEST(EthtoolClassify, Mlx5PortAndQueueNames) {
  const std::vector<std::string> names = testing::Mlx5EthtoolStrings();
  const Classification c = ClassifyStrings(names, &drivers::Mlx5Driver());
  auto port_kind = [&](std::string_view name) -> std::string_view {
    const std::size_t index = IndexOf(names, name);
    for (const auto& s : c.port) {
      if (s.index == index) return s.spec->kind;
    }
    return "";
  };
  EXPECT_EQ(port_kind("rx_discards_phy"), "rx_discarded_packets");
  EXPECT_EQ(port_kind("link_down_events_phy"), "link_down_events");
  EXPECT_EQ(port_kind("tx_pause_storm_warning_events"), "tx_pause_storm_warning_events");
  EXPECT_EQ(port_kind("rx_out_of_buffer"), "rx_out_of_buffer_packets");
  EXPECT_EQ(port_kind("outbound_pci_stalled_wr_events"), "pcie_outbound_write_stalled_seconds");
  EXPECT_EQ(port_kind("rx_corrected_bits_phy"), "rx_fec_corrected_bit_errors");
  EXPECT_EQ(port_kind("rx_buffer_passed_thres_phy"), "rx_buffer_almost_full_events");

  auto queue = [&](std::string_view name) -> const QueueStat* {
    const std::size_t index = IndexOf(names, name);
    for (const auto& s : c.per_queue) {
      if (s.index == index) return &s;
    }
    return nullptr;
  };
  const QueueStat* rx0 = queue("rx0_packets");
  ASSERT_NE(rx0, nullptr);
  EXPECT_EQ(rx0->queue_kind, "rx");
  EXPECT_EQ(rx0->queue, 0u);
  EXPECT_EQ(rx0->counter, "packets");
  const QueueStat* xdp = queue("rx5_xdp_tx_cqes");
  EXPECT_EQ(xdp->queue, 5u);
  EXPECT_EQ(xdp->counter, "xdp_tx_cqes");
  EXPECT_EQ(queue("ch5_events")->queue_kind, "ch");
  EXPECT_EQ(queue("tx7_bytes")->queue, 7u);
  const QueueStat* xsk = queue("rx_xsk_packets");
  EXPECT_EQ(xsk->queue_kind, "rx_xsk");
  EXPECT_FALSE(xsk->queue);
  const QueueStat* ptp = queue("ptp_cq0_abort_abs_diff_ns");
  EXPECT_EQ(ptp->queue_kind, "ptp_cq");
  EXPECT_EQ(ptp->queue, 0u);
  EXPECT_EQ(ptp->counter, "abort_abs_diff_ns");
  EXPECT_EQ(queue("ptp_ch_eq_rearm")->queue_kind, "ptp_ch");

  // Aggregates and histograms are not queues; they stay in `other` under their own names.
  for (std::string_view name : {"rx_packets", "tx_queue_stopped", "ch_events",
                                "rx_65_to_127_bytes_phy", "rx_err_lane_0_phy"}) {
    const std::size_t index = IndexOf(names, name);
    EXPECT_TRUE(std::any_of(c.other.begin(), c.other.end(), [&](const OtherStat& o) {
      return o.index == index && o.name == name;
    })) << name;
  }
}

TEST(EthtoolClassify, ApplyConvertsToBaseUnits) {
  const std::vector<std::string> names = {
      "rx_prio3_pause", "tx_prio3_pause_duration",  "outbound_pci_stalled_rd",    "rx_discards_phy",
      "rx0_packets",    "rx_global_pause_duration", "some_driver_private_counter"};
  const Classification c = ClassifyStrings(names, &drivers::Mlx5Driver());
  const std::vector<std::uint64_t> values = {7890, 2500000, 25, 12, 99, 1500, 5};
  auto applied = Apply(c, values);
  ASSERT_TRUE(applied) << applied.error().message;
  ASSERT_EQ(applied->per_priority.size(), 2u);
  EXPECT_EQ(applied->per_priority[0].raw, 7890u);
  EXPECT_DOUBLE_EQ(applied->per_priority[0].value, 7890.0);
  EXPECT_EQ(applied->per_priority[1].kind, PriorityKind::kPauseDurationSeconds);
  EXPECT_DOUBLE_EQ(applied->per_priority[1].value, 2.5);  // 2 500 000 µs
  ASSERT_EQ(applied->port.size(), 3u);
  EXPECT_EQ(applied->port[0].spec->kind, "pcie_outbound_read_stalled_ratio");
  EXPECT_EQ(applied->port[0].spec->type, StatType::kGauge);
  EXPECT_DOUBLE_EQ(applied->port[0].value, 0.25);
  EXPECT_DOUBLE_EQ(applied->port[1].value, 12.0);
  EXPECT_EQ(applied->port[2].spec->kind, "rx_global_pause_duration_seconds");
  EXPECT_DOUBLE_EQ(applied->port[2].value, 0.0015);
  EXPECT_TRUE(applied->per_queue.empty());  // not exported by default
  ASSERT_EQ(applied->other.size(), 1u);
  EXPECT_EQ(applied->other[0].name, "some_driver_private_counter");
  EXPECT_EQ(applied->other[0].value, 5u);

  auto with_queues = Apply(c, values, /*include_per_queue=*/true);
  ASSERT_TRUE(with_queues);
  ASSERT_EQ(with_queues->per_queue.size(), 1u);
  EXPECT_EQ(with_queues->per_queue[0].stat->counter, "packets");
  EXPECT_EQ(with_queues->per_queue[0].value, 99u);
}

TEST(EthtoolClassify, ApplyRejectsCountMismatch) {
  const std::vector<std::string> names = {"rx_prio3_pause", "tx_prio3_pause"};
  const Classification c = ClassifyStrings(names, &drivers::Mlx5Driver());
  const std::vector<std::uint64_t> values = {1, 2, 3};
  auto applied = Apply(c, values);
  ASSERT_FALSE(applied);
  EXPECT_EQ(applied.error().message,
            "ethtool statistics: 3 values for 2 classified names (the driver's statistics "
            "changed: classify again)");
}

TEST(EthtoolClassify, IceNamesAndLookalikes) {
  const std::vector<std::string> names = {
      "rx_priority_3_xoff.nic",  // ice: pause frames received on priority 3
      "tx_priority_3_xoff.nic",
      "rx_priority_3_xon.nic",   // XON is not a pause frame count: known, no family
      "tx_queue_12_bytes",       // ice / veth per-queue
      "rx_queue_0_xdp_packets",  // veth
      "rx_prio3_pause",          // mlx5's name: not ice's, so nothing here
      "rx_priority_8_xoff.nic",  // there is no priority 8
      "rx_priority_33_xoff.nic",
      "rx_pfc_ena_frames_pri3",  // bnxt_en's name: not ice's
      "rx",
      "rx12",
      "rx12_",
      "",
  };
  const Classification c = ClassifyStrings(names, &drivers::IceDriver());
  ASSERT_EQ(c.per_priority.size(), 2u);
  EXPECT_EQ(c.per_priority[0].priority, 3);
  EXPECT_EQ(c.per_priority[0].direction, Direction::kRx);
  EXPECT_EQ(c.per_priority[0].kind, PriorityKind::kPauseFrames);
  EXPECT_EQ(c.per_priority[1].direction, Direction::kTx);
  ASSERT_EQ(c.per_queue.size(), 2u);
  EXPECT_EQ(c.per_queue[0].queue_kind, "tx");
  EXPECT_EQ(c.per_queue[0].queue, 12u);
  EXPECT_EQ(c.per_queue[0].counter, "bytes");
  EXPECT_EQ(c.per_queue[1].counter, "xdp_packets");
  EXPECT_TRUE(c.port.empty());
  EXPECT_EQ(c.other.size(), names.size() - 4);
  EXPECT_EQ(c.unclassified, names.size() - 5);  // all of `other` but the known XON
}

TEST(EthtoolClassify, TheDriverChoosesNotTheName) {
  // The same names under another driver, or a driver with no table: no family, every name
  // counted as unclassified (per-queue shapes excepted).
  const std::vector<std::string> names = {"rx_prio3_pause", "rx_priority_3_xoff.nic",
                                          "rx_pfc_ena_frames_pri3", "link_down_events_phy",
                                          "rx0_packets"};
  const Classification none = ClassifyStrings(names, nullptr);
  EXPECT_TRUE(none.per_priority.empty());
  EXPECT_TRUE(none.port.empty());
  EXPECT_EQ(none.per_queue.size(), 1u);
  EXPECT_EQ(none.unclassified, 4u);
  const Classification bnxt = ClassifyStrings(names, &drivers::BnxtDriver());
  ASSERT_EQ(bnxt.per_priority.size(), 1u);
  EXPECT_EQ(bnxt.per_priority[0].index, 2u);
  EXPECT_EQ(bnxt.per_priority[0].kind, PriorityKind::kPfcFrames);  // XON included: not pause
  EXPECT_TRUE(bnxt.port.empty());
  EXPECT_EQ(bnxt.unclassified, 3u);
}

TEST(EthtoolClassify, BnxtAndIonicQueueShapes) {
  // The drivers' own per-queue shapes, each only under its driver: mlx5's
  // "rx_65_to_127_bytes_phy" is no queue 65.
  const std::vector<std::string> bnxt_names = {"[0]: rx_ucast_packets", "[11]: tpa_aborts", "[x]: rx", "[0]:rx"};
  const Classification bnxt = ClassifyStrings(bnxt_names, &drivers::BnxtDriver());
  ASSERT_EQ(bnxt.per_queue.size(), 2u);
  EXPECT_EQ(bnxt.per_queue[0].queue_kind, "ring");
  EXPECT_EQ(bnxt.per_queue[0].counter, "rx_ucast_packets");
  EXPECT_EQ(bnxt.per_queue[1].queue, 11u);
  EXPECT_EQ(bnxt.unclassified, 2u);
  EXPECT_TRUE(ClassifyStrings(bnxt_names, nullptr).per_queue.empty());

  const std::vector<std::string> ionic_names = {"tx_3_pkts", "rx_12_csum_error", "rx_65_to_127_bytes_phy"};
  const Classification ionic = ClassifyStrings(ionic_names, &drivers::IonicDriver());
  EXPECT_EQ(ionic.per_queue.size(), 3u);
  EXPECT_EQ(ionic.per_queue[0].queue_kind, "tx");
  EXPECT_EQ(ionic.per_queue[0].counter, "pkts");
  EXPECT_EQ(ionic.per_queue[1].queue, 12u);
  const Classification mlx5 = ClassifyStrings(ionic_names, &drivers::Mlx5Driver());
  EXPECT_TRUE(mlx5.per_queue.empty());
  EXPECT_EQ(mlx5.unclassified, 3u);
}

TEST(EthtoolClassify, OlderPerPrioritySpellings) {
  // "prio%d_%s" of an older mlx5 en_ethtool.c: the same per-priority families.
  const std::vector<std::string> names = {"prio3_rx_pause", "prio3_tx_pause_duration",
                                          "prio0_rx_octets", "prio0_tx_frames",
                                          "prio3_rx_pause_transition"};
  const Classification c = ClassifyStrings(names, &drivers::Mlx5Driver());
  ASSERT_EQ(c.per_priority.size(), 5u);
  EXPECT_EQ(c.per_priority[0].priority, 3);
  EXPECT_EQ(c.per_priority[0].kind, PriorityKind::kPauseFrames);
  EXPECT_EQ(c.per_priority[0].direction, Direction::kRx);
  EXPECT_EQ(c.per_priority[1].kind, PriorityKind::kPauseDurationSeconds);
  EXPECT_EQ(c.per_priority[1].direction, Direction::kTx);
  EXPECT_DOUBLE_EQ(c.per_priority[1].scale, 1e-6);
  EXPECT_EQ(c.per_priority[2].kind, PriorityKind::kBytes);
  EXPECT_EQ(c.per_priority[3].kind, PriorityKind::kPackets);
  EXPECT_EQ(c.per_priority[3].direction, Direction::kTx);
  EXPECT_EQ(c.per_priority[4].kind, PriorityKind::kPauseTransitions);
}

}  // namespace
}  // namespace rocewatch::ethtool
