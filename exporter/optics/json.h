#pragma once

// ToJson: a decoded module as JSON, for `roce_exporter decode-eeprom FILE` and for captures.
// Keys carry their unit (temperature_celsius, rx_power_watts); optical powers are also given in
// dBm (rx_power_dbm, tx_power_dbm). Absent values are null; absent thresholds and flags are
// left out.

#include <nlohmann/json.hpp>
#include <optional>

#include "exporter/optics/module.h"

namespace rocewatch::optics {

nlohmann::json ToJson(const ModuleInfo& info);

// 10 * log10(watts / 1 mW); nullopt for zero or negative power (no light: -inf dBm).
std::optional<double> WattsToDbm(double watts);

}  // namespace rocewatch::optics
