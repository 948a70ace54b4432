// optics::DecodeSff8636 on QSFP28 images built from SFF-8636 (images.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "exporter/optics/decode.h"
#include "exporter/optics/images.h"

namespace rocewatch::optics {
namespace {

using ::testing::ElementsAre;
using testing::kPage00;
using testing::kPage03;

void ExpectThresholds(const std::optional<Thresholds>& t, double high_alarm, double low_alarm,
                      double high_warning, double low_warning) {
  ASSERT_TRUE(t.has_value());
  EXPECT_DOUBLE_EQ(t->high_alarm, high_alarm);
  EXPECT_DOUBLE_EQ(t->low_alarm, low_alarm);
  EXPECT_DOUBLE_EQ(t->high_warning, high_warning);
  EXPECT_DOUBLE_EQ(t->low_warning, low_warning);
}

TEST(OpticsSff8636Test, DecodesIdentity) {
  auto info = DecodeSff8636(testing::Qsfp28());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->identifier, 0x11);
  EXPECT_EQ(info->identifier_name, "QSFP28");
  EXPECT_EQ(info->standard, Standard::kSff8636);
  EXPECT_EQ(info->spec, "SFF-8636 rev 2.8-2.10");
  EXPECT_EQ(info->spec_revision_code, 0x08);
  EXPECT_EQ(info->vendor_name, "MELLANOX");
  EXPECT_EQ(info->vendor_oui, "00:02:c9");
  EXPECT_EQ(info->part_number, "MMA1B00-C100D");
  EXPECT_EQ(info->revision, "B2");
  EXPECT_EQ(info->serial_number, "MT2142FT01234");
  EXPECT_EQ(info->date_code, "211015");
  EXPECT_EQ(info->manufacture_date, "2021-10-15");
  EXPECT_EQ(info->connector_name, "MPO 1x12");
  EXPECT_THAT(info->compliance,
              ElementsAre("100GBASE-SR4 or 25GBASE-SR", "Transmitter: 850 nm VCSEL"));
  EXPECT_DOUBLE_EQ(*info->wavelength_meters, 850e-9);  // 17000 x 0.05 nm
  EXPECT_FALSE(info->flat_memory);
  EXPECT_TRUE(info->warnings.empty());
}

TEST(OpticsSff8636Test, DecodesModuleMonitorsAndThresholds) {
  auto info = DecodeSff8636(testing::Qsfp28());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_TRUE(info->diagnostics);
  EXPECT_FALSE(info->calibration.has_value());
  EXPECT_EQ(info->rx_power_measurement, RxPowerMeasurement::kAverage);
  EXPECT_EQ(info->temperature_celsius.value, 37.5);  // bytes 22-23 = 0x25 0x80
  ExpectThresholds(info->temperature_celsius.thresholds, 75.0, -5.0, 70.0, 0.0);
  EXPECT_EQ(info->temperature_celsius.flags.high_alarm, false);
  EXPECT_DOUBLE_EQ(*info->supply_voltage_volts.value, 3.292);  // 32920 x 100 uV
  ExpectThresholds(info->supply_voltage_volts.thresholds, 3.6, 3.0, 3.5, 3.1);
  EXPECT_EQ(info->supply_voltage_volts.flags.low_warning, false);
}

TEST(OpticsSff8636Test, DecodesFourLanesWithFlags) {
  auto info = DecodeSff8636(testing::Qsfp28());
  ASSERT_TRUE(info.ok()) << info.error().message;
  ASSERT_EQ(info->lanes.size(), 4u);
  const double rx[4] = {0.0008, 0.00075, 0.00004, 0.0009};  // 8000, 7500, 400, 9000 x 0.1 uW
  const double bias[4] = {0.014, 0.0144, 0.0138, 0.0142};   // 7000 .. 7100 x 2 uA
  const double tx[4] = {0.0006, 0.00055, 0.00065, 0.0005};
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE("lane " + std::to_string(i + 1));
    const Lane& lane = info->lanes[static_cast<std::size_t>(i)];
    EXPECT_EQ(lane.number, i + 1);
    EXPECT_DOUBLE_EQ(*lane.rx_power_watts.value, rx[i]);
    EXPECT_DOUBLE_EQ(*lane.tx_bias_amperes.value, bias[i]);
    EXPECT_DOUBLE_EQ(*lane.tx_power_watts.value, tx[i]);
    ExpectThresholds(lane.rx_power_watts.thresholds, 0.002, 0.00001, 0.0016, 0.00005);
    ExpectThresholds(lane.tx_bias_amperes.thresholds, 0.040, 0.004, 0.036, 0.006);
    ExpectThresholds(lane.tx_power_watts.thresholds, 0.002, 0.00005, 0.0016, 0.0001);
    // Byte 10 bit 4: lane 3 RX power low warning only.
    EXPECT_EQ(lane.rx_power_watts.flags.low_warning, i == 2);
    EXPECT_EQ(lane.rx_power_watts.flags.low_alarm, false);
    EXPECT_EQ(lane.rx_power_watts.flags.high_warning, false);
    EXPECT_EQ(lane.tx_bias_amperes.flags.high_alarm, false);
    EXPECT_EQ(lane.tx_power_watts.flags.high_alarm, false);
    EXPECT_EQ(lane.rx_loss_of_signal, false);
    EXPECT_EQ(lane.tx_loss_of_signal, false);
    EXPECT_EQ(lane.tx_fault, false);
  }
  // The lane under its low warning threshold is the flagged one.
  EXPECT_LT(*info->lanes[2].rx_power_watts.value,
            info->lanes[2].rx_power_watts.thresholds->low_warning);
}

