// counters.optional-disabled: the profile's optional_counters against
// roce_hw_optional_counter_enabled (RDMA netlink STAT_GET_STATUS, as the exporter serves it).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using namespace checks;

void PlanOptionalCounters(Cluster& c) {
  c.EditPlan(R"("pcie": {"speed_gts": 32, "width": 16},)",
             R"("pcie": {"speed_gts": 32, "width": 16},
      "optional_counters": ["cc_rx_ce_pkts", "cc_rx_cnp_pkts"],)");
}

// What mlx5 reports on a port after a reboot: the three optional counters, none enabled.
void Mlx5Optional(Cluster& c, const char* device, int ce, int rx_cnp, int tx_cnp) {
  const std::string at = std::string("device=\"") + device + "\",port=\"1\"";
  c.Add(1, "roce_hw_optional_counter_enabled{" + at + ",counter=\"cc_rx_ce_pkts\"} " + std::to_string(ce));
  c.Add(1, "roce_hw_optional_counter_enabled{" + at + ",counter=\"cc_rx_cnp_pkts\"} " + std::to_string(rx_cnp));
  c.Add(1, "roce_hw_optional_counter_enabled{" + at + ",counter=\"cc_tx_cnp_pkts\"} " + std::to_string(tx_cnp));
}

TEST(CheckOptionalCounters, DisabledAfterARebootFiresWithTheCommandThatKeepsTheOthers) {
  Cluster c(1, 2);
  PlanOptionalCounters(c);
  Mlx5Optional(c, "mlx5_0", 1, 1, 0);
  Mlx5Optional(c, "mlx5_1", 0, 0, 1);
  Finding f = ExpectOnly(c.Run(), kOptionalCountersDisabled, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.port, "1");
  EXPECT_EQ(f.expected, "cc_rx_ce_pkts, cc_rx_cnp_pkts enabled");
  EXPECT_EQ(f.found, "enabled: cc_tx_cnp_pkts");
  EXPECT_EQ(f.message,
            "mlx5_1 port 1: optional counters cc_rx_ce_pkts, cc_rx_cnp_pkts are disabled (they "
            "reset to disabled at every reboot and driver reload).");
  EXPECT_EQ(f.fix,
            "rdma statistic set link mlx5_1/1 optional-counters "
            "cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts (again at every boot: it is not persisted)");
}

TEST(CheckOptionalCounters, ACounterTheDriverLacksIsNamedWithWhatItHas) {
  Cluster c(1, 1);
  c.EditPlan(R"("pcie": {"speed_gts": 32, "width": 16},)",
             R"("pcie": {"speed_gts": 32, "width": 16}, "optional_counters": "rdma_tx_bytes",)");
  Mlx5Optional(c, "mlx5_0", 1, 0, 0);
  Finding f = ExpectOnly(c.Run(), kOptionalCountersDisabled, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.message,
            "mlx5_0 port 1: the driver has no optional counter rdma_tx_bytes (it has: "
            "cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts).");
  EXPECT_THAT(f.fix, HasSubstr("upgrade the driver or firmware"));
}

TEST(CheckOptionalCounters, NothingIsJudgedWithoutTheSeriesOrWithoutTheProfileKey) {
  Cluster c(1, 2);
  PlanOptionalCounters(c);
  EXPECT_TRUE(WithId(c.Run(), kOptionalCountersDisabled.id).empty());  // sysfs only, kernel < 6.0
  Mlx5Optional(c, "mlx5_0", 1, 1, 1);
  Mlx5Optional(c, "mlx5_1", 1, 1, 0);
  EXPECT_TRUE(WithId(c.Run(), kOptionalCountersDisabled.id).empty());  // all planned are on
  Cluster unplanned(1, 1);
  Mlx5Optional(unplanned, "mlx5_0", 0, 0, 0);
  EXPECT_TRUE(WithId(unplanned.Run(), kOptionalCountersDisabled.id).empty());
}

}  // namespace
}  // namespace rocewatch::lint::testing
