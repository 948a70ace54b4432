#pragma once

// The lldp source's section of the NodeSnapshot: each LLDP neighbour lldpd holds for a RoCE
// netdev, as lldpd decoded it from the neighbour's LLDPDU (IEEE 802.1AB TLVs), read through
// liblldpctl. Plain strings as lldpd names them; times in seconds.

#include <optional>
#include <string>
#include <vector>

#include "exporter/lldp/dcbx.h"
#include "exporter/model/section.h"

namespace rocewatch {

struct LldpNeighbor {
  std::string netdev;              // the local interface the LLDPDU arrived on
  std::string protocol;            // lldpd's "via": LLDP (CDP, EDP… when those are enabled)
  std::string chassis_id_subtype;  // lldpd's names: mac, ip, ifname, ifalias, local, unhandled
  std::string chassis_id;          // as lldpd prints it (a MAC in colon form for mac)
  std::string system_name;         // System Name TLV: the switch
  std::string system_description;
  std::string port_id_subtype;        // mac, ip, ifname, ifalias, local, unhandled
  std::string port_id;                // the switch port as the switch names it
  std::string port_description;       // Port Description TLV
  std::string management_address;     // the first Management Address TLV, as text
  std::optional<double> ttl_seconds;  // Time To Live TLV
  std::optional<double> age_seconds;  // since lldpd last saw this neighbour's data change
  // The organizationally specific TLVs lldpd did not decode (its "unknown-tlvs"), as received.
  std::vector<lldp::LldpUnknownTlv> unknown_tlvs;
  // Unknown TLVs of the answer that were not lldpd's form (skipped), and why.
  std::vector<std::string> unknown_tlv_errors;
  // The switch port's IEEE 802.1Qaz settings, decoded from unknown_tlvs by the source.
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
