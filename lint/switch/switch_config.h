#pragma once

// What a switch's configuration file says about the QoS of each of its ports, in the NIC's
// terms: the priorities PFC is enabled on, the priority each DSCP lands on, the priorities whose
// egress queue marks ECN. Read from SONiC's config_db.json (sonic_config_db.h) and NVIDIA
// Cumulus NVUE's `nv config show -o json` (nvue_config.h) by `roce-lint check --switch-config`,
// and joined to a NIC through its LLDP neighbour: the switch's hostname is the neighbour's System
// Name, and a port's name or alias is its Port ID (docs/operations.md "The switch side").

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/switch/switch_pauses.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::switch_config {

// The network operating system the file comes from, for the commands a fix names.
enum class Nos { kSonic, kCumulus };
std::string_view NosName(Nos nos);  // "SONiC", "Cumulus Linux (NVUE)"

struct PortQos {
  std::string name;   // "Ethernet0", "swp1"
  std::string alias;  // SONiC's alias ("etp1"); empty when none
  // Priorities with PFC enabled (SONiC pfc_enable); nullopt when the file does not say.
  std::optional<std::vector<std::int64_t>> pfc_priorities;
  // The priority (SONiC: the traffic class) each DSCP 0..63 maps to, -1 where the map has none;
  // nullopt when the port has no DSCP map.
  std::optional<std::array<std::int8_t, 64>> dscp_priority;
  std::string dscp_map_name;  // SONiC's DSCP_TO_TC_MAP entry, NVUE's mapping profile
  // Priorities whose egress queue marks ECN; nullopt when the file says nothing of queues.
  std::optional<std::vector<std::int64_t>> ecn_priorities;
};

struct SwitchConfig {
  std::string source;    // the file
  Nos nos = Nos::kSonic;
  std::string hostname;  // SONiC DEVICE_METADATA.localhost.hostname, NVUE system.hostname
  std::vector<PortQos> ports;
  // NVUE: the global profiles (default-global, or RoCE mode's), for a port the file does not
  // list under "interface".
  std::optional<PortQos> every_port;

  // The port whose name or alias is `port_id` (else every_port); nullptr when none.
  const PortQos* FindPort(std::string_view port_id) const;
  // Indexes the ports by name and alias for FindPort (ParseSwitchConfig does; without it,
  // FindPort walks the ports).
  void IndexPorts();

 private:
  std::map<std::string, std::size_t, std::less<>> port_index_;  // name or alias -> first port
};

// Limits on a file read as hostile input.
inline constexpr std::size_t kMaxSwitchConfigBytes = 64u << 20;  // config_db of a 512-port switch: ~10 MiB
inline constexpr std::size_t kMaxSwitchConfigDepth = 32;         // config_db nests 3 levels, NVUE ~8
inline constexpr std::size_t kMaxSwitchPorts = 8192;             // one switch's ports (a chassis: ~1,000)

// Reads one file, SONiC or NVUE by its shape (NVUE: a list of {"header"}/{"set"} objects, or an
// object with "set"; SONiC: an object of upper-case tables, nested or redis-dump style
// "TABLE|key"). Errors name the file and the JSON path: "leaf1.json: /PORT_QOS_MAP/Ethernet0/
// pfc_enable: priority \"9\" is not 0-7". Unknown tables and keys are ignored.
Result<SwitchConfig> ReadSwitchConfigFile(const std::string& path);
Result<SwitchConfig> ParseSwitchConfig(std::string_view text, const std::string& source);

// Every --switch-config file, looked up by a NIC's LLDP neighbour, and the switch ports' pause
// counters read through --prometheus (switch_pauses.h): what roce-lint knows of the switch side.
class SwitchConfigs {
 public:
  void SetPauses(SwitchPauses pauses) { pauses_ = std::move(pauses); }
  const SwitchPauses& pauses() const { return pauses_; }
  void Add(SwitchConfig config) { configs_.push_back(std::move(config)); }
  bool empty() const { return configs_.empty(); }
  const std::vector<SwitchConfig>& configs() const { return configs_; }
  // The switch whose hostname is `system_name` (ASCII case-insensitive, as DNS names compare)
  // and its port named or aliased `port_id`; {nullptr, nullptr} when none.
  struct Match {
    const SwitchConfig* config = nullptr;
    const PortQos* port = nullptr;
  };
  Match Find(std::string_view system_name, std::string_view port_id) const;

 private:
  std::vector<SwitchConfig> configs_;
  SwitchPauses pauses_;
};

}  // namespace rocewatch::lint::switch_config
