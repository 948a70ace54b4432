// optics::DecodeSff8472 on SFP images built from SFF-8472 (images.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "exporter/optics/decode.h"
#include "exporter/optics/images.h"

namespace rocewatch::optics {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kA0;
using testing::kA2;

void ExpectThresholds(const std::optional<Thresholds>& t, double high_alarm, double low_alarm,
                      double high_warning, double low_warning) {
  ASSERT_TRUE(t.has_value());
  EXPECT_DOUBLE_EQ(t->high_alarm, high_alarm);
  EXPECT_DOUBLE_EQ(t->low_alarm, low_alarm);
  EXPECT_DOUBLE_EQ(t->high_warning, high_warning);
  EXPECT_DOUBLE_EQ(t->low_warning, low_warning);
}

TEST(OpticsSff8472Test, DecodesIdentityOfInternallyCalibratedSfp) {
  auto info = DecodeSff8472(testing::SfpInternalCalibration());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->identifier, 0x03);
  EXPECT_EQ(info->identifier_name, "SFP");
  EXPECT_EQ(info->standard, Standard::kSff8472);
  EXPECT_EQ(info->spec, "SFF-8472 rev 12.3");
  EXPECT_EQ(info->spec_revision, "12.3");
  EXPECT_EQ(info->spec_revision_code, 0x08);
  EXPECT_EQ(info->vendor_name, "FINISAR CORP.");
  EXPECT_EQ(info->vendor_oui, "00:90:65");
  EXPECT_EQ(info->part_number, "FTLX8574D3BCL");
  EXPECT_EQ(info->revision, "A");
  EXPECT_EQ(info->serial_number, "ALN1A2B");
  EXPECT_EQ(info->date_code, "230417");
  EXPECT_EQ(info->manufacture_date, "2023-04-17");
  EXPECT_EQ(info->connector, 0x07);
  EXPECT_EQ(info->connector_name, "LC");
  EXPECT_THAT(info->compliance, ElementsAre("10GBASE-SR"));
  ASSERT_TRUE(info->wavelength_meters.has_value());
  EXPECT_DOUBLE_EQ(*info->wavelength_meters, 850e-9);
  EXPECT_FALSE(info->flat_memory);
  EXPECT_TRUE(info->module_state.empty());
  EXPECT_TRUE(info->warnings.empty());
}

TEST(OpticsSff8472Test, DecodesInternallyCalibratedMonitorsThresholdsAndFlags) {
  auto info = DecodeSff8472(testing::SfpInternalCalibration());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_TRUE(info->diagnostics);
  EXPECT_EQ(info->calibration, Calibration::kInternal);
  EXPECT_EQ(info->rx_power_measurement, RxPowerMeasurement::kAverage);

  EXPECT_EQ(info->temperature_celsius.value, 37.5);  // 0x2580 / 256
  ExpectThresholds(info->temperature_celsius.thresholds, 75.0, -5.0, 70.0, 0.0);
  EXPECT_EQ(info->temperature_celsius.flags.high_alarm, false);
  EXPECT_EQ(info->temperature_celsius.flags.low_warning, false);
  ASSERT_TRUE(info->supply_voltage_volts.value.has_value());
  EXPECT_DOUBLE_EQ(*info->supply_voltage_volts.value, 3.3);  // 33000 x 100 uV
  ExpectThresholds(info->supply_voltage_volts.thresholds, 3.6, 3.0, 3.5, 3.1);

  ASSERT_EQ(info->lanes.size(), 1u);
  const Lane& lane = info->lanes[0];
  EXPECT_EQ(lane.number, 1);
  ASSERT_TRUE(lane.tx_bias_amperes.value.has_value());
  EXPECT_DOUBLE_EQ(*lane.tx_bias_amperes.value, 0.012);  // 6000 x 2 uA
  ExpectThresholds(lane.tx_bias_amperes.thresholds, 0.030, 0.001, 0.025, 0.002);
  ASSERT_TRUE(lane.tx_power_watts.value.has_value());
  EXPECT_DOUBLE_EQ(*lane.tx_power_watts.value, 0.0005);  // 5000 x 0.1 uW
  ExpectThresholds(lane.tx_power_watts.thresholds, 0.001, 0.0001, 0.0008, 0.0002);
  ASSERT_TRUE(lane.rx_power_watts.value.has_value());
  EXPECT_DOUBLE_EQ(*lane.rx_power_watts.value, 0.000018);  // 180 x 0.1 uW
  ExpectThresholds(lane.rx_power_watts.thresholds, 0.001, 0.00001, 0.0008, 0.00002);
  // A2h 117 bit 6: RX power low warning; every other flag clear.
  EXPECT_EQ(lane.rx_power_watts.flags.low_warning, true);
  EXPECT_EQ(lane.rx_power_watts.flags.high_warning, false);
  EXPECT_EQ(lane.rx_power_watts.flags.low_alarm, false);
  EXPECT_EQ(lane.tx_power_watts.flags.low_warning, false);
  EXPECT_EQ(lane.tx_bias_amperes.flags.high_alarm, false);
  // A2h 110 bit 1 (RX_LOS implemented per A0h 65 bit 1); TX fault implemented, clear.
  EXPECT_EQ(lane.rx_loss_of_signal, true);
  EXPECT_EQ(lane.tx_fault, false);
  EXPECT_FALSE(lane.tx_loss_of_signal.has_value());
}

