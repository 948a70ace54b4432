// optics::DecodeCmis on QSFP-DD, OSFP and flat-memory images built from CMIS 5.2 (images.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "exporter/optics/decode.h"
#include "exporter/optics/images.h"

namespace rocewatch::optics {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kPage00;
using testing::kPage01;
using testing::kPage02;
using testing::kPage11Bank0;
using testing::kPage11Bank1;

void ExpectThresholds(const std::optional<Thresholds>& t, double high_alarm, double low_alarm,
                      double high_warning, double low_warning) {
  ASSERT_TRUE(t.has_value());
  EXPECT_DOUBLE_EQ(t->high_alarm, high_alarm);
  EXPECT_DOUBLE_EQ(t->low_alarm, low_alarm);
  EXPECT_DOUBLE_EQ(t->high_warning, high_warning);
  EXPECT_DOUBLE_EQ(t->low_warning, low_warning);
}

TEST(OpticsCmisTest, DecodesIdentity) {
  auto info = DecodeCmis(testing::QsfpDd8Lane());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->identifier, 0x18);
  EXPECT_EQ(info->identifier_name, "QSFP-DD");
  EXPECT_EQ(info->standard, Standard::kCmis);
  EXPECT_EQ(info->spec, "CMIS 5.2");
  EXPECT_EQ(info->spec_revision, "5.2");
  EXPECT_EQ(info->spec_revision_code, 0x52);
  EXPECT_EQ(info->vendor_name, "NVIDIA");
  EXPECT_EQ(info->vendor_oui, "48:b0:2d");
  EXPECT_EQ(info->part_number, "MMA4Z00-NS400");
  EXPECT_EQ(info->revision, "A1");
  EXPECT_EQ(info->serial_number, "MT2305XZ00042");
  EXPECT_EQ(info->manufacture_date, "2023-02-01");
  EXPECT_EQ(info->connector_name, "MPO 1x12");
  EXPECT_THAT(info->compliance,
              ElementsAre("Media: multimode fiber (MMF)", "Transmitter: 850 nm VCSEL"));
  EXPECT_DOUBLE_EQ(*info->wavelength_meters, 850e-9);
  EXPECT_EQ(info->module_state, "ModuleReady");
  EXPECT_FALSE(info->flat_memory);
  EXPECT_TRUE(info->warnings.empty());
}

TEST(OpticsCmisTest, DecodesModuleMonitorsThresholdsAndFlags) {
  auto info = DecodeCmis(testing::QsfpDd8Lane());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_TRUE(info->diagnostics);
  EXPECT_EQ(info->rx_power_measurement, RxPowerMeasurement::kAverage);
  EXPECT_EQ(info->temperature_celsius.value, 42.25);  // 0x2A40 / 256
  ExpectThresholds(info->temperature_celsius.thresholds, 75.0, -5.0, 70.0, 0.0);
  EXPECT_EQ(info->temperature_celsius.flags.high_alarm, false);
  EXPECT_DOUBLE_EQ(*info->supply_voltage_volts.value, 3.3);
  ExpectThresholds(info->supply_voltage_volts.thresholds, 3.6, 3.0, 3.5, 3.1);
  EXPECT_EQ(info->supply_voltage_volts.flags.low_warning, false);
}

