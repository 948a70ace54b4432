// Counter checks: what grew between two observations of the same node (ComputeIncrease of two
// exporter texts, window in seconds). Without a window they are skipped, never guessed.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace checks;

TEST(CheckCounters, PauseFramesOnAPriorityWithoutPfcFire) {
  Cluster c(1, 2);
  c.StartWindow(30);
  // mlx5's ethtool stats list pause counters only for PFC priorities; dcbnl counts all eight.
  c.Set(1, R"(roce_dcb_pfc_pause_frames_total{netdev="ens1f0np0",priority="0",direction="rx"})",
        "1500");
  Finding f = ExpectOnly(c.Run(), kPauseNonPfc, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "no pause frames on priority 0");
  EXPECT_EQ(f.found, "1500 in 30 s");
  EXPECT_EQ(f.message,
            "ens1f0np0 saw 1500 pause frames on priority 0, which has no PFC here (50/s).");
  EXPECT_EQ(f.fix, "compare the switch port's PFC/QoS config with the plan; mlnx_qos -i ens1f0np0");
}

TEST(CheckCounters, PauseFramesOnANonPfcPriorityFromEthtoolCountOnce) {
  // A driver that lists every priority in ethtool (and dcbnl the same frames): not added twice.
  Cluster c(1, 2);
  c.Add(1, R"(roce_pfc_pause_frames_total{netdev="ens2f0np0",priority="5",direction="rx"} 10)");
  c.StartWindow(10);
  c.Set(1, R"(roce_pfc_pause_frames_total{netdev="ens2f0np0",priority="5",direction="rx"})", "210");
  c.Set(1, R"(roce_dcb_pfc_pause_frames_total{netdev="ens2f0np0",priority="5",direction="rx"})",
        "200");
  Finding f = ExpectOnly(c.Run(), kPauseNonPfc, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.found, "200 in 10 s");
}

TEST(CheckCounters, PauseFramesOnThePfcPriorityAreQuiet) {
  Cluster c(1, 2);
  c.StartWindow(30);
  c.Set(1, R"(roce_pfc_pause_frames_total{netdev="ens1f0np0",priority="3",direction="rx"})",
        "1286551");
  c.Set(1, R"(roce_dcb_pfc_pause_frames_total{netdev="ens1f0np0",priority="3",direction="rx"})",
        "1286551");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckCounters, PauseStormEventsFire) {
  Cluster c(1, 2);
  c.StartWindow(30);
  c.Set(1, R"(roce_ethtool_tx_pause_storm_warning_events_total{netdev="ens2f0np0"})", "2");
  Finding f = ExpectOnly(c.Run(), kPauseStorm, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_EQ(f.expected, "no pause storm");
  EXPECT_EQ(f.found, "2 storm events in 30 s");
  EXPECT_THAT(f.fix, HasSubstr("ethtool -S ens2f0np0 | grep -E 'pause|storm'"));
}

TEST(CheckCounters, PausedMoreThanHalfTheWindowIsAStorm) {
  Cluster c(1, 2);
  c.StartWindow(30);
  // 20 s of the last 30 s held by the link partner on priority 3.
  c.Set(1,
        R"(roce_pfc_pause_duration_seconds_total{netdev="ens1f0np0",priority="3",direction="rx"})",
        "113.118224");
  c.Set(1, R"(roce_pfc_pause_frames_total{netdev="ens1f0np0",priority="3",direction="rx"})",
        "1484551");
  c.Set(1, R"(roce_dcb_pfc_pause_frames_total{netdev="ens1f0np0",priority="3",direction="rx"})",
        "1484551");
  Finding f = ExpectOnly(c.Run(), kPauseStorm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "rx priority 3 paused 67% of the time");
}

TEST(CheckCounters, PausedLessThanHalfTheWindowIsQuiet) {
  Cluster c(1, 2);
  c.StartWindow(30);
  c.Set(1,
        R"(roce_pfc_pause_duration_seconds_total{netdev="ens1f0np0",priority="3",direction="rx"})",
        "103.118224");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckCounters, DiscardsFireAndThePerPriorityBreakdownIsNotCountedTwice) {
  Cluster c(1, 2);
  c.StartWindow(60);
  // mlx5 counts the same dropped packets in rx_discards_phy and rx_prio0_discards.
  c.Set(1, R"(roce_ethtool_rx_discarded_packets_total{netdev="ens2f0np0"})", "2411");
  c.Set(1, R"(roce_priority_discards_total{netdev="ens2f0np0",priority="0",direction="rx"})",
        "2411");
  Finding f = ExpectOnly(c.Run(), kDiscards, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "no discards");
  EXPECT_EQ(f.found, "120 in 60 s");
  EXPECT_EQ(f.message, "ens2f0np0 discarded 120 packets in 60 s (2/s).");
}

TEST(CheckCounters, RdmaOutOfBufferCountsAsDiscards) {
  Cluster c(1, 2);
  c.StartWindow(60);
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="out_of_buffer"})", "1197");
  Finding f = ExpectOnly(c.Run(), kDiscards, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "10 in 60 s");
}

