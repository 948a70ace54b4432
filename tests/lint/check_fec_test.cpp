// FEC checks: link.fec-mode (the active encoding against the profile's fec.mode),
// counters.fec-uncorrectable and counters.fec-ber (what grew over the window).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using namespace checks;

constexpr const char* kFecProfile = R"("pcie": {"speed_gts": 32, "width": 16},
      "fec": {"mode": "rs", "max_pre_fec_ber": 2.4e-4},)";

void PlanFec(Cluster& c) { c.EditPlan(R"("pcie": {"speed_gts": 32, "width": 16},)", kFecProfile); }

TEST(CheckFec, ActiveFecOtherThanTheProfileFires) {
  Cluster c(1, 2);
  PlanFec(c);
  c.Add(1, R"(roce_fec_active_info{netdev="ens1f0np0",mode="rs"} 1)");
  c.Add(1, R"(roce_fec_active_info{netdev="ens2f0np0",mode="baser"} 1)");
  c.Add(1, R"(roce_fec_configured_info{netdev="ens2f0np0",mode="auto"} 1)");
  c.Add(1, R"(roce_fec_configured_info{netdev="ens2f0np0",mode="baser"} 1)");
  Finding f = ExpectOnly(c.Run(), kFecMode, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "FEC rs");
  EXPECT_EQ(f.found, "FEC baser");
  EXPECT_EQ(f.message,
            "ens2f0np0 runs FEC baser (configured: auto baser), the profile wants rs; the switch "
            "port must run the same FEC or the link stays down or erroring.");
  EXPECT_THAT(f.fix, HasSubstr("ethtool --set-fec ens2f0np0 encoding rs"));
  EXPECT_THAT(f.fix, HasSubstr("leaf-1:Ethernet8"));
}

TEST(CheckFec, ModeIsSilencedWithoutSeriesOrWithoutTheProfileKey) {
  Cluster c(1, 2);
  PlanFec(c);
  EXPECT_TRUE(WithId(c.Run(), kFecMode.id).empty());  // veth-like: no FEC series at all
  c.Add(1, R"(roce_fec_active_info{netdev="ens1f0np0",mode="none"} 1)");
  EXPECT_EQ(WithId(c.Run(), kFecMode.id).size(), 1u);
  Cluster unplanned(1, 2);
  unplanned.Add(1, R"(roce_fec_active_info{netdev="ens1f0np0",mode="off"} 1)");
  EXPECT_TRUE(WithId(unplanned.Run(), kFecMode.id).empty());
}

TEST(CheckFec, UncorrectableBlocksRisingFireWithTheirLanes) {
  Cluster c(1, 2);
  c.Add(1, R"(roce_fec_uncorrectable_blocks_total{netdev="ens1f0np0"} 100)");
  c.Add(1, R"(roce_fec_lane_uncorrectable_blocks_total{netdev="ens1f0np0",lane="0"} 100)");
  c.Add(1, R"(roce_fec_lane_uncorrectable_blocks_total{netdev="ens1f0np0",lane="1"} 0)");
  c.Add(1, R"(roce_fec_uncorrectable_blocks_total{netdev="ens2f0np0"} 5000)");
  c.StartWindow(60);
  c.Set(1, R"(roce_fec_uncorrectable_blocks_total{netdev="ens1f0np0"})", "130");
  c.Set(1, R"(roce_fec_lane_uncorrectable_blocks_total{netdev="ens1f0np0",lane="0"})", "100");
  c.Set(1, R"(roce_fec_lane_uncorrectable_blocks_total{netdev="ens1f0np0",lane="1"})", "30");
  Finding f = ExpectOnly(c.Run(), kFecUncorrectable, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "at most 0 uncorrectable FEC blocks");
  EXPECT_EQ(f.found, "30 in 60 s");
  EXPECT_EQ(f.message,
            "ens1f0np0 received 30 FEC blocks it could not correct in 60 s (0.5/s); lane 1: 30: "
            "frames are lost before the link goes down.");
  EXPECT_THAT(f.fix, HasSubstr("ethtool -I --show-fec ens1f0np0"));
}

