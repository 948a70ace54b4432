// optics.profile-limit: a module reading within the module's own thresholds but beyond the
// profile's optics limits.

#include <cmath>

#include "lint/checks/observed.h"
#include "lint/checks/optics/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::optics {

void ProfileLimit(const NicContext& c, FindingSink& sink) {
  if (!c.profile || !c.profile->optics) return;
  auto module = ReadModule(c);
  if (!module) return;
  const auto& lim = *c.profile->optics;
  for (const auto& r : module->readings) {
    if (BeyondModule(*module, r).spec != nullptr) continue;  // optics.alarm / optics.warning
    std::optional<double> min, max;
    double scaled = r.value;
    std::string unit;
    if (r.sensor == "rx_power_watts" || r.sensor == "tx_power_watts") {
      scaled = r.value > 0 ? 10 * std::log10(r.value * 1e3) : -1e9;
      unit = " dBm";
      if (r.sensor == "rx_power_watts") min = lim.rx_power_dbm_min, max = lim.rx_power_dbm_max;
      else min = lim.tx_power_dbm_min, max = lim.tx_power_dbm_max;
    } else if (r.sensor == "temperature_celsius") {
      min = lim.temperature_celsius_min, max = lim.temperature_celsius_max, unit = " °C";
    } else if (r.sensor == "voltage_volts") {
      min = lim.voltage_volts_min, max = lim.voltage_volts_max, unit = " V";
    } else {
      scaled = r.value * 1e3, min = lim.tx_bias_milliamperes_min, max = lim.tx_bias_milliamperes_max, unit = " mA";
    }
    std::string limit;
    if (max && scaled > *max) limit = "≤ " + FormatNumber(*max) + unit;
    if (min && scaled < *min) limit = "≥ " + FormatNumber(*min) + unit;
    if (limit.empty()) continue;
    const i18n::StoredArgs args = ReadingArgs(c, r, limit);
    sink.Nic(kOpticsProfileLimit, c, i18n::Phrase::Of("check.optics.reading_bound", args), Show(r.sensor, r.value),
             i18n::Phrase::Of("check.optics.profile_limit.message", args), CleanFix(c));
  }
}

}  // namespace rocewatch::lint::checks::optics
