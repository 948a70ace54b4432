// Optics checks: module present, readings inside the module's alarm and warning thresholds
// (or its flags), and inside the profile's tighter limits.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::ElementsAre;
using namespace checks;

const std::string kClean =
    "clean the fiber ends and the module's optics on ens1f0np0 (switch port leaf-0:Ethernet8), "
    "reseat, then swap the module or cable";

std::string RxPower(const char* lane) {
  return std::string(R"(roce_module_lane_rx_power_watts{netdev="ens1f0np0",lane=")") + lane + "\"}";
}

TEST(CheckOptics, EmptyCageFires) {
  Cluster c(1, 2);
  // What the exporter serves for an empty cage: present 0, a successful read, nothing else.
  c.Set(1, R"(roce_module_present{netdev="ens1f0np0"})", "0");
  for (const char* family :
       {"roce_module_info", "roce_module_temperature_celsius", "roce_module_voltage_volts",
        "roce_module_lane_tx_bias_amperes", "roce_module_lane_tx_power_watts",
        "roce_module_lane_rx_power_watts", "roce_module_threshold", "roce_module_flag"})
    c.Remove(1, std::string(family) + "{netdev=\"ens1f0np0\"");
  Finding f = ExpectOnly(c.Run(), kModuleMissing, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "module present");
  EXPECT_EQ(f.found, "empty cage");
  EXPECT_EQ(f.fix, "insert the planned module/cable in ens1f0np0 (switch port leaf-0:Ethernet8)");
}

TEST(CheckOptics, PresentModuleIsQuietAndUnreadableEepromIsNotGuessed) {
  Cluster c(1, 2);
  EXPECT_TRUE(c.Run().empty());
  // Without CAP_NET_ADMIN the exporter cannot read the module: no optics series, no finding.
  c.Remove(1, "roce_module_");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckOptics, FailedEepromReadFiresInsteadOfGuessing) {
  Cluster c(1, 2);
  // Without CAP_NET_ADMIN (or with a module that does not answer) the exporter says so.
  for (const char* family :
       {"roce_module_info", "roce_module_temperature_celsius", "roce_module_voltage_volts",
        "roce_module_lane_tx_bias_amperes", "roce_module_lane_tx_power_watts",
        "roce_module_lane_rx_power_watts", "roce_module_threshold", "roce_module_flag",
        "roce_module_present"})
    c.Remove(1, std::string(family) + "{netdev=\"ens1f0np0\"");
  c.Set(1, R"(roce_module_read_success{netdev="ens1f0np0"})", "0");
  Finding f = ExpectOnly(c.Run(), kOpticsReadFailed, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.found, "read failed");
  EXPECT_EQ(f.fix,
            "ethtool -m ens1f0np0 (as root); give roce_exporter CAP_NET_ADMIN; see the exporter's log");
  c.Set(1, R"(roce_module_read_success{netdev="ens1f0np0"})", "1");
  EXPECT_TRUE(c.Run().empty());
}

TEST(CheckOptics, RxPowerBelowTheLowAlarmFires) {
  Cluster c(1, 2);
  c.Set(1, RxPower("2"), "0.00005");  // -13 dBm: a dirty connector or a broken fibre
  Finding f = ExpectOnly(c.Run(), kOpticsAlarm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_EQ(f.expected, "lane 2 rx power ≥ -10.00 dBm");
  EXPECT_EQ(f.found, "-13.01 dBm");
  EXPECT_EQ(f.fix, kClean);
}

TEST(CheckOptics, DarkLaneFiresAsAlarm) {
  Cluster c(1, 2);
  c.Set(1, RxPower("4"), "0");
  Finding f = ExpectOnly(c.Run(), kOpticsAlarm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "-inf dBm (0 mW)");
}

TEST(CheckOptics, TemperatureAboveTheHighAlarmFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_module_temperature_celsius{netdev="ens1f0np0"})", "80");
  Finding f = ExpectOnly(c.Run(), kOpticsAlarm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.expected, "temperature ≤ 75.0 °C");
  EXPECT_EQ(f.found, "80.0 °C");
  EXPECT_EQ(f.fix,
            "check airflow and fans around ens1f0np0 (switch port leaf-0:Ethernet8); "
            "replace the module if it persists");
}

TEST(CheckOptics, RxPowerBelowTheLowWarningOnlyFiresAWarning) {
  Cluster c(1, 2);
  c.Set(1, RxPower("1"), "0.00011");  // -9.6 dBm: under the -9 dBm warning, over the -10 dBm alarm
  Finding f = ExpectOnly(c.Run(), kOpticsWarning, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "lane 1 rx power ≥ -9.00 dBm");
  EXPECT_EQ(f.found, "-9.59 dBm");
  EXPECT_EQ(f.fix, kClean);
}

TEST(CheckOptics, BiasAboveTheHighWarningFires) {
  Cluster c(1, 2);
  c.Set(1, R"(roce_module_lane_tx_bias_amperes{netdev="ens1f0np0",lane="3"})", "0.0135");
  c.EditPlan("\"tx_bias_milliamperes_max\": 12.0,", "");
  Finding f = ExpectOnly(c.Run(), kOpticsWarning, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.expected, "lane 3 tx bias ≤ 13.00 mA");
  EXPECT_EQ(f.found, "13.50 mA");
}

