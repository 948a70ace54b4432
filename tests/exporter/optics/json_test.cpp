// optics::ToJson and DecodeDump (the `decode-eeprom FILE` path).

#include "exporter/optics/json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "exporter/optics/decode.h"
#include "exporter/optics/images.h"

namespace rocewatch::optics {
namespace {

using ::testing::HasSubstr;

TEST(OpticsJsonTest, ConvertsWattsToDbm) {
  EXPECT_EQ(WattsToDbm(0.001), 0.0);
  EXPECT_DOUBLE_EQ(*WattsToDbm(0.01), 10.0);
  EXPECT_DOUBLE_EQ(*WattsToDbm(0.0001), -10.0);
  EXPECT_FALSE(WattsToDbm(0.0).has_value());
  EXPECT_FALSE(WattsToDbm(-1e-6).has_value());
  EXPECT_FALSE(WattsToDbm(NAN).has_value());
}

TEST(OpticsJsonTest, CarriesUnitsInKeys) {
  auto info = DecodeCmis(testing::QsfpDd8Lane());
  ASSERT_TRUE(info.ok()) << info.error().message;
  nlohmann::json j = ToJson(*info);
  EXPECT_EQ(j["identifier"], 0x18);
  EXPECT_EQ(j["identifier_hex"], "0x18");
  EXPECT_EQ(j["identifier_name"], "QSFP-DD");
  EXPECT_EQ(j["standard"], "CMIS");
  EXPECT_EQ(j["spec"], "CMIS 5.2");
  EXPECT_EQ(j["serial_number"], "MT2305XZ00042");
  EXPECT_EQ(j["module_state"], "ModuleReady");
  EXPECT_EQ(j["rx_power_measurement"], "average");
  EXPECT_DOUBLE_EQ(j["wavelength_nanometers"].get<double>(), 850.0);
  EXPECT_EQ(j["temperature_celsius"]["value"], 42.25);
  EXPECT_EQ(j["temperature_celsius"]["thresholds"]["high_alarm"], 75.0);
  EXPECT_EQ(j["temperature_celsius"]["flags"]["high_alarm"], false);
  EXPECT_DOUBLE_EQ(j["supply_voltage_volts"]["value"].get<double>(), 3.3);
  ASSERT_EQ(j["lanes"].size(), 8u);
  const nlohmann::json& lane6 = j["lanes"][5];
  EXPECT_EQ(lane6["lane"], 6);
  EXPECT_DOUBLE_EQ(lane6["rx_power_watts"]["value"].get<double>(), 30e-6);
  EXPECT_EQ(lane6["rx_power_watts"]["flags"]["low_warning"], true);
  // 10 log10(0.03 mW / 1 mW) and the 50 uW low warning threshold in dBm.
  EXPECT_NEAR(lane6["rx_power_dbm"]["value"].get<double>(), -15.228787452803376, 1e-12);
  EXPECT_NEAR(lane6["rx_power_dbm"]["thresholds"]["low_warning"].get<double>(), -13.010299956639813,
              1e-12);
  EXPECT_DOUBLE_EQ(lane6["tx_bias_amperes"]["value"].get<double>(), 0.0140);
  EXPECT_EQ(lane6["rx_loss_of_signal"], false);
  EXPECT_FALSE(lane6.contains("tx_loss_of_signal"));
  EXPECT_TRUE(j["warnings"].empty());
}

TEST(OpticsJsonTest, AbsentValuesAreNullAndAbsentThresholdsLeftOut) {
  auto info = DecodeCmis(testing::CmisFlatMemory());
  ASSERT_TRUE(info.ok()) << info.error().message;
  nlohmann::json j = ToJson(*info);
  EXPECT_TRUE(j["temperature_celsius"]["value"].is_null());
  EXPECT_FALSE(j["temperature_celsius"].contains("thresholds"));
  EXPECT_FALSE(j["temperature_celsius"].contains("flags"));
  EXPECT_FALSE(j.contains("wavelength_meters"));
  EXPECT_TRUE(j["lanes"].empty());
  EXPECT_EQ(j["flat_memory"], true);
}

TEST(OpticsJsonTest, ZeroPowerHasNoDbm) {
  testing::ImageBuilder b;
  testing::SfpSerialId(b, "X", 0, "P", "1", "S", "200101");
  b.Byte(testing::kA0, 92, 0x68).U16(testing::kA2, 104, 0).Touch(testing::kA2, 127);
  auto info = DecodeSff8472(b.Build());
  ASSERT_TRUE(info.ok()) << info.error().message;
  nlohmann::json j = ToJson(*info);
  EXPECT_EQ(j["lanes"][0]["rx_power_watts"]["value"], 0.0);
  EXPECT_TRUE(j["lanes"][0]["rx_power_dbm"]["value"].is_null());
  EXPECT_EQ(j["calibration"], "internal");
}

TEST(OpticsDecodeDumpTest, ReadsRawAndHexFiles) {
  const EepromImage image = testing::Qsfp28();
  const auto raw = ToRaw(image);
  auto from_raw = DecodeDump(raw);
  ASSERT_TRUE(from_raw.ok()) << from_raw.error().message;
  EXPECT_EQ(from_raw->part_number, "MMA1B00-C100D");
  EXPECT_DOUBLE_EQ(*from_raw->lanes.at(0).rx_power_watts.value, 0.0008);

  const std::string hex = ToPagedHexDump(image);
  auto from_hex =
      DecodeDump(std::span(reinterpret_cast<const std::uint8_t*>(hex.data()), hex.size()));
  ASSERT_TRUE(from_hex.ok()) << from_hex.error().message;
  EXPECT_EQ(from_hex->part_number, "MMA1B00-C100D");
  ASSERT_TRUE(from_hex->lanes.at(0).rx_power_watts.thresholds.has_value());
  EXPECT_DOUBLE_EQ(from_hex->lanes.at(0).rx_power_watts.thresholds->low_warning, 0.00005);

  // The 8-lane CMIS module: the raw layout has no page 11h, the paged hex dump does.
  const EepromImage cmis = testing::QsfpDd8Lane();
  auto cmis_raw = DecodeDump(ToRaw(cmis));
  ASSERT_TRUE(cmis_raw.ok()) << cmis_raw.error().message;
  EXPECT_FALSE(cmis_raw->lanes.at(0).rx_power_watts.value.has_value());
  EXPECT_THAT(cmis_raw->warnings.at(0), HasSubstr("page 11h (lane monitors) was not read"));
  const std::string cmis_hex = ToPagedHexDump(cmis);
  auto from_cmis_hex = DecodeDump(
      std::span(reinterpret_cast<const std::uint8_t*>(cmis_hex.data()), cmis_hex.size()));
  ASSERT_TRUE(from_cmis_hex.ok()) << from_cmis_hex.error().message;
  EXPECT_DOUBLE_EQ(*from_cmis_hex->lanes.at(5).rx_power_watts.value, 30e-6);
}

TEST(OpticsDecodeDumpTest, RejectsGarbageAndUnknownModules) {
  auto empty = DecodeDump(std::span<const std::uint8_t>());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "EEPROM dump file is empty");

