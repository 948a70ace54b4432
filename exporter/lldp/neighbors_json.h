#pragma once

// The neighbour answer of lldpd in the form `lldpcli -f json0 show neighbors details` prints
// (lldpd 1.0.x: every object an array of objects, so the shape does not change with the number
// of neighbours, unlike `-f json`). The live path (lldp/lldpctl_client.h) writes the subset
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

#include "exporter/collectors/lldp/section.h"
#include "rocewatch/result.h"

namespace rocewatch::lldp {

inline constexpr std::size_t kMaxAnswerBytes = 8u << 20;  // the whole JSON text
inline constexpr std::size_t kMaxNeighbors = 4096;
inline constexpr std::size_t kMaxUnknownTlvs = 64;  // per neighbour
inline constexpr std::size_t kMaxValueBytes = 255;  // an LLDP TLV carries at most 511; names 255

// The neighbours of every interface in the answer, in answer order. An Error names what is
// wrong and where (the interface index and key). An answer without "interface" (lldpd with no
// neighbours prints {"lldp": [{}]}) is an empty list. Values longer than kMaxValueBytes are
// cut at a UTF-8 character boundary.
Result<std::vector<LldpNeighbor>> DecodeNeighborsJson(std::string_view text);

// The json0 text of `neighbors` (what the live path hands over). Invalid UTF-8 in a value is
// replaced by U+FFFD.
std::string EncodeNeighborsJson(const std::vector<LldpNeighbor>& neighbors);

// lldpcli's age text ("0 day, 00:01:02", "3 days, 04:05:06"; display_age in lldpd's
// src/client/display.c) in seconds; nullopt when it is not that form ("too much").
std::optional<double> ParseAge(std::string_view text);
std::string FormatAge(double seconds);

}  // namespace rocewatch::lldp
