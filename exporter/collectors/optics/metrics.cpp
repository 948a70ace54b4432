#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "exporter/collectors/optics/collector.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;
using S = Served;
using State = OpticsSnapshot::State;

const MetricSpec kPresent{"roce_module_present", T::kGauge,
    "1 when a transceiver module is plugged into the netdev's cage, 0 when the cage is empty.",
    {"netdev"}};
const MetricSpec kInfo{"roce_module_info", T::kGauge,
    "Identity of the transceiver module from its EEPROM; always 1.",
    {"netdev", "identifier", "spec", "vendor", "part_number", "serial", "revision", "connector",
     "media"}};
const MetricSpec kTemperature{"roce_module_temperature_celsius", T::kGauge,
    "Module temperature as the module measures it, in degrees Celsius.", {"netdev"}};
const MetricSpec kVoltage{"roce_module_voltage_volts", T::kGauge,
    "Module supply voltage as the module measures it, in volts.", {"netdev"}};
const MetricSpec kTxBias{"roce_module_lane_tx_bias_amperes", T::kGauge,
    "Laser bias current of one lane, in amperes.", {"netdev", "lane"}};
const MetricSpec kTxPower{"roce_module_lane_tx_power_watts", T::kGauge,
    "Optical power one lane transmits, in watts, served as ethtool -m shows it (SFF-8636: see "
    "roce_module_tx_power_advertised).",
    {"netdev", "lane"}};
const MetricSpec kTxPowerAdvertised{"roce_module_tx_power_advertised", T::kGauge,
    "SFF-8636 modules: 1 when the module advertises its TX power monitor (upper page 00h byte "
    "220 bit 2), 0 when it does not (its TX power values are then served as read, unvouched).",
    {"netdev"}};
const MetricSpec kRxPower{"roce_module_lane_rx_power_watts", T::kGauge,
    "Optical power one lane receives, in watts.", {"netdev", "lane"}};
const MetricSpec kThreshold{"roce_module_threshold", T::kGauge,
    "The module's own alarm or warning threshold for a sensor, in the sensor's base unit; by "
    "default only those rules and panels read (not temperature low, voltage and bias alarm, "
    "TX power high alarm: their crossings are the module's flags), all with "
    "--collector.optics.all-thresholds.",
    {"netdev", "sensor", "level"},
    S::kTrimmed, "--collector.optics.all-thresholds (temperature lows, voltage and bias alarms, TX "
    "power high alarm)"};
const MetricSpec kFlag{"roce_module_flag", T::kGauge,
    "1 when the module raises this alarm or warning flag now (lane 0: module-wide); by default "
    "only raised flags are series, with --collector.optics.all-flags also the clear ones (0).",
    {"netdev", "sensor", "lane", "level"},
    S::kTrimmed, "--collector.optics.all-flags"};
const MetricSpec kFlagsRaised{"roce_module_flags_raised", T::kGauge,
    "How many flags the module raises now (0 when none), kind alarm or warning; present while "
    "the module implements flags.",
    {"netdev", "kind"}};
const MetricSpec kLastRead{"roce_module_last_read_timestamp_seconds", T::kGauge,
    "Unix time of the last read of the netdev's module EEPROM (the values above come from it).",
    {"netdev"}};
const MetricSpec kReadSuccess{"roce_module_read_success", T::kGauge,
    "1 when the last module EEPROM read and decode of the netdev succeeded, else 0.", {"netdev"}};

// Adds the flags of one reading (raised ones only unless `all`) and counts the raised ones
// into `raised`: [0] alarms, [1] warnings.
void AddFlags(MetricSink& out, const std::string& netdev, const OpticsSnapshot::Reading& r,
              bool all, std::array<double, 2>& raised) {
  const std::string lane = std::to_string(r.lane);
  auto add = [&](const std::optional<bool>& flag, std::string_view level) {
    if (!flag) return;
    if (*flag) raised[level.find("alarm") != std::string_view::npos ? 0 : 1] += 1;
    if (*flag || all) out.Add(kFlag, {netdev, r.sensor, lane, level}, *flag ? 1 : 0);
  };
  add(r.flags.high_alarm, "high_alarm");
  add(r.flags.low_alarm, "low_alarm");
  add(r.flags.high_warning, "high_warning");
  add(r.flags.low_warning, "low_warning");
}

