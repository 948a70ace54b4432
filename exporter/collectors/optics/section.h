#pragma once

// The optics source's section of the NodeSnapshot: each netdev's transceiver module EEPROM,
// decoded by the optics library (exporter/optics/). Values in base units.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

// A transceiver module's EEPROM, decoded, as the optics source last read it (modules are
// re-read every --collector.optics.interval; between reads the same values are served).
struct OpticsSnapshot {
  std::string netdev;
  // What the last read found.
  enum class State {
    kModule,       // a module answered and decoded: identity and monitors below
    kEmptyCage,    // the cage is empty (the driver answered as for a missing module)
    kNoInterface,  // the netdev has no module interface at all (veth, virtio): EOPNOTSUPP
    kUnavailable,  // not allowed to read it (EPERM/EACCES: CAP_NET_ADMIN missing)
    kFailed,       // the read failed or its bytes did not decode; `error` says why
  };
  State state = State::kFailed;
  std::optional<bool> present;  // absent when the read could not tell
  bool read_ok = false;         // the last read and decode succeeded
  double last_read_timestamp_seconds = 0;  // Unix time of that read
  std::string error;                       // why it failed, naming the netdev
  std::string transport;                   // "netlink" or "ioctl": how the bytes were read

  // Identity (kModule only): short names as the decoders give them.
  std::string identifier, spec, vendor, part_number, serial, revision, connector, media;
  // SFF-8636 modules: whether the module advertises its TX power monitor (upper page 00h byte
  // 220 bit 2). TX power is served either way, as `ethtool -m` shows it.
  std::optional<bool> tx_power_advertised;

  struct Thresholds {
    double high_alarm = 0, low_alarm = 0, high_warning = 0, low_warning = 0;
    bool operator==(const Thresholds&) const = default;
  };
  struct Flags {
    std::optional<bool> high_alarm, low_alarm, high_warning, low_warning;
    bool operator==(const Flags&) const = default;
  };
  // One monitor: temperature_celsius and voltage_volts (lane 0, module-wide), or
  // tx_bias_amperes, tx_power_watts, rx_power_watts of lane 1.. . Values in base units.
  struct Reading {
    std::string sensor;
    std::uint32_t lane = 0;
    std::optional<double> value;
    Flags flags;  // the alarm/warning flags the module raises now; absent where not implemented
    bool operator==(const Reading&) const = default;
  };
  std::vector<Reading> readings;
  // The module's own thresholds, one set per sensor kind (the same for every lane).
  struct SensorThresholds {
    std::string sensor;
    Thresholds thresholds;
    bool operator==(const SensorThresholds&) const = default;
  };
  std::vector<SensorThresholds> thresholds;
  // --collector.optics.all-flags: every flag the module implements as a series (0 or 1);
  // by default only the raised ones are, beside a count of raised flags.
  bool all_flags = false;
  // --collector.optics.all-thresholds: every threshold as a series; by default only those
  // rules and panels read (metrics.cpp, ServedThreshold).
  bool all_thresholds = false;
  bool operator==(const OpticsSnapshot&) const = default;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct OpticsSection {
  std::vector<OpticsSnapshot> optics;
  bool operator==(const OpticsSection&) const = default;  // the render cache's key (exporter/collectors/render_input.h)
  void Append(OpticsSection&& part) { AppendSection(optics, part.optics); }
};

}  // namespace rocewatch
