#pragma once

// Optics (optics.*): a module in the cage, every reading inside the module's own alarm and
// warning thresholds (or flags), and inside any tighter profile limits. One file per check;
// each is registered in lint/checks/specs.h. An empty cage or an unreadable EEPROM is reported
// by its own check and leaves nothing for the others to compare.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::optics {

void ModuleMissing(const NicContext& c, FindingSink& sink);
void ReadFailed(const NicContext& c, FindingSink& sink);
void Alarm(const NicContext& c, FindingSink& sink);
void Warning(const NicContext& c, FindingSink& sink);
void ProfileLimit(const NicContext& c, FindingSink& sink);

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

// What the exporter read of the NIC's module.
struct Module {
  std::vector<Reading> readings;
  std::vector<Threshold> thresholds;
  std::vector<RaisedFlag> flags;  // normally none
};

// roce_module_present is 0.
bool CageEmpty(const NicContext& c);
// roce_module_read_success is 0.
bool ReadFails(const NicContext& c);
// The module's readings, thresholds and raised flags; nullopt for an empty cage or a failed read.
std::optional<Module> ReadModule(const NicContext& c);

// A reading beyond the module's own thresholds (or with a flag raised): `spec` is
// kOpticsAlarm or kOpticsWarning, nullptr when the reading is within them.
struct Beyond {
  const CheckSpec* spec = nullptr;
  i18n::Phrase bound = "";  // "≤ 3.00 dBm", "no high_alarm flag"
};
Beyond BeyondModule(const Module& m, const Reading& r);
// The finding of optics.alarm or optics.warning for `r`.
void AddBeyond(const NicContext& c, FindingSink& sink, const Reading& r, const Beyond& b);

// "-2.31 dBm", "7.50 mA", "45.0 °C", "3.300 V".
std::string Show(std::string_view sensor, double v);
// "lane 1 rx power", "temperature", in every language.
i18n::Phrase What(const Reading& r);
// "eth2 (switch port leaf-0:Ethernet8)", in every language.
i18n::Phrase Where(const NicContext& c);
// What to do about a reading beyond a threshold or limit that is not the temperature.
i18n::Phrase CleanFix(const NicContext& c);
// The arguments of a reading's sentences: netdev, what (What), found, bound.
i18n::StoredArgs ReadingArgs(const NicContext& c, const Reading& r, const i18n::Phrase& bound);

}  // namespace rocewatch::lint::checks::optics
