#pragma once

// ModuleInfo: what the optics decoders (SFF-8472, SFF-8636, CMIS) read from a transceiver's
// EEPROM, in base units. Field comments give the raw encoding on the wire. Every value a module
// may leave out is optional: absent means "not implemented, not advertised or not read", never 0.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocewatch::optics {

// Which management specification the module's memory map follows.
enum class Standard {
  kSff8472,  // SFP/SFP+/SFP28 (A0h/A2h)
  kSff8636,  // QSFP/QSFP+/QSFP28 (lower page, pages 00h-03h)
  kCmis,     // QSFP-DD, OSFP, QSFP+/SFP+ with CMIS (banked pages, page 11h lane monitors)
};

// How the module measures received optical power.
enum class RxPowerMeasurement { kOma, kAverage };

// SFF-8472 only: where the A/D values are turned into physical units.
enum class Calibration { kInternal, kExternal };

// Alarm and warning thresholds of one sensor, in the sensor's unit. Modules store them in the
// same raw encoding as the monitor they guard.
struct Thresholds {
  double high_alarm = 0;
  double low_alarm = 0;
  double high_warning = 0;
  double low_warning = 0;
};

// Latched alarm/warning flags of one sensor; absent when the module does not implement them.
struct Flags {
  std::optional<bool> high_alarm;
  std::optional<bool> low_alarm;
  std::optional<bool> high_warning;
  std::optional<bool> low_warning;
};

// One monitor: its value, the module's thresholds for it and its flags.
struct Sensor {
  std::optional<double> value;
  std::optional<Thresholds> thresholds;
  Flags flags;
};

// One optical lane (SFF-8472 has one, SFF-8636 four, CMIS up to 32 in banks of 8).
struct Lane {
  int number = 0;  // from 1
  // Laser bias current. Raw: u16 in 2 uA units (CMIS: times the page 01h bias multiplier).
  Sensor tx_bias_amperes;
  // Transmitted optical power. Raw: u16 in 0.1 uW units.
  Sensor tx_power_watts;
  // Received optical power. Raw: u16 in 0.1 uW units; OMA or average, see ModuleInfo.
  Sensor rx_power_watts;
  // Lane status where the module reports it (SFF-8472 A2h 110, SFF-8636 bytes 3-4,
  // CMIS page 11h bytes 135-147).
  std::optional<bool> rx_loss_of_signal;
  std::optional<bool> tx_loss_of_signal;
  std::optional<bool> tx_fault;
};

struct ModuleInfo {
  // SFF-8024 identifier, byte 0 of the lower page, and its short name ("SFP", "QSFP28",
  // "QSFP-DD", "OSFP", "QSFP+ CMIS" ...).
  std::uint8_t identifier = 0;
  std::string identifier_name;

  Standard standard = Standard::kSff8472;
  // The specification with its revision where the module declares one: "SFF-8472 rev 12.3",
  // "SFF-8636 rev 2.8-2.10", "SFF-8436 rev 4.8 or earlier" (read by the SFF-8636 decoder),
  // "CMIS 5.2".
  std::string spec;
  // The revision alone ("12.3", "2.8-2.10", "5.2"), empty when the module declares none.
  std::string spec_revision;
  // The raw revision byte: SFF-8472 A0h 94, SFF-8636 lower byte 1, CMIS lower byte 1.
  std::uint8_t spec_revision_code = 0;

  // Vendor data, ASCII with the trailing padding removed.
  std::string vendor_name;
  std::string vendor_oui;  // "00:02:c9"
  std::string part_number;
  std::string revision;
  std::string serial_number;
  std::string date_code;         // as stored: YYMMDD plus an optional 2-character lot code
  std::string manufacture_date;  // ISO 8601 "2023-04-17", empty when the date code is not one

  std::uint8_t connector = 0;  // SFF-8024 connector code
  std::string connector_name;
  // Media and compliance codes in words ("10GBASE-SR", "100GBASE-SR4 or 25GBASE-SR",
  // "Media: multimode fiber (MMF)", "Transmitter: 850 nm VCSEL" ...).
  std::vector<std::string> compliance;
  // Nominal laser wavelength, where the module gives one (optical modules only).
  // Raw: SFF-8472 u16 nm; SFF-8636 and CMIS u16 in 0.05 nm units.
  std::optional<double> wavelength_meters;

  // The module has no pages beyond the first upper page (SFF-8636 byte 2 bit 2, CMIS byte 2
  // bit 7); always false for SFF-8472.
  bool flat_memory = false;
  // CMIS module state (lower byte 3): "ModuleLowPwr", "ModulePwrUp", "ModuleReady",
  // "ModulePwrDn", "ModuleFault"; empty for other standards.
  std::string module_state;
  // Whether the module implements digital diagnostics (the monitors below).
  bool diagnostics = false;
  // SFF-8636 only: what upper page 00h byte 220 bit 2 says of the TX power monitor. TX power is
  // decoded whenever the monitors are (as `ethtool -m` and fboss show it), so a module that
  // clears the bit still has tx_power_watts values; this says whether it vouches for them.
  // Absent for other standards and for modules without monitors.
  std::optional<bool> tx_power_advertised;
  std::optional<Calibration> calibration;  // SFF-8472 only
  RxPowerMeasurement rx_power_measurement = RxPowerMeasurement::kAverage;

  // Module temperature. Raw: s16 in 1/256 degC units.
  Sensor temperature_celsius;
  // Supply voltage. Raw: u16 in 100 uV units.
  Sensor supply_voltage_volts;
  // Lanes in order, numbered from 1; empty when the module has no lane monitors.
  std::vector<Lane> lanes;

  // What could not be decoded and why ("page 03h is truncated: 40 of 128 bytes"), for an
  // operator; a module with warnings is still decoded as far as its bytes go.
  std::vector<std::string> warnings;
};

}  // namespace rocewatch::optics
