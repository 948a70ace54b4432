#pragma once

// Both ends of a link (peer.*): the NIC's DCB settings against the switch port's across the
// cable. The switch port is the NIC's LLDP neighbour (roce_lldp_neighbor_info: System Name and
// Port ID); its settings come from the 802.1Qaz DCBX TLVs it sends (roce_lldp_peer_*) and from
// a --switch-config file of that switch (lint/switch/switch_config.h), DCBX first. One file per
// check; each is registered in lint/checks/specs.h. A NIC whose switch port has no source runs
// none of them: `roce-lint check` says so once for the run (NicsWithoutSwitchSide). Two checks
// read the port's pause counters instead (switch-pause-non-pfc, pause-mismatch: the switch's
// Prometheus series through lint/switch/counter_profiles.h), and have their own note
// (NicsWithoutSwitchCounters).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lint/checks/check.h"
#include "lint/switch/switch_config.h"

namespace rocewatch::lint::checks::peer {

void PfcPriorities(const NicContext& c, FindingSink& sink);
void RocePriorityPfc(const NicContext& c, FindingSink& sink);
void AppPriority(const NicContext& c, FindingSink& sink);
void Ecn(const NicContext& c, FindingSink& sink);
void SwitchPauseNonPfc(const NicContext& c, FindingSink& sink);
void PauseMismatch(const NicContext& c, FindingSink& sink);

// The switch port's side of one NIC's link, as far as its sources say.
struct SwitchSide {
  std::string switch_name;  // LLDP System Name (the chassis ID when it sends none)
  std::string port;         // LLDP Port ID
  std::string config_port;  // the port's name in the --switch-config file (Ethernet8 for etp3)
  std::string source;       // "LLDP DCBX", "leaf1.json (SONiC)", or both, joined by " and "
  std::optional<switch_config::Nos> nos;  // from the config file; nullopt for DCBX alone
  std::optional<std::vector<std::int64_t>> pfc;        // priorities with PFC enabled
  std::optional<std::array<std::int8_t, 64>> dscp;     // DSCP → priority, -1 where none
  std::string dscp_digest;                             // DCBX without full tables: the digest
  bool dscp_is_tc = false;                             // SONiC: the map is DSCP → traffic class
  std::optional<std::int64_t> udp_4791;                // APP: RoCEv2's UDP port → priority
  std::optional<std::vector<std::int64_t>> ecn;        // priorities whose queue marks ECN (config)

  // "leaf-0 port Ethernet8"
  std::string Where() const;
};

// The NIC's LLDP neighbour as a SwitchSide: SwitchSideOf's where it has a source, else the
// System Name and Port ID alone (for the fixes of the counter checks); nullopt without one.
std::optional<SwitchSide> NeighbourSideOf(const NicContext& c);

// The NIC's switch port's pause counters over the window (--prometheus through the counter
// profiles, lint/switch/counter_profiles.h); nullptr when none were read or none match its LLDP
// neighbour (link_pauses.cpp).
const switch_config::PortPauses* SwitchPausesOf(const NicContext& c);
// What the NIC's pause frames grew by over the window per priority (0-7), `rx` received from
// the switch or sent to it: the larger of the ethtool and dcbnl counters, as
// counters.pause-on-non-pfc-priority reads them; nullopt where the NIC serves none.
std::array<std::optional<double>, 8> NicPauseFrames(const NicContext& c, bool rx);
// peer.pause-mismatch's noise: two counts of the same pause frames disagree when the larger is
// at least kPauseMismatchFloor and more than kPauseMismatchRatio times the smaller
// (docs/checks.md#peer.pause-mismatch says why).
inline constexpr double kPauseMismatchFloor = 1000;
inline constexpr double kPauseMismatchRatio = 2;
bool PauseCountsDisagree(double a, double b);

// The NIC's switch side; nullopt when the NIC has no LLDP neighbour or the neighbour has no
// source (sends no DCBX and no --switch-config names it).
std::optional<SwitchSide> SwitchSideOf(const NicContext& c);
// "gpu-01 mlx5_0 (ens1f0np0) ↔ leaf-0 port Ethernet8": both ends, for a finding's message.
std::string BothEnds(const NicContext& c, const SwitchSide& s);

// The commands that set the switch side, by NOS (the file's; for DCBX alone, guessed from the
// port's name: swpN is Cumulus, EthernetN/M Arista EOS, EthernetN SONiC or EOS), as one text
// in every language.
i18n::Phrase SwitchPfcFixText(const SwitchSide& s, const std::vector<std::int64_t>& want);
i18n::Phrase SwitchDscpFixText(const SwitchSide& s, std::int64_t dscp, std::int64_t priority);
i18n::Phrase SwitchEcnFixText(const SwitchSide& s, std::int64_t priority);
// "<switch_fix>; NIC eth0: nothing (qos.pfc-priorities checks it)", in every language.
i18n::Phrase NicNothingFix(const i18n::Phrase& switch_fix, const std::string& netdev, std::string_view check);

// The planned NICs of a node whose switch side has no source, as "netdev" names, for the
// run's one note; empty when the node's lldp collector did not run (then nothing is known of
// its neighbours, and cabling.* says nothing either).
std::vector<std::string> NicsWithoutSwitchSide(const plan::Node& node, const observe::NodeView& view,
                                               const switch_config::SwitchConfigs* switches);
// The planned NICs of a node with an LLDP neighbour whose switch port has no pause counters
// (none read, or no profile's series names it), for the run's note on the counter checks;
// empty when the node's lldp collector did not run.
std::vector<std::string> NicsWithoutSwitchCounters(const plan::Node& node, const observe::NodeView& view,
                                                   const switch_config::SwitchConfigs* switches);

}  // namespace rocewatch::lint::checks::peer
