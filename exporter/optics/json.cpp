#include "exporter/optics/json.h"

#include <cmath>
#include <cstdio>

namespace rocewatch::optics {
namespace {

using nlohmann::json;

json Optional(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json ThresholdsJson(const Thresholds& t, double (*map)(double)) {
  auto value = [map](double v) -> json {
    if (!map) return v;
    double mapped = map(v);
    return std::isfinite(mapped) ? json(mapped) : json(nullptr);
  };
  return json{{"high_alarm", value(t.high_alarm)},
              {"low_alarm", value(t.low_alarm)},
              {"high_warning", value(t.high_warning)},
              {"low_warning", value(t.low_warning)}};
}

json FlagsJson(const Flags& f) {
  json out = json::object();
  if (f.high_alarm) out["high_alarm"] = *f.high_alarm;
  if (f.low_alarm) out["low_alarm"] = *f.low_alarm;
  if (f.high_warning) out["high_warning"] = *f.high_warning;
  if (f.low_warning) out["low_warning"] = *f.low_warning;
  return out;
}

json SensorJson(const Sensor& s) {
  json out{{"value", Optional(s.value)}};
  if (s.thresholds) out["thresholds"] = ThresholdsJson(*s.thresholds, nullptr);
  json flags = FlagsJson(s.flags);
  if (!flags.empty()) out["flags"] = std::move(flags);
  return out;
}

double DbmOrNan(double watts) { return WattsToDbm(watts).value_or(NAN); }

json DbmJson(const Sensor& s) {
  json out{{"value", s.value ? Optional(WattsToDbm(*s.value)) : json(nullptr)}};
  if (s.thresholds) out["thresholds"] = ThresholdsJson(*s.thresholds, DbmOrNan);
  return out;
}

void AddOptionalBool(json& out, const char* key, const std::optional<bool>& v) {
  if (v) out[key] = *v;
}

const char* StandardName(Standard s) {
  switch (s) {
    case Standard::kSff8472:
      return "SFF-8472";
    case Standard::kSff8636:
      return "SFF-8636";
    case Standard::kCmis:
      return "CMIS";
  }
  return "unknown";
}

}  // namespace

std::optional<double> WattsToDbm(double watts) {
  if (!(watts > 0) || !std::isfinite(watts)) return std::nullopt;
  return 10.0 * std::log10(watts / 1e-3);
}

json ToJson(const ModuleInfo& info) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", unsigned{info.identifier});
  json out{
      {"identifier", info.identifier},
      {"identifier_hex", hex},
      {"identifier_name", info.identifier_name},
      {"standard", StandardName(info.standard)},
      {"spec", info.spec},
      {"spec_revision", info.spec_revision},
      {"vendor_name", info.vendor_name},
      {"vendor_oui", info.vendor_oui},
      {"part_number", info.part_number},
      {"revision", info.revision},
      {"serial_number", info.serial_number},
      {"date_code", info.date_code},
      {"manufacture_date", info.manufacture_date},
      {"connector", info.connector},
      {"connector_name", info.connector_name},
      {"compliance", info.compliance},
      {"flat_memory", info.flat_memory},
      {"diagnostics", info.diagnostics},
      {"tx_power_advertised", info.tx_power_advertised ? nlohmann::json(*info.tx_power_advertised)
                                                       : nlohmann::json(nullptr)},
      {"rx_power_measurement",
       info.rx_power_measurement == RxPowerMeasurement::kOma ? "oma" : "average"},
  };
  if (info.wavelength_meters) {
    out["wavelength_meters"] = *info.wavelength_meters;
    out["wavelength_nanometers"] = *info.wavelength_meters * 1e9;
  }
  if (!info.module_state.empty()) out["module_state"] = info.module_state;
  if (info.calibration) {
    out["calibration"] = *info.calibration == Calibration::kExternal ? "external" : "internal";
  }
  out["temperature_celsius"] = SensorJson(info.temperature_celsius);
  out["supply_voltage_volts"] = SensorJson(info.supply_voltage_volts);
  json lanes = json::array();
  for (const Lane& lane : info.lanes) {
    json l{{"lane", lane.number},
           {"tx_bias_amperes", SensorJson(lane.tx_bias_amperes)},
           {"tx_power_watts", SensorJson(lane.tx_power_watts)},
           {"tx_power_dbm", DbmJson(lane.tx_power_watts)},
           {"rx_power_watts", SensorJson(lane.rx_power_watts)},
           {"rx_power_dbm", DbmJson(lane.rx_power_watts)}};
    AddOptionalBool(l, "rx_loss_of_signal", lane.rx_loss_of_signal);
    AddOptionalBool(l, "tx_loss_of_signal", lane.tx_loss_of_signal);
    AddOptionalBool(l, "tx_fault", lane.tx_fault);
    lanes.push_back(std::move(l));
  }
  out["lanes"] = std::move(lanes);
  out["warnings"] = info.warnings;
  return out;
}

}  // namespace rocewatch::optics
