// Optics: a module in the cage, every reading inside the module's own alarm
// and warning thresholds (or flags), and inside any tighter profile limits.

#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>
#include <optional>

#include "lint/checks/check.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks {
namespace {

// Views into the node's exposition (alive for the whole check): no string copies per lane.
struct Reading {
  std::string_view sensor;  // temperature_celsius, voltage_volts, tx_bias_amperes, tx_power_watts, rx_power_watts
  std::string_view lane;    // "0" for module-wide sensors
  double value;
};

// The module's own threshold for a sensor at one level (high_alarm, low_warning, ...).
struct Threshold {
  std::string_view sensor, level;
  double value;
};

// A warning or alarm flag the module raised for a sensor on a lane.
struct RaisedFlag {
  std::string_view sensor, lane, level;
};

std::string Show(std::string_view sensor, double v) {
  if (sensor == "rx_power_watts" || sensor == "tx_power_watts") {
    if (v <= 0) return "-inf dBm (" + FormatNumber(v * 1e3) + " mW)";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f dBm", 10 * std::log10(v * 1e3));
    return buf;
  }
  char buf[64];
  if (sensor == "tx_bias_amperes") std::snprintf(buf, sizeof buf, "%.2f mA", v * 1e3);
  else if (sensor == "temperature_celsius") std::snprintf(buf, sizeof buf, "%.1f °C", v);
  else std::snprintf(buf, sizeof buf, "%.3f V", v);
  return buf;
}

std::string What(const Reading& r) {
  std::string name(r.sensor.substr(0, r.sensor.rfind('_')));  // drop the unit
  for (auto& ch : name) if (ch == '_') ch = ' ';
  return r.lane == "0" ? name : "lane " + std::string(r.lane) + " " + name;
}

}  // namespace

void CheckOptics(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  const std::string& nd = c.nic.netdev;
  std::string where = nd + (c.nic.switch_port ? " (switch port " + *c.nic.switch_port + ")" : "");
  auto present = v.Value("roce_module_present", {{"netdev", nd}});
  if (present && *present == 0) {
    sink.Nic(kModuleMissing, c, "module present", "empty cage",
             nd + " has no transceiver module or cable in its cage.",
             "insert the planned module/cable in " + where);
    return;
  }
  auto read_ok = v.Value("roce_module_read_success", {{"netdev", nd}});
  if (read_ok && *read_ok == 0) {
    sink.Nic(kOpticsReadFailed, c, "module EEPROM read", "read failed",
             nd + ": the exporter could not read or decode the module's EEPROM, so its optics "
                  "are not monitored.",
             "ethtool -m " + nd + " (as root); give roce_exporter CAP_NET_ADMIN; see the exporter's log");
    return;
  }
  std::vector<Reading> readings;
  if (auto t = v.Value("roce_module_temperature_celsius", {{"netdev", nd}})) readings.push_back({"temperature_celsius", "0", *t});
  if (auto u = v.Value("roce_module_voltage_volts", {{"netdev", nd}})) readings.push_back({"voltage_volts", "0", *u});
  for (auto [metric, sensor] : {std::pair{"roce_module_lane_tx_bias_amperes", "tx_bias_amperes"},
                                std::pair{"roce_module_lane_tx_power_watts", "tx_power_watts"},
                                std::pair{"roce_module_lane_rx_power_watts", "rx_power_watts"}}) {
    for (const auto& s : v.Select(metric, {{"netdev", nd}})) readings.push_back({sensor, s.Label("lane"), s.value()});
  }
  std::vector<Threshold> thresholds;
  for (const auto& s : v.Select("roce_module_threshold", {{"netdev", nd}}))
    thresholds.push_back({s.Label("sensor"), s.Label("level"), s.value()});
  std::vector<RaisedFlag> flags;  // normally none
  for (const auto& s : v.Select("roce_module_flag", {{"netdev", nd}}))
    if (s.value() == 1) flags.push_back({s.Label("sensor"), s.Label("lane"), s.Label("level")});

  const std::string clean = "clean the fiber ends and the module's optics on " + where +
                            ", reseat, then swap the module or cable";
  for (const auto& r : readings) {
    auto level = [&](std::string_view name) -> std::optional<double> {
      for (const auto& t : thresholds)
        if (t.sensor == r.sensor && t.level == name) return t.value;
      return std::nullopt;
    };
    const CheckSpec* spec = nullptr;
    std::string bound;
    if (auto hi = level("high_alarm"); hi && r.value > *hi) spec = &kOpticsAlarm, bound = "≤ " + Show(r.sensor, *hi);
    else if (auto lo = level("low_alarm"); lo && r.value < *lo) spec = &kOpticsAlarm, bound = "≥ " + Show(r.sensor, *lo);
    else if (auto hw = level("high_warning"); hw && r.value > *hw) spec = &kOpticsWarning, bound = "≤ " + Show(r.sensor, *hw);
    else if (auto lw = level("low_warning"); lw && r.value < *lw) spec = &kOpticsWarning, bound = "≥ " + Show(r.sensor, *lw);
    if (spec == nullptr) {
      // The worst flag raised for this reading: an alarm over a warning.
      const RaisedFlag* worst = nullptr;
      for (const auto& f : flags) {
        if (f.sensor != r.sensor || f.lane != r.lane) continue;
        if (worst == nullptr || (f.level.find("alarm") != std::string_view::npos &&
                                 worst->level.find("alarm") == std::string_view::npos))
          worst = &f;
      }
      if (worst != nullptr) {
        spec = worst->level.find("alarm") != std::string_view::npos ? &kOpticsAlarm : &kOpticsWarning;
        bound = "no " + std::string(worst->level) + " flag";
      }
    }
    if (spec != nullptr) {
      std::string found = Show(r.sensor, r.value);
      sink.Nic(*spec, c, What(r) + " " + bound, found,
               nd + " module " + What(r) + " is " + found + ", beyond the module's " +
                   (spec == &kOpticsAlarm ? "alarm" : "warning") + " threshold (" + bound + ").",
               r.sensor == "temperature_celsius" ? "check airflow and fans around " + where + "; replace the module if it persists"
                                                 : clean);
      continue;
    }
    if (!c.profile || !c.profile->optics) continue;
    const auto& lim = *c.profile->optics;
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
    std::string found = Show(r.sensor, r.value);
    sink.Nic(kOpticsProfileLimit, c, What(r) + " " + limit, found,
             nd + " module " + What(r) + " is " + found + ", outside the profile's limit (" + limit + ").",
             clean);
  }
}

}  // namespace rocewatch::lint::checks
