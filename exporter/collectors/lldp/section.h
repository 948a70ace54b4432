#pragma once

// The lldp source's section of the NodeSnapshot: each LLDP neighbour lldpd holds for a RoCE
// netdev, as the lldp decoder reads lldpd's answer (lldp/neighbors_json.h), with the switch
// port's DCBX decoded from it.

#include <optional>
#include <string>
#include <vector>

#include "exporter/lldp/dcbx.h"
#include "exporter/lldp/neighbors_json.h"
#include "exporter/model/section.h"

namespace rocewatch {

// A neighbour as the lldp decoder reads it, and its switch port's IEEE 802.1Qaz settings.
struct LldpNeighbor : lldp::Neighbor {
  // Decoded from unknown_tlvs by the source.
  lldp::PeerDcbx dcbx;
};

struct LldpSnapshot {
  // Whether lldpd answered this read (false: not running, socket refused or not readable).
  bool daemon_reachable = false;
  std::vector<LldpNeighbor> neighbors;  // RoCE netdevs only
  bool full_tables = false;             // --collector.lldp.full-tables: every peer DCBX entry
  // --collector.lldp.dscps: the DSCPs whose priority in the peer's APP table is a series by
  // default (the RoCE and CNP DSCPs, as dcb serves the NIC's), so both ends compare by DSCP.
  std::vector<std::uint32_t> exported_dscps;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct LldpSection {
  std::optional<LldpSnapshot>
      lldp;  // absent when the lldp source did not run or a replay has no answer
  void Append(LldpSection&& part) { AppendSection(lldp, part.lldp); }
};

}  // namespace rocewatch
