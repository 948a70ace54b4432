#pragma once

// Properties every decoded transceiver module must have, whatever bytes it came from: the
// ranges the raw encodings allow (module.h gives them), lanes numbered 1..n, and a ModuleInfo
// that turns into JSON (what decode-eeprom and captures print).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "exporter/optics/eeprom_image.h"
#include "exporter/optics/json.h"
#include "exporter/optics/module.h"
#include "fuzz_check.h"

namespace rocewatch::fuzz {

inline void CheckFinite(const optics::Sensor& sensor) {
  if (sensor.value) FUZZ_CHECK(std::isfinite(*sensor.value));
  if (sensor.thresholds) {
    FUZZ_CHECK(std::isfinite(sensor.thresholds->high_alarm));
    FUZZ_CHECK(std::isfinite(sensor.thresholds->low_alarm));
    FUZZ_CHECK(std::isfinite(sensor.thresholds->high_warning));
    FUZZ_CHECK(std::isfinite(sensor.thresholds->low_warning));
  }
}

// In [low, high] when present (thresholds use the monitor's encoding, so the same range).
inline void CheckRange(const optics::Sensor& sensor, double low, double high) {
  CheckFinite(sensor);
  auto in = [&](double v) { return v >= low && v <= high; };
  if (sensor.value) FUZZ_CHECK(in(*sensor.value));
  if (sensor.thresholds) {
    FUZZ_CHECK(in(sensor.thresholds->high_alarm));
    FUZZ_CHECK(in(sensor.thresholds->low_alarm));
    FUZZ_CHECK(in(sensor.thresholds->high_warning));
    FUZZ_CHECK(in(sensor.thresholds->low_warning));
  }
}

inline void CheckModule(const optics::ModuleInfo& info, const optics::EepromImage& image) {
  // The identifier is byte 0 of the lower page the decoder read.
  auto lower = image.Lower();
  FUZZ_CHECK(lower && !lower->empty() && (*lower)[0] == info.identifier);
  FUZZ_CHECK(!info.identifier_name.empty());

  // Internally calibrated monitors: s16 / 256 degC, u16 x 100 uV. SFF-8472 external calibration
  // (slope 8.8 and offset s16) can scale them anywhere, but never to a non-finite number.
  const bool external = info.calibration == optics::Calibration::kExternal;
  if (external) {
    CheckFinite(info.temperature_celsius);
    CheckFinite(info.supply_voltage_volts);
  } else {
    CheckRange(info.temperature_celsius, -128.0, 128.0);
    CheckRange(info.supply_voltage_volts, 0.0, 65535 * 100e-6);
  }
  // At most 32 lanes (CMIS: 4 banks of 8), numbered 1..n in order.
  FUZZ_CHECK(info.lanes.size() <= 32);
  for (std::size_t i = 0; i < info.lanes.size(); ++i) {
    const optics::Lane& lane = info.lanes[i];
    FUZZ_CHECK(lane.number == static_cast<int>(i) + 1);
    if (external) {
      CheckFinite(lane.tx_bias_amperes);
      CheckFinite(lane.tx_power_watts);
      CheckFinite(lane.rx_power_watts);
    } else {
      // u16 x 2 uA, times a CMIS bias multiplier of at most 4.
      CheckRange(lane.tx_bias_amperes, 0.0, 65535 * 2e-6 * 4);
      CheckRange(lane.tx_power_watts, 0.0, 65535 * 0.1e-6);
      CheckRange(lane.rx_power_watts, 0.0, 65535 * 0.1e-6);
    }
  }
  if (info.wavelength_meters) {
    // u16 nm, or u16 x 0.05 nm.
    FUZZ_CHECK(*info.wavelength_meters >= 0 && *info.wavelength_meters <= 65535e-9);
  }
  // Vendor strings are printable ASCII (decode_common.h Ascii): safe in labels and JSON.
  for (const std::string* s : {&info.vendor_name, &info.part_number, &info.revision,
                               &info.serial_number, &info.date_code}) {
    for (char c : *s) FUZZ_CHECK(c >= 0x20 && c <= 0x7e);
  }
  // decode-eeprom prints this; nlohmann throws on invalid UTF-8, which must never happen.
  (void)optics::ToJson(info).dump();
}

// The paged hex dump of an image reads back into the same image (pages and bytes). Halves of
// zero bytes (only an API caller can make them: every reader rejects an empty read) have no
// lines in a dump, so they are left out of the comparison; an empty dump is an error.
inline void CheckHexRoundTrip(const optics::EepromImage& image) {
  std::vector<std::uint8_t> lower;
  std::vector<optics::PageId> upper;
  for (std::uint8_t address : image.LowerAddresses()) {
    if (!image.Lower(address)->empty()) lower.push_back(address);
  }
  for (const optics::PageId& id : image.UpperPages()) {
    if (!image.Upper(id)->empty()) upper.push_back(id);
  }
  if (lower.empty() && upper.empty()) return;
  auto again = optics::EepromImage::FromHexDump(optics::ToPagedHexDump(image));
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->LowerAddresses() == lower);
  FUZZ_CHECK(again->UpperPages() == upper);
  for (std::uint8_t address : lower) {
    auto a = image.Lower(address);
    auto b = again->Lower(address);
    FUZZ_CHECK(a && b && std::equal(a->begin(), a->end(), b->begin(), b->end()));
  }
  for (const optics::PageId& id : upper) {
    auto a = image.Upper(id);
    auto b = again->Upper(id);
    FUZZ_CHECK(a && b && std::equal(a->begin(), a->end(), b->begin(), b->end()));
  }
}

}  // namespace rocewatch::fuzz