  const std::string text = "this is not an EEPROM dump\n";
  auto words =
      DecodeDump(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  ASSERT_FALSE(words.ok());
  EXPECT_THAT(words.error().message, HasSubstr("hex dump line 1: expected \"0x0000:"));

  std::vector<std::uint8_t> unknown(256, 0xA5);
  unknown[0] = 0x42;
  auto reserved = DecodeDump(unknown);
  ASSERT_FALSE(reserved.ok());
  EXPECT_EQ(reserved.error().message,
            "module identifier 0x42 (reserved (0x42)) at byte 0 has no decoder: expected SFP "
            "0x03 (SFF-8472), QSFP 0x0c/QSFP+ 0x0d/QSFP28 0x11 (SFF-8636) or QSFP-DD 0x18/OSFP "
            "0x19/QSFP+ CMIS 0x1e (CMIS)");

  std::vector<std::uint8_t> xfp(256, 0);
  xfp[0] = 0x06;
  auto known_but_unsupported = DecodeDump(xfp);
  ASSERT_FALSE(known_but_unsupported.ok());
  EXPECT_THAT(known_but_unsupported.error().message, HasSubstr("0x06 (XFP)"));

  std::vector<std::uint8_t> short_lower(100, 0);
  short_lower[0] = 0x11;
  auto truncated = DecodeDump(short_lower);
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.error().message, "EEPROM lower page is truncated: 100 of 128 bytes");
}

}  // namespace
}  // namespace rocewatch::optics