// The fixture's exporter serves mlx5's raw hw counters and no roce_transport_events_total (an
// exporter older than the family): on mlx5 they are read by meaning (check_vendors_test.cpp
// has every driver).
TEST(CheckCounters, TransportErrorsFire) {
  Cluster c(1, 2);
  c.StartWindow(30);
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="out_of_sequence"})", "414");
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="roce_adp_retrans"})", "2323");
  Finding f = ExpectOnly(c.Run(), kTransportErrors, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "no retransmissions or sequence errors");
  EXPECT_EQ(f.found, "retransmits +40, out_of_sequence +12");
}

TEST(CheckCounters, GrowingCnpAndEcnCountersAreNotErrors) {
  Cluster c(1, 2);
  c.StartWindow(30);
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="np_cnp_sent"})", "2986005");
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="rp_cnp_handled"})", "1804562");
  c.Set(1, R"(roce_port_received_bytes_total{device="mlx5_0",port="1"})", "19960085336064");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckCounters, LinkFlapsFireWithTheLargestCount) {
  Cluster c(1, 2);
  c.StartWindow(300);
  // One flap seen by four counters; carrier_changes counts down and up (2).
  c.Set(1, R"(roce_netdev_carrier_changes_total{netdev="ens1f0np0"})", "4");
  c.Set(1, R"(roce_ethtool_link_down_events_total{netdev="ens1f0np0"})", "2");
  c.Set(1, R"(roce_link_down_events_total{netdev="ens1f0np0"})", "2");
  c.Set(1, R"(roce_port_stat_total{device="mlx5_0",port="1",counter="link_downed"})", "2");
  Finding f = ExpectOnly(c.Run(), kLinkFlaps, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "stable link");
  EXPECT_EQ(f.found, "2 link changes in 300 s");
  EXPECT_THAT(f.fix, HasSubstr("leaf-0:Ethernet8"));
}

TEST(CheckCounters, ACounterResetIsReadAsItsNewValue) {
  Cluster c(1, 2);
  c.StartWindow(30);
  // A driver reload resets the kernel's counters: a value below the previous one is read as a
  // reset, and its increase is the new value.
  c.Set(1, R"(roce_netdev_carrier_changes_total{netdev="ens2f0np0"})", "1");
  Finding f = ExpectOnly(c.Run(), kLinkFlaps, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.found, "1 link changes in 30 s");
}

TEST(CheckCounters, CounterChecksAreSkippedWithoutAWindow) {
  Cluster c(1, 2);
  // The same bad node as above, observed once: nothing can be said about what grew.
  c.Set(1, R"(roce_dcb_pfc_pause_frames_total{netdev="ens1f0np0",priority="0",direction="rx"})",
        "1500");
  c.Set(1, R"(roce_ethtool_tx_pause_storm_warning_events_total{netdev="ens2f0np0"})", "2");
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="out_of_sequence"})", "414");
  c.Set(1, R"(roce_netdev_carrier_changes_total{netdev="ens1f0np0"})", "40");
  auto findings = c.Run();
  EXPECT_FALSE(c.views[0].has_increase());
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckCounters, EveryCounterCheckAtOnceSortsByDeviceThenCheck) {
  Cluster c(1, 2);
  c.StartWindow(30);
  c.Set(1, R"(roce_dcb_pfc_pause_frames_total{netdev="ens1f0np0",priority="0",direction="rx"})",
        "1500");
  c.Set(1, R"(roce_ethtool_tx_pause_storm_error_events_total{netdev="ens1f0np0"})", "1");
  c.Set(1, R"(roce_ethtool_rx_out_of_buffer_packets_total{netdev="ens1f0np0"})", "40");
  c.Set(1, R"(roce_hw_stat_total{device="mlx5_0",port="1",counter="packet_seq_err"})", "312");
  c.Set(1, R"(roce_netdev_carrier_changes_total{netdev="ens2f0np0"})", "4");
  auto findings = c.Run();
  EXPECT_THAT(Ids(findings), ElementsAre("counters.discards", "counters.pause-on-non-pfc-priority",
                                         "counters.pause-storm", "counters.transport-errors",
                                         "counters.link-flaps"))
      << Describe(findings);
}

}  // namespace
}  // namespace rocewatch::lint::testing