// By default the exporter serves no voltage or bias alarm threshold (docs/metrics.md
// "Default and opt-in series"): a reading beyond the (unserved) high alarm shows as beyond
// the high warning, and with the module's own high-alarm flag raised it is an alarm, as it
// was with every threshold served.
TEST(CheckOptics, RaisedAlarmFlagMakesAWarningCrossingAnAlarm) {
  Cluster c(1, 2);
  c.Remove(1, R"(roce_module_threshold{netdev="ens1f0np0",sensor="tx_bias_amperes",level="high_alarm"})");
  c.Remove(1, R"(roce_module_threshold{netdev="ens1f0np0",sensor="tx_bias_amperes",level="low_alarm"})");
  c.Set(1, R"(roce_module_lane_tx_bias_amperes{netdev="ens1f0np0",lane="3"})", "0.016");
  c.EditPlan("\"tx_bias_milliamperes_max\": 12.0,", "");
  Finding warning = ExpectOnly(c.Run(), kOpticsWarning, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(warning.expected, "lane 3 tx bias ≤ 13.00 mA");
  // A raised warning flag leaves the warning as the threshold tells it.
  c.Add(1, R"(roce_module_flag{netdev="ens1f0np0",sensor="tx_bias_amperes",lane="3",level="high_warning"} 1)");
  warning = ExpectOnly(c.Run(), kOpticsWarning, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(warning.expected, "lane 3 tx bias ≤ 13.00 mA");
  c.Add(1, R"(roce_module_flag{netdev="ens1f0np0",sensor="tx_bias_amperes",lane="3",level="high_alarm"} 1)");
  Finding alarm = ExpectOnly(c.Run(), kOpticsAlarm, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(alarm.expected, "lane 3 tx bias no high_alarm flag");
  EXPECT_EQ(alarm.found, "16.00 mA");
}

TEST(CheckOptics, RaisedFlagFiresWhenTheReadingLooksFine) {
  Cluster c(1, 2);
  c.Set(
      1,
      R"(roce_module_flag{netdev="ens1f0np0",sensor="rx_power_watts",lane="3",level="low_alarm"})",
      "1");
  c.Set(
      1,
      R"(roce_module_flag{netdev="ens1f0np0",sensor="temperature_celsius",lane="0",level="high_warning"})",
      "1");
  auto findings = c.Run();
  EXPECT_THAT(Ids(findings), ElementsAre("optics.alarm", "optics.warning")) << Describe(findings);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].expected, "lane 3 rx power no low_alarm flag");
  EXPECT_EQ(findings[0].found, "-0.22 dBm");
  EXPECT_EQ(findings[1].expected, "temperature no high_warning flag");
  EXPECT_EQ(findings[1].found, "45.5 °C");
}

TEST(CheckOptics, ReadingsInsideTheThresholdsAreQuiet) {
  Cluster c(1, 2);
  auto findings = c.Run();
  EXPECT_TRUE(WithId(findings, kOpticsAlarm.id).empty());
  EXPECT_TRUE(WithId(findings, kOpticsWarning.id).empty());
}

TEST(CheckOptics, ReadingBeyondTheProfileLimitOnlyFires) {
  Cluster c(1, 2);
  c.Set(1, RxPower("4"),
        "0.00015");  // -8.2 dBm: inside the module's thresholds, under the plan's -7
  c.Set(1, R"(roce_module_temperature_celsius{netdev="ens2f0np0"})",
        "67");  // under 70 warn, over 65 planned
  auto findings = c.Run();
  auto limits = WithId(findings, kOpticsProfileLimit.id);
  ASSERT_EQ(limits.size(), 2u) << Describe(findings);
  EXPECT_EQ(findings.size(), 2u) << Describe(findings);
  EXPECT_EQ(limits[0].severity, Severity::kWarning);
  EXPECT_EQ(limits[0].netdev, "ens1f0np0");
  EXPECT_EQ(limits[0].expected, "lane 4 rx power ≥ -7 dBm");
  EXPECT_EQ(limits[0].found, "-8.24 dBm");
  EXPECT_EQ(limits[0].fix, kClean);
  EXPECT_EQ(limits[1].netdev, "ens2f0np0");
  EXPECT_EQ(limits[1].expected, "temperature ≤ 65 °C");
  EXPECT_EQ(limits[1].found, "67.0 °C");
}

TEST(CheckOptics, ProfileLimitIsSilencedWithoutOpticsInTheProfile) {
  Cluster c(1, 2);
  c.Set(1, RxPower("4"), "0.00015");
  c.EditPlan(R"("optics": {
        "temperature_celsius_max": 65,
        "tx_bias_milliamperes_max": 12.0,
        "tx_power_dbm_min": -6.0,
        "rx_power_dbm_min": -7.0
      })",
             R"("optics": {})");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

}  // namespace
}  // namespace rocewatch::lint::testing