// The thresholds served by default: those the alert rules and dashboards read
// (dashboards/prometheus/rocewatch-rules.yml, dashboards/grafana/generate.py). The others
// (temperature low alarm/warning, voltage and TX bias alarms, TX power high alarm) are
// constants of the module's part number that only roce-lint's optics check compared; it
// reads the module's own raised flags for those crossings (lint/checks/optics/).
bool ServedThreshold(std::string_view sensor, std::string_view level) {
  if (sensor == "temperature_celsius") return level.starts_with("high_");
  if (sensor == "voltage_volts" || sensor == "tx_bias_amperes") return level.ends_with("_warning");
  if (sensor == "tx_power_watts") return level != "high_alarm";
  return true;
}

}  // namespace

const SpecList& OpticsSpecs() {
  static const SpecList kSpecs = {&kPresent,  &kInfo,     &kTemperature, &kVoltage,
                                  &kTxBias,   &kTxPower,  &kTxPowerAdvertised,
                                  &kRxPower,  &kThreshold, &kFlag,       &kFlagsRaised,
                                  &kLastRead, &kReadSuccess};
  return kSpecs;
}

void RenderOptics(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& m : snap.optics) {
    const std::string& n = m.netdev;
    if (m.present) out.Add(kPresent, {n}, *m.present ? 1 : 0);
    if (m.state == State::kModule) {
      out.Add(kInfo, {n, m.identifier, m.spec, m.vendor, m.part_number, m.serial, m.revision,
                      m.connector, m.media},
              1);
      if (m.tx_power_advertised) out.Add(kTxPowerAdvertised, {n}, *m.tx_power_advertised ? 1 : 0);
      for (const auto& r : m.readings) {
        if (!r.value) continue;
        const std::string lane = std::to_string(r.lane);
        if (r.sensor == "temperature_celsius") {
          out.Add(kTemperature, {n}, *r.value);
        } else if (r.sensor == "voltage_volts") {
          out.Add(kVoltage, {n}, *r.value);
        } else if (r.sensor == "tx_bias_amperes") {
          out.Add(kTxBias, {n, lane}, *r.value);
        } else if (r.sensor == "tx_power_watts") {
          out.Add(kTxPower, {n, lane}, *r.value);
        } else if (r.sensor == "rx_power_watts") {
          out.Add(kRxPower, {n, lane}, *r.value);
        }
      }
      for (const auto& t : m.thresholds) {
        for (auto [level, value] : {std::pair{"high_alarm", t.thresholds.high_alarm},
                                    std::pair{"low_alarm", t.thresholds.low_alarm},
                                    std::pair{"high_warning", t.thresholds.high_warning},
                                    std::pair{"low_warning", t.thresholds.low_warning}}) {
          if (m.all_thresholds || ServedThreshold(t.sensor, level))
            out.Add(kThreshold, {n, t.sensor, level}, value);
        }
      }
      std::array<double, 2> raised{};
      bool any_flag = false;
      for (const auto& r : m.readings) {
        AddFlags(out, n, r, m.all_flags, raised);
        any_flag = any_flag || r.flags.high_alarm || r.flags.low_alarm || r.flags.high_warning ||
                   r.flags.low_warning;
      }
      if (any_flag) {
        out.Add(kFlagsRaised, {n, "alarm"}, raised[0]);
        out.Add(kFlagsRaised, {n, "warning"}, raised[1]);
      }
    }
    out.Add(kLastRead, {n}, m.last_read_timestamp_seconds);
    out.Add(kReadSuccess, {n}, m.read_ok ? 1 : 0);
  }
}

}  // namespace rocewatch::collectors
