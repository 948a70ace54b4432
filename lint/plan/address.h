#pragma once

// IP addresses, prefixes and "host:port" exporter addresses as the plan writes them.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "lint/i18n/catalogue.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::plan {

struct IpAddress {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};  // IPv4 in the first 4 bytes

  // inet_ntop form: "10.1.0.11", "fd00:1::11".
  std::string ToString() const;
  bool operator==(const IpAddress&) const = default;
};

struct IpPrefix {
  IpAddress address;
  int length = 0;  // 0..32 for IPv4, 0..128 for IPv6

  // The address is the network address or (IPv4) the broadcast address of its own subnet; only
  // meaningful for IPv4 prefixes up to /30 and IPv6 prefixes up to /126.
  bool IsNetworkAddress() const;
  bool IsBroadcastAddress() const;
};

struct HostPort {
  std::string host;  // without brackets
  std::uint16_t port = 0;
};

// Each parser's error says what is wrong with the text, in English; with `reason`, it also keeps
// that sentence there as a catalogue message ("plan.address.*", lint/i18n/), for a finding that
// is rendered in the report's language.

// A bare IPv4 or IPv6 address (no prefix, no zone).
Result<IpAddress> ParseIpAddress(std::string_view text, i18n::StoredMessage* reason = nullptr);
// "address/length"; the length is required.
Result<IpPrefix> ParseIpPrefix(std::string_view text, i18n::StoredMessage* reason = nullptr);
// "host:port" or "[ipv6]:port"; the host is an IPv4 address, an IPv6 address in brackets or a
// DNS name; the port is 1..65535.
Result<HostPort> ParseHostPort(std::string_view text, i18n::StoredMessage* reason = nullptr);

}  // namespace rocewatch::lint::plan