TEST(OpticsCmisTest, DecodesEightLanesWithBiasMultiplierAndTheLowRxLane) {
  auto info = DecodeCmis(testing::QsfpDd8Lane());
  ASSERT_TRUE(info.ok()) << info.error().message;
  ASSERT_EQ(info->lanes.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    SCOPED_TRACE("lane " + std::to_string(i + 1));
    const Lane& lane = info->lanes[static_cast<std::size_t>(i)];
    EXPECT_EQ(lane.number, i + 1);
    EXPECT_DOUBLE_EQ(*lane.tx_power_watts.value, (6000 + 100 * i) * 1e-7);
    // Page 01h byte 160 bits 4-3 = 01: bias counts 2 uA x 2.
    EXPECT_DOUBLE_EQ(*lane.tx_bias_amperes.value, (3000 + 100 * i) * 4e-6);
    EXPECT_DOUBLE_EQ(*lane.rx_power_watts.value, i == 5 ? 30e-6 : (8000 - 100 * i) * 1e-7);
    ExpectThresholds(lane.tx_power_watts.thresholds, 0.002, 0.00005, 0.0016, 0.0001);
    ExpectThresholds(lane.tx_bias_amperes.thresholds, 0.040, 0.004, 0.036, 0.006);
    ExpectThresholds(lane.rx_power_watts.thresholds, 0.002, 0.00001, 0.0016, 0.00005);
    // Page 11h byte 152 bit 5: lane 6 RX power low warning, nothing else.
    EXPECT_EQ(lane.rx_power_watts.flags.low_warning, i == 5);
    EXPECT_EQ(lane.rx_power_watts.flags.low_alarm, false);
    EXPECT_EQ(lane.tx_power_watts.flags.high_alarm, false);
    EXPECT_EQ(lane.tx_bias_amperes.flags.low_warning, false);
    EXPECT_EQ(lane.rx_loss_of_signal, false);          // advertised in page 01h byte 158
    EXPECT_EQ(lane.tx_fault, false);                   // advertised in page 01h byte 157
    EXPECT_FALSE(lane.tx_loss_of_signal.has_value());  // not advertised
  }
  const Sensor& rx6 = info->lanes[5].rx_power_watts;
  EXPECT_LT(*rx6.value, rx6.thresholds->low_warning);
  EXPECT_GT(*rx6.value, rx6.thresholds->low_alarm);
}

TEST(OpticsCmisTest, ReadsLanesAcrossBanks) {
  auto info = DecodeCmis(testing::Osfp16Lane());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->identifier_name, "OSFP");
  EXPECT_DOUBLE_EQ(*info->wavelength_meters, 1310e-9);
  EXPECT_THAT(info->compliance,
              ElementsAre("Media: single-mode fiber (SMF)", "Transmitter: 1310 nm EML"));
  ASSERT_EQ(info->lanes.size(), 16u);
  for (int i = 0; i < 16; ++i) {
    const Lane& lane = info->lanes[static_cast<std::size_t>(i)];
    EXPECT_EQ(lane.number, i + 1);
    EXPECT_DOUBLE_EQ(*lane.rx_power_watts.value, 1000 * (i + 1) * 1e-7) << "lane " << i + 1;
    EXPECT_DOUBLE_EQ(*lane.tx_power_watts.value, 500 * (i + 1) * 1e-7) << "lane " << i + 1;
    EXPECT_FALSE(lane.tx_bias_amperes.value.has_value());  // not advertised
  }
  EXPECT_TRUE(info->warnings.empty());
}

