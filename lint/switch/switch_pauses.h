#pragma once

// The switch ports' PFC pause counters over the counter window, as `roce-lint check
// --prometheus` read them through the counter profiles (counter_profiles.h), looked up by a
// NIC's LLDP neighbour (System Name, Port ID) for peer.switch-pause-non-pfc and
// peer.pause-mismatch.

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lint/switch/counter_profiles.h"

namespace rocewatch::lint::switch_config {

// What one switch port's pause counters grew by over the window, per priority; nullopt where
// no profile serves the priority (or the series was not there at both ends of the window).
struct PortPauses {
  std::array<std::optional<double>, 8> rx;  // pause frames the port received (from the NIC)
  std::array<std::optional<double>, 8> tx;  // pause frames the port sent (to the NIC)
  std::string profile;                      // the profile the series came from
  std::string switch_value, port_value;     // the labels' values, as the store has them
};

// The switch ports one run keeps pause counters of (every switch the store answers for, all
// profiles together): 512 switches of 128 ports. Each port costs ~300 bytes, so ~20 MB at most.
inline constexpr std::size_t kMaxSwitchPausePorts = 65536;

class SwitchPauses {
 public:
  // Adds one series' growth (summed with any other of the same port, priority and direction).
  // False, and nothing added, when the port is new and kMaxSwitchPausePorts are kept already.
  bool Add(std::string_view switch_value, std::string_view port, int priority, PauseDirection direction,
           double growth, const std::string& profile);
  // The port whose switch label is `system_name` and whose port label is `port_id`; nullptr
  // when none. Switch names compare as DNS names do (ASCII case-insensitive), a `:port` suffix
  // of the label (an `instance` of host:port) and a domain on either side ignored when the
  // other has none ("leaf1" is "leaf1.dc.example"); ports compare exactly.
  const PortPauses* Find(std::string_view system_name, std::string_view port_id) const;

  bool read() const { return read_; }  // the run read switch counters (--prometheus, a window)
  void set_read(double window_seconds, std::string source) {
    read_ = true;
    window_seconds_ = window_seconds;
    source_ = std::move(source);
  }
  double window_seconds() const { return window_seconds_; }
  const std::string& source() const { return source_; }  // "http://prometheus:9090"
  std::size_t size() const { return ports_.size(); }

 private:
  std::map<std::pair<std::string, std::string>, PortPauses> ports_;  // (normalised switch, port)
  bool read_ = false;
  double window_seconds_ = 0;
  std::string source_;
};

// "Leaf1.DC:9116" → "leaf1.dc": the switch name as SwitchPauses compares it.
std::string NormaliseSwitchName(std::string_view name);

}  // namespace rocewatch::lint::switch_config