TEST(OpticsSff8636Test, LaneFlagBitsFollowTable6_6) {
  testing::ImageBuilder b;
  b.Byte(kPage00, 0, 0x0D)       // QSFP+
      .Byte(kPage00, 2, 0x04)    // flat memory: no page 03h expected
      .Byte(kPage00, 3, 0x81)    // LOS: bit 0 RX lane 1, bit 7 TX lane 4
      .Byte(kPage00, 4, 0x02)    // TX fault lane 2
      .Byte(kPage00, 6, 0x20)    // temperature high warning
      .Byte(kPage00, 7, 0x40)    // Vcc low alarm
      .Byte(kPage00, 9, 0x08)    // RX power lane 2 high alarm (bit 3)
      .Byte(kPage00, 12, 0x01)   // TX bias lane 4 low warning (bit 0)
      .Byte(kPage00, 13, 0x40)   // TX power lane 1 low alarm (bit 6)
      .U16(kPage00, 22, 0x1900)  // temperature 25 degC
      .Byte(kPage00, 220, 0x04)  // TX power measured, RX power OMA
      .Touch(kPage00, 255);
  auto info = DecodeSff8636(b.Build());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->identifier_name, "QSFP+");
  EXPECT_EQ(info->spec, "SFF-8636");  // byte 1 = 0: revision not specified
  EXPECT_TRUE(info->flat_memory);
  EXPECT_EQ(info->rx_power_measurement, RxPowerMeasurement::kOma);
  EXPECT_EQ(info->temperature_celsius.flags.high_warning, true);
  EXPECT_EQ(info->temperature_celsius.flags.high_alarm, false);
  EXPECT_EQ(info->supply_voltage_volts.flags.low_alarm, true);
  EXPECT_FALSE(info->temperature_celsius.thresholds.has_value());  // flat: no page 03h
  EXPECT_TRUE(info->warnings.empty());
  ASSERT_EQ(info->lanes.size(), 4u);
  EXPECT_EQ(info->lanes[0].rx_loss_of_signal, true);
  EXPECT_EQ(info->lanes[1].rx_loss_of_signal, false);
  EXPECT_EQ(info->lanes[3].tx_loss_of_signal, true);
  EXPECT_EQ(info->lanes[0].tx_loss_of_signal, false);
  EXPECT_EQ(info->lanes[1].tx_fault, true);
  EXPECT_EQ(info->lanes[1].rx_power_watts.flags.high_alarm, true);
  EXPECT_EQ(info->lanes[0].rx_power_watts.flags.high_alarm, false);
  EXPECT_EQ(info->lanes[3].tx_bias_amperes.flags.low_warning, true);
  EXPECT_EQ(info->lanes[2].tx_bias_amperes.flags.low_warning, false);
  EXPECT_EQ(info->lanes[0].tx_power_watts.flags.low_alarm, true);
}