TEST(OpticsSff8472Test, AppliesExternalCalibrationToMonitorsAndThresholds) {
  auto info = DecodeSff8472(testing::SfpExternalCalibration());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->spec, "SFF-8472 rev 12.4");
  EXPECT_EQ(info->vendor_name, "ACME PHOTONICS");
  EXPECT_EQ(info->vendor_oui, "00:1b:21");
  EXPECT_EQ(info->date_code, "191231AB");
  EXPECT_EQ(info->manufacture_date, "2019-12-31");
  EXPECT_THAT(info->compliance, ElementsAre("1000BASE-LX"));
  EXPECT_DOUBLE_EQ(*info->wavelength_meters, 1310e-9);
  EXPECT_EQ(info->calibration, Calibration::kExternal);

  // T = 1.0 x 45.0 degC + (-640 / 256) degC
  EXPECT_EQ(info->temperature_celsius.value, 42.5);
  ExpectThresholds(info->temperature_celsius.thresholds, 75.0, -5.0, 70.0, 0.0);
  EXPECT_EQ(info->temperature_celsius.flags.high_alarm, true);  // A2h 112 bit 7
  EXPECT_EQ(info->temperature_celsius.flags.low_alarm, false);
  // V = (1.0 x 32000 + 500) x 100 uV
  EXPECT_DOUBLE_EQ(*info->supply_voltage_volts.value, 3.25);
  ExpectThresholds(info->supply_voltage_volts.thresholds, 3.6, 3.0, 3.5, 3.1);

  ASSERT_EQ(info->lanes.size(), 1u);
  const Lane& lane = info->lanes[0];
  // I = (2.0 x 3000 + 0) x 2 uA
  EXPECT_DOUBLE_EQ(*lane.tx_bias_amperes.value, 0.012);
  ExpectThresholds(lane.tx_bias_amperes.thresholds, 0.030, 0.001, 0.025, 0.002);
  // P = (1.5 x 4000 - 100) x 0.1 uW
  EXPECT_DOUBLE_EQ(*lane.tx_power_watts.value, 0.00059);
  ExpectThresholds(lane.tx_power_watts.thresholds, 0.0010001, 0.0001001, 0.0008, 0.0002);
  // Rx = 2^-30 x^4 + 2^-20 x^3 + 2^-10 x^2 + 1.5 x + 10 at x = 1024: 4618 x 0.1 uW
  EXPECT_DOUBLE_EQ(*lane.rx_power_watts.value, 0.0004618);
  ExpectThresholds(lane.rx_power_watts.thresholds, 0.0031754, 0.000001, 0.0004618, 110.265625e-7);
  // Options byte 65 is 0: neither RX_LOS nor TX_FAULT is implemented.
  EXPECT_FALSE(lane.rx_loss_of_signal.has_value());
  EXPECT_FALSE(lane.tx_fault.has_value());
}

TEST(OpticsSff8472Test, InternalCalibrationIgnoresTheCalibrationConstants) {
  // The same A/D values read as internally calibrated: the constants must not be applied.
  testing::ImageBuilder b;
  testing::SfpSerialId(b, "X", 0, "P", "1", "S", "200101");
  b.Byte(kA0, 92, 0x60)      // DDM, internally calibrated, OMA
      .U16(kA2, 84, 0x0200)  // T(slope) 2.0: would double the temperature
      .U16(kA2, 86, 0x0100)  // T(offset) +1 degC
      .U16(kA2, 96, 0x1900)  // temperature 25 degC
      .U16(kA2, 104, 5000)   // RX power 0.5 mW
      .Float(kA2, 68, 3.0f)  // Rx_PWR(1) 3.0: would triple the RX power
      .Touch(kA2, 127);
  auto info = DecodeSff8472(b.Build());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->temperature_celsius.value, 25.0);
  EXPECT_DOUBLE_EQ(*info->lanes.at(0).rx_power_watts.value, 0.0005);
  EXPECT_EQ(info->rx_power_measurement, RxPowerMeasurement::kOma);
  // A0h 93 bit 7 clear: no thresholds, no flags.
  EXPECT_FALSE(info->temperature_celsius.thresholds.has_value());
  EXPECT_FALSE(info->temperature_celsius.flags.high_alarm.has_value());
}

