#pragma once

// The neighbour answer of lldpd in the form `lldpcli -f json0 show neighbors details` prints
// (lldpd 1.0.x: every object an array of objects, so the shape does not change with the number
// of neighbours, unlike `-f json`). The live path (kernel/lldpctl_client.h) writes the subset
// below from liblldpctl's atoms; a capture keeps it as kernel/lldp/neighbors.json, and an
// operator's own `lldpcli -f json0 show neighbors details` output replays the same way.
//
//   {"lldp": [{"interface": [{"name": "ens1f0np0", "via": "LLDP", "age": "0 day, 00:01:02",
//     "chassis": [{"id": [{"type": "mac", "value": "..."}], "name": [{"value": "leaf-0"}],
//                  "descr": [{"value": "..."}], "mgmt-ip": [{"value": "10.0.0.1"}]}],
//     "port": [{"id": [{"type": "ifname", "value": "Ethernet8"}],
//               "descr": [{"value": "..."}], "ttl": [{"value": "120"}]}],
//     "unknown-tlvs": [{"unknown-tlv": [{"oui": "00,80,C2", "subtype": "11", "len": "2",
//                                        "value": "08,08"}]}]}]}]}
//
// "unknown-tlvs" is how lldpd 1.0.16 reports the organizationally specific TLVs it does not
// decode (the switch's IEEE 802.1Qaz DCBX among them; lldp/dcbx.h): hex bytes, comma separated,
// as lldpcli's display code prints them (tests/fixtures/real/lldpcli-1.0.16).
//
// The decoder is pure and hostile-input safe (fuzzed: tests/fuzz/lldp_neighbors_fuzz.cpp).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/lldp/dcbx.h"
#include "rocewatch/result.h"

namespace rocewatch::lldp {

// One LLDP neighbour lldpd holds, as lldpd decoded it from the neighbour's LLDPDU (IEEE 802.1AB
// TLVs). Plain strings as lldpd names them; times in seconds. The lldp collector's section
// (collectors/lldp/section.h) adds what it decodes from unknown_tlvs.
struct Neighbor {
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
  std::vector<LldpUnknownTlv> unknown_tlvs;
  // Unknown TLVs of the answer that were not lldpd's form (skipped), and why.
  std::vector<std::string> unknown_tlv_errors;
};

inline constexpr std::size_t kMaxAnswerBytes = 8u << 20;  // the whole JSON text
inline constexpr std::size_t kMaxNeighbors = 4096;
inline constexpr std::size_t kMaxUnknownTlvs = 64;  // per neighbour
inline constexpr std::size_t kMaxValueBytes = 255;  // an LLDP TLV carries at most 511; names 255

// The neighbours of every interface in the answer, in answer order. An Error names what is
// wrong and where (the interface index and key). An answer without "interface" (lldpd with no
// neighbours prints {"lldp": [{}]}) is an empty list. Values longer than kMaxValueBytes are
// cut at a UTF-8 character boundary.
Result<std::vector<Neighbor>> DecodeNeighborsJson(std::string_view text);

// The json0 text of `neighbors` (what the live path hands over). Invalid UTF-8 in a value is
// replaced by U+FFFD.
std::string EncodeNeighborsJson(const std::vector<Neighbor>& neighbors);

// lldpcli's age text ("0 day, 00:01:02", "3 days, 04:05:06"; display_age in lldpd's
// src/client/display.c) in seconds; nullopt when it is not that form ("too much").
std::optional<double> ParseAge(std::string_view text);
std::string FormatAge(double seconds);

}  // namespace rocewatch::lldp