TEST(OpticsSff8636Test, CopperCableWithoutMonitorsHasNoLanes) {
  testing::ImageBuilder b;
  b.Byte(kPage00, 0, 0x11)
      .Byte(kPage00, 1, 0x01)    // revision compliance: SFF-8436 rev 4.8 or earlier
      .Byte(kPage00, 2, 0x04)    // flat memory
      .Byte(kPage00, 130, 0x23)  // no separable connector
      .Byte(kPage00, 147, 0xA0)  // copper cable, unequalized
      .Ascii(kPage00, 148, 163, "CABLE CO")
      .U16(kPage00, 186, 0x0305);  // copper attenuation, not a wavelength
  auto info = DecodeSff8636(b.Build());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->spec, "SFF-8436 rev 4.8 or earlier");
  EXPECT_EQ(info->standard, Standard::kSff8636);
  EXPECT_FALSE(info->diagnostics);
  EXPECT_FALSE(info->temperature_celsius.value.has_value());
  EXPECT_TRUE(info->lanes.empty());
  EXPECT_FALSE(info->wavelength_meters.has_value());
  EXPECT_THAT(info->compliance, ElementsAre("Transmitter: Copper cable, unequalized"));
  EXPECT_EQ(info->connector_name, "No separable connector");
}

TEST(OpticsSff8636Test, MissingPage03IsAWarning) {
  EepromImage full = testing::Qsfp28();
  EepromImage image;
  image.SetLower(kI2cAddressA0, *full.Lower());
  image.SetUpper(kPage00, *full.Upper(kPage00));
  auto info = DecodeSff8636(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->temperature_celsius.value, 37.5);
  EXPECT_FALSE(info->temperature_celsius.thresholds.has_value());
  EXPECT_FALSE(info->lanes.at(0).rx_power_watts.thresholds.has_value());
  EXPECT_DOUBLE_EQ(*info->lanes.at(0).rx_power_watts.value, 0.0008);
  EXPECT_THAT(info->warnings, ElementsAre("page 03h (thresholds) was not read: no thresholds"));
}

TEST(OpticsSff8636Test, TruncatedPage03KeepsTheThresholdsItHolds) {
  EepromImage full = testing::Qsfp28();
  EepromImage image = full;
  image.SetUpper(kPage03, full.Upper(kPage03)->first(40));  // bytes 128-167
  auto info = DecodeSff8636(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  ExpectThresholds(info->temperature_celsius.thresholds, 75.0, -5.0, 70.0, 0.0);
  ExpectThresholds(info->supply_voltage_volts.thresholds, 3.6, 3.0, 3.5, 3.1);
  EXPECT_FALSE(info->lanes.at(0).rx_power_watts.thresholds.has_value());  // 176+ lost
  EXPECT_THAT(info->warnings, ElementsAre("page 03h is truncated: 40 of 128 bytes"));
}

TEST(OpticsSff8636Test, RejectsTruncatedImages) {
  EepromImage full = testing::Qsfp28();
  EepromImage short_lower;
  short_lower.SetLower(kI2cAddressA0, full.Lower()->first(57));
  auto a = DecodeSff8636(short_lower);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, "EEPROM lower page is truncated: 57 of 128 bytes");

  EepromImage lower_only;
  lower_only.SetLower(kI2cAddressA0, *full.Lower());
  auto b = DecodeSff8636(lower_only);
  ASSERT_FALSE(b.ok());
  EXPECT_THAT(b.error().message, ::testing::HasSubstr("no upper page 00h"));
}

// Byte 220 bit 2 (TX power monitored) clear: TX power is decoded all the same, as Linux
// ethtool (qsfp.c reads it whenever the temperature reads valid) and fboss show it, and the
// module's claim is kept apart.
TEST(OpticsSff8636Test, TxPowerDecodedWhateverByte220Says) {
  std::vector<std::uint8_t> raw = ToRaw(testing::Qsfp28());
  ASSERT_GT(raw.size(), 220u);
  ASSERT_TRUE(raw[220] & 0x04);
  auto advertised = DecodeSff8636(*EepromImage::FromRaw(raw));
  raw[220] &= static_cast<std::uint8_t>(~0x04);
  auto silent = DecodeSff8636(*EepromImage::FromRaw(raw));
  ASSERT_TRUE(advertised.ok() && silent.ok());
  EXPECT_EQ(advertised->tx_power_advertised, true);
  EXPECT_EQ(silent->tx_power_advertised, false);
  ASSERT_EQ(silent->lanes.size(), 4u);
  const double tx[] = {0.0006, 0.00055, 0.00065, 0.0005};
  for (std::size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(silent->lanes[i].tx_power_watts.value.has_value()) << i;
    EXPECT_DOUBLE_EQ(*silent->lanes[i].tx_power_watts.value, tx[i]);
    EXPECT_EQ(silent->lanes[i].tx_power_watts.value, advertised->lanes[i].tx_power_watts.value);
    EXPECT_TRUE(silent->lanes[i].tx_power_watts.thresholds.has_value());
  }
}

}  // namespace
}  // namespace rocewatch::optics