TEST(OpticsSff8472Test, NonFiniteCalibrationConstantLeavesRxPowerAbsent) {
  testing::ImageBuilder b;
  testing::SfpSerialId(b, "X", 0, "P", "1", "S", "200101");
  b.Byte(kA0, 92, 0x50)          // DDM, externally calibrated
      .U32(kA2, 64, 0x7FC00000)  // Rx_PWR(2): NaN
      .U16(kA2, 84, 0x0100)      // T(slope) 1.0
      .U16(kA2, 96, 0x1900)      // temperature 25 degC
      .U16(kA2, 104, 5000)
      .Touch(kA2, 127);
  auto info = DecodeSff8472(b.Build());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->temperature_celsius.value, 25.0);
  EXPECT_FALSE(info->lanes.at(0).rx_power_watts.value.has_value());
  EXPECT_THAT(info->warnings, ElementsAre(HasSubstr("Rx_PWR(2) at bytes 64-67 is not a finite")));
}

TEST(OpticsSff8472Test, WithoutDiagnosticsHasNoMonitors) {
  testing::ImageBuilder b;
  testing::SfpSerialId(b, "DAC VENDOR", 0x0090FA, "SFP-H10GB-CU1M", "R", "DAC1", "210301");
  b.Byte(kA0, 8, 0x04)        // 8: SFP+ cable technology, passive cable
      .U16(kA0, 60, 0x0100);  // 60-61: passive cable compliance, not a wavelength
  auto info = DecodeSff8472(b.Build());
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_FALSE(info->diagnostics);
  EXPECT_FALSE(info->calibration.has_value());
  EXPECT_FALSE(info->temperature_celsius.value.has_value());
  EXPECT_TRUE(info->lanes.empty());
  EXPECT_FALSE(info->wavelength_meters.has_value());
  EXPECT_THAT(info->compliance, ElementsAre("Passive cable"));
  EXPECT_EQ(info->spec, "SFF-8472");  // byte 94 = 0: no compliance declared
  EXPECT_TRUE(info->warnings.empty());
}

TEST(OpticsSff8472Test, DiagnosticsWithoutA2hIsAWarningNotAnError) {
  EepromImage image;
  image.SetLower(kI2cAddressA0, *testing::SfpInternalCalibration().Lower(kI2cAddressA0));
  auto info = DecodeSff8472(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->vendor_name, "FINISAR CORP.");
  EXPECT_FALSE(info->diagnostics);
  EXPECT_TRUE(info->lanes.empty());
  EXPECT_THAT(info->warnings, ElementsAre(HasSubstr("A2h (I2C address 0x51) was not read")));
}

TEST(OpticsSff8472Test, TruncatedA2hDecodesWhatWasRead) {
  EepromImage full = testing::SfpInternalCalibration();
  EepromImage image;
  image.SetLower(kI2cAddressA0, *full.Lower(kI2cAddressA0));
  image.SetLower(kI2cAddressA2, full.Lower(kI2cAddressA2)->first(100));  // ends before TX bias
  auto info = DecodeSff8472(image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->temperature_celsius.value, 37.5);
  EXPECT_DOUBLE_EQ(*info->supply_voltage_volts.value, 3.3);
  ASSERT_EQ(info->lanes.size(), 1u);
  EXPECT_FALSE(info->lanes[0].tx_bias_amperes.value.has_value());
  EXPECT_FALSE(info->lanes[0].rx_power_watts.value.has_value());
  EXPECT_FALSE(info->lanes[0].rx_power_watts.flags.low_warning.has_value());  // byte 117 lost
  ExpectThresholds(info->lanes[0].rx_power_watts.thresholds, 0.001, 0.00001, 0.0008, 0.00002);
  EXPECT_THAT(info->warnings, ElementsAre("A2h lower page is truncated: 100 of 128 bytes"));
}

TEST(OpticsSff8472Test, RejectsTruncatedLowerPage) {
  EepromImage image;
  image.SetLower(kI2cAddressA0, testing::SfpInternalCalibration().Lower()->first(92));
  auto info = DecodeSff8472(image);
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().message, "EEPROM lower page is truncated: 92 of 128 bytes");
}

TEST(OpticsSff8472Test, RejectsOtherModuleTypes) {
  auto info = DecodeSff8472(testing::Qsfp28());
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().message,
            "module identifier 0x11 (QSFP28) at byte 0 is not a SFF-8472 (SFP) module");
}

}  // namespace
}  // namespace rocewatch::optics