TEST(CheckFec, UncorrectableWithinTheProfileAllowanceOrWithoutWindowAreQuiet) {
  Cluster c(1, 2);
  c.EditPlan(R"("pcie": {"speed_gts": 32, "width": 16},)",
             R"("pcie": {"speed_gts": 32, "width": 16}, "fec": {"max_uncorrectable_blocks": 10},)");
  c.Add(1, R"(roce_fec_uncorrectable_blocks_total{netdev="ens1f0np0"} 3)");
  EXPECT_TRUE(WithId(c.Run(), kFecUncorrectable.id).empty());  // one observation: no window
  c.StartWindow(60);
  c.Set(1, R"(roce_fec_uncorrectable_blocks_total{netdev="ens1f0np0"})", "13");
  EXPECT_TRUE(WithId(c.Run(), kFecUncorrectable.id).empty());  // 10 allowed
  c.StartWindow(60);
  c.Set(1, R"(roce_fec_uncorrectable_blocks_total{netdev="ens1f0np0"})", "24");
  EXPECT_EQ(WithId(c.Run(), kFecUncorrectable.id).size(), 1u);
}

// 400 Gb/s (the fixture's roce_ethtool_link_speed_bytes_per_second 5e10) for 60 s is 2.4e13
// bits; 7.2e9 corrected bits is a pre-FEC BER of 3e-4, above the profile's 2.4e-4.
TEST(CheckFec, PreFecBerAboveTheProfileFires) {
  Cluster c(1, 2);
  PlanFec(c);
  c.Add(1, R"(roce_fec_corrected_bits_total{netdev="ens1f0np0"} 1000)");
  c.Add(1, R"(roce_fec_corrected_bits_total{netdev="ens2f0np0"} 1000)");
  c.StartWindow(60);
  c.Set(1, R"(roce_fec_corrected_bits_total{netdev="ens1f0np0"})", "7200001000");
  c.Set(1, R"(roce_fec_corrected_bits_total{netdev="ens2f0np0"})", "4800001000");  // 2e-4
  Finding f = ExpectOnly(c.Run(), kFecBer, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "pre-FEC BER at most 0.00024");
  EXPECT_EQ(f.found, "pre-FEC BER 0.0003");
  EXPECT_EQ(f.message,
            "ens1f0np0: FEC corrected 7200000000 bits in 60 s at 400 Gb/s, a pre-FEC bit error ratio "
            "of 0.0003 (limit 0.00024): the link is close to losing frames (uncorrectable "
            "blocks).");
}

// mlx5's FEC_GET has no corrected bits: its ethtool rx_corrected_bits_phy counts them.
TEST(CheckFec, PreFecBerFromTheDriversCounterAndThePortRate) {
  Cluster c(1, 2);
  PlanFec(c);
  c.Remove(1, R"(roce_ethtool_link_speed_bytes_per_second{netdev="ens2f0np0"})");
  c.Add(1, R"(roce_ethtool_rx_fec_corrected_bit_errors_total{netdev="ens2f0np0"} 0)");
  c.StartWindow(10);
  c.Set(1, R"(roce_ethtool_rx_fec_corrected_bit_errors_total{netdev="ens2f0np0"})", "2000000000");
  Finding f = ExpectOnly(c.Run(), kFecBer, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.found, "pre-FEC BER 0.0005");  // 2e9 / (4e11 b/s × 10 s), rate from the port
}

TEST(CheckFec, PreFecBerIsSilencedWithoutTheProfileLimit) {
  Cluster c(1, 2);
  c.Add(1, R"(roce_fec_corrected_bits_total{netdev="ens1f0np0"} 0)");
  c.StartWindow(60);
  c.Set(1, R"(roce_fec_corrected_bits_total{netdev="ens1f0np0"})", "72000000000");
  EXPECT_TRUE(WithId(c.Run(), kFecBer.id).empty());
}

TEST(CheckFec, ProfileValuesOutOfRangeArePlanFindings) {
  Cluster c(1, 2);
  c.EditPlan(R"("pcie": {"speed_gts": 32, "width": 16},)",
             R"("pcie": {"speed_gts": 32, "width": 16},
      "fec": {"mode": "rs", "max_pre_fec_ber": 1.5, "max_uncorrectable_blocks": -1},)");
  auto loaded = plan::LoadPlanText(c.plan_json, "plan.json");
  ASSERT_TRUE(loaded.ok());
  auto findings = plan::ValidatePlan(loaded->plan);
  int range = 0;
  for (const auto& f : findings) {
    if (f.check == "plan.value-range" && f.message.find("fec.") != std::string::npos) ++range;
  }
  EXPECT_EQ(range, 2) << Describe(findings);
  c.EditPlan(R"("mode": "rs")", R"("mode": "rs-fec")");
  auto bad = plan::LoadPlanText(c.plan_json, "plan.json");
  ASSERT_TRUE(bad.ok());
  bool named = false;
  for (const auto& f : bad->findings) named |= f.message.find("rs-fec") != std::string::npos;
  EXPECT_TRUE(named) << Describe(bad->findings);
}

}  // namespace
}  // namespace rocewatch::lint::testing
