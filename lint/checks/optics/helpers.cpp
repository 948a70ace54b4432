// What the optics.* checks share (group.h).

#include <cmath>
#include <cstdio>

#include "lint/checks/observed.h"
#include "lint/checks/optics/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::optics {

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

i18n::Phrase What(const Reading& r) {
  i18n::Phrase name = r.sensor == "temperature_celsius" ? i18n::Phrase::Of("check.optics.sensor.temperature", {})
                      : r.sensor == "voltage_volts"     ? i18n::Phrase::Of("check.optics.sensor.voltage", {})
                      : r.sensor == "tx_bias_amperes"   ? i18n::Phrase::Of("check.optics.sensor.tx_bias", {})
                      : r.sensor == "tx_power_watts"    ? i18n::Phrase::Of("check.optics.sensor.tx_power", {})
                      : r.sensor == "rx_power_watts"    ? i18n::Phrase::Of("check.optics.sensor.rx_power", {})
                                                        : i18n::Phrase(std::string(r.sensor));
  if (r.lane == "0") return name;
  i18n::StoredArgs args = {{"lane", std::string(r.lane)}};
  i18n::AddPhraseArg(args, "sensor", name);
  return i18n::Phrase::Of("check.optics.lane", args);
}

i18n::StoredArgs ReadingArgs(const NicContext& c, const Reading& r, const i18n::Phrase& bound) {
  i18n::StoredArgs args = {{"netdev", c.nic.netdev}, {"found", Show(r.sensor, r.value)}};
  i18n::AddPhraseArg(args, "what", What(r));
  i18n::AddPhraseArg(args, "bound", bound);
  return args;
}

i18n::Phrase Where(const NicContext& c) {
  if (!c.nic.switch_port) return c.nic.netdev;
  return i18n::Phrase::Of("check.optics.where_switch_port",
                          {{"netdev", c.nic.netdev}, {"switch_port", *c.nic.switch_port}});
}

i18n::Phrase CleanFix(const NicContext& c) {
  i18n::StoredArgs args;
  i18n::AddPhraseArg(args, "where", Where(c));
  return i18n::Phrase::Of("check.optics.clean.fix", args);
}

bool CageEmpty(const NicContext& c) {
  auto present = c.view.Value(metric::roce_module_present, {{label::netdev, c.nic.netdev}});
  return present && *present == 0;
}

bool ReadFails(const NicContext& c) {
  auto read_ok = c.view.Value(metric::roce_module_read_success, {{label::netdev, c.nic.netdev}});
  return read_ok && *read_ok == 0;
}

std::optional<Module> ReadModule(const NicContext& c) {
  if (CageEmpty(c) || ReadFails(c)) return std::nullopt;
  const auto& v = c.view;
  const std::string& nd = c.nic.netdev;
  Module m;
  if (auto t = v.Value(metric::roce_module_temperature_celsius, {{label::netdev, nd}})) m.readings.push_back({"temperature_celsius", "0", *t});
  if (auto u = v.Value(metric::roce_module_voltage_volts, {{label::netdev, nd}})) m.readings.push_back({"voltage_volts", "0", *u});
  for (auto [metric, sensor] : {std::pair{metric::roce_module_lane_tx_bias_amperes, "tx_bias_amperes"},
                                std::pair{metric::roce_module_lane_tx_power_watts, "tx_power_watts"},
                                std::pair{metric::roce_module_lane_rx_power_watts, "rx_power_watts"}}) {
    for (const auto& s : v.Select(metric, {{label::netdev, nd}})) m.readings.push_back({sensor, s.Label(label::lane), s.value()});
  }
  for (const auto& s : v.Select(metric::roce_module_threshold, {{label::netdev, nd}}))
    m.thresholds.push_back({s.Label(label::sensor), s.Label(label::level), s.value()});
  for (const auto& s : v.Select(metric::roce_module_flag, {{label::netdev, nd}}))
    if (s.value() == 1) m.flags.push_back({s.Label(label::sensor), s.Label(label::lane), s.Label(label::level)});
  return m;
}

Beyond BeyondModule(const Module& m, const Reading& r) {
  auto level = [&](std::string_view name) -> std::optional<double> {
    for (const auto& t : m.thresholds)
      if (t.sensor == r.sensor && t.level == name) return t.value;
    return std::nullopt;
  };
  Beyond b;
  if (auto hi = level("high_alarm"); hi && r.value > *hi) b.spec = &kOpticsAlarm, b.bound = "≤ " + Show(r.sensor, *hi);
  else if (auto lo = level("low_alarm"); lo && r.value < *lo) b.spec = &kOpticsAlarm, b.bound = "≥ " + Show(r.sensor, *lo);
  else if (auto hw = level("high_warning"); hw && r.value > *hw) b.spec = &kOpticsWarning, b.bound = "≤ " + Show(r.sensor, *hw);
  else if (auto lw = level("low_warning"); lw && r.value < *lw) b.spec = &kOpticsWarning, b.bound = "≥ " + Show(r.sensor, *lw);
  // The exporter serves by default only the thresholds rules and panels read (not the
  // voltage and bias alarms, temperature lows, TX power high alarm): the module's own
  // raised flags stand for those crossings, so a raised alarm flag makes a warning an alarm.
  if (b.spec == nullptr || b.spec == &kOpticsWarning) {
    // The worst flag raised for this reading: an alarm over a warning.
    const RaisedFlag* worst = nullptr;
    for (const auto& f : m.flags) {
      if (f.sensor != r.sensor || f.lane != r.lane) continue;
      if (worst == nullptr || (f.level.find("alarm") != std::string_view::npos &&
                               worst->level.find("alarm") == std::string_view::npos))
        worst = &f;
    }
    const bool alarm = worst != nullptr && worst->level.find("alarm") != std::string_view::npos;
    if (worst != nullptr && (b.spec == nullptr || alarm)) {
      b.spec = alarm ? &kOpticsAlarm : &kOpticsWarning;
      b.bound = i18n::Phrase::Of("check.optics.no_flag", {{"level", std::string(worst->level)}});
    }
  }
  return b;
}

void AddBeyond(const NicContext& c, FindingSink& sink, const Reading& r, const Beyond& b) {
  const i18n::StoredArgs args = ReadingArgs(c, r, b.bound);
  i18n::StoredArgs where;
  i18n::AddPhraseArg(where, "where", Where(c));
  sink.Nic(*b.spec, c, i18n::Phrase::Of("check.optics.reading_bound", args), Show(r.sensor, r.value),
           b.spec == &kOpticsAlarm ? i18n::Phrase::Of("check.optics.alarm.message", args)
                                   : i18n::Phrase::Of("check.optics.warning.message", args),
           r.sensor == "temperature_celsius" ? i18n::Phrase::Of("check.optics.temperature.fix", where) : CleanFix(c));
}

}  // namespace rocewatch::lint::checks::optics