TEST(OpticsCmisTest, MissingBankIsAWarning) {
  EepromImage full = testing::Osfp16Lane();
  EepromImage image;
  image.SetLower(kI2cAddressA0, *full.Lower());
  for (PageId id : full.UpperPages()) {
    if (id != kPage11Bank1) image.SetUpper(id, *full.Upper(id));
  }
  auto info = DecodeCmis(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  ASSERT_EQ(info->lanes.size(), 16u);
  EXPECT_DOUBLE_EQ(*info->lanes[7].rx_power_watts.value, 0.0008);
  EXPECT_FALSE(info->lanes[8].rx_power_watts.value.has_value());
  EXPECT_THAT(info->warnings,
              ElementsAre("bank 1 page 11h (lane monitors) was not read: no values for lanes "
                          "9-16"));
}

TEST(OpticsCmisTest, FlatMemoryModuleDecodesOnlyWhatExists) {
  EepromImage image = testing::CmisFlatMemory();
  ASSERT_EQ(image.UpperPages().size(), 1u);  // lower page + page 00h, nothing else
  auto info = DecodeCmis(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->identifier_name, "QSFP+ CMIS");
  EXPECT_EQ(info->spec, "CMIS 5.0");
  EXPECT_TRUE(info->flat_memory);
  EXPECT_EQ(info->vendor_name, "AMPHENOL");
  EXPECT_EQ(info->vendor_oui, "78:a7:14");
  EXPECT_EQ(info->part_number, "NDAQGF-0001");
  EXPECT_EQ(info->connector_name, "No separable connector");
  EXPECT_THAT(info->compliance,
              ElementsAre("Media: passive copper cable", "Transmitter: Copper cable, unequalized"));
  EXPECT_FALSE(info->wavelength_meters.has_value());
  EXPECT_FALSE(info->diagnostics);
  EXPECT_FALSE(info->temperature_celsius.value.has_value());
  EXPECT_TRUE(info->lanes.empty());
  EXPECT_TRUE(info->warnings.empty());
}

TEST(OpticsCmisTest, PagedModuleWithOnlyPage00WarnsAndKeepsModuleMonitors) {
  // What an ioctl dump of 256 bytes gives for a paged module.
  EepromImage full = testing::QsfpDd8Lane();
  EepromImage image;
  image.SetLower(kI2cAddressA0, *full.Lower());
  image.SetUpper(kPage00, *full.Upper(kPage00));
  auto info = DecodeCmis(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->temperature_celsius.value, 42.25);
  EXPECT_FALSE(info->temperature_celsius.thresholds.has_value());
  EXPECT_TRUE(info->lanes.empty());
  EXPECT_THAT(info->warnings, ElementsAre("page 01h (advertising) was not read: no lane monitors",
                                          "page 02h (thresholds) was not read: no thresholds"));
}

TEST(OpticsCmisTest, TruncatedLanePageKeepsFlagsLosesMonitors) {
  EepromImage full = testing::QsfpDd8Lane();
  EepromImage image = full;
  image.SetUpper(kPage11Bank0, full.Upper(kPage11Bank0)->first(30));  // bytes 128-157
  auto info = DecodeCmis(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  ASSERT_EQ(info->lanes.size(), 8u);
  EXPECT_EQ(info->lanes[5].rx_power_watts.flags.low_warning, true);
  EXPECT_FALSE(info->lanes[5].rx_power_watts.value.has_value());
  EXPECT_THAT(info->warnings, ElementsAre("page 11h is truncated: 30 of 128 bytes"));
}

TEST(OpticsCmisTest, UnadvertisedMonitorsAreAbsent) {
  EepromImage image = testing::QsfpDd8Lane();
  auto page01 =
      std::vector<std::uint8_t>(image.Upper(kPage01)->begin(), image.Upper(kPage01)->end());
  page01[159 - 128] = 0x00;  // no temperature, no Vcc monitor
  page01[160 - 128] = 0x04;  // RX power only
  image.SetUpper(kPage01, page01);
  auto info = DecodeCmis(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_FALSE(info->temperature_celsius.value.has_value());
  EXPECT_FALSE(info->supply_voltage_volts.value.has_value());
  EXPECT_FALSE(info->temperature_celsius.flags.high_alarm.has_value());
  ASSERT_EQ(info->lanes.size(), 8u);
  EXPECT_FALSE(info->lanes[0].tx_bias_amperes.value.has_value());
  EXPECT_FALSE(info->lanes[0].tx_power_watts.value.has_value());
  EXPECT_DOUBLE_EQ(*info->lanes[0].rx_power_watts.value, 0.0008);
}

TEST(OpticsCmisTest, ReservedBiasMultiplierIsReported) {
  EepromImage image = testing::QsfpDd8Lane();
  auto page01 =
      std::vector<std::uint8_t>(image.Upper(kPage01)->begin(), image.Upper(kPage01)->end());
  page01[160 - 128] = 0x1F;  // bits 4-3 = 11: reserved multiplier
  image.SetUpper(kPage01, page01);
  auto info = DecodeCmis(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_FALSE(info->lanes.at(0).tx_bias_amperes.value.has_value());
  EXPECT_THAT(info->warnings, ElementsAre(HasSubstr("bias multiplier code 3 is reserved")));
}

TEST(OpticsCmisTest, RejectsTruncatedAndForeignImages) {
  EepromImage lower_only;
  lower_only.SetLower(kI2cAddressA0, testing::QsfpDd8Lane().Lower()->first(127));
  auto a = DecodeCmis(lower_only);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, "EEPROM lower page is truncated: 127 of 128 bytes");

  EepromImage no_page00;
  no_page00.SetLower(kI2cAddressA0, *testing::QsfpDd8Lane().Lower());
  auto b = DecodeCmis(no_page00);
  ASSERT_FALSE(b.ok());
  EXPECT_THAT(b.error().message, HasSubstr("no page 00h"));

  auto c = DecodeCmis(testing::SfpInternalCalibration());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "module identifier 0x03 (SFP) at byte 0 is not a CMIS module");
}

}  // namespace
}  // namespace rocewatch::optics
