#include "lint/plan/address.h"

#include <arpa/inet.h>

#include <cctype>

#include "rocewatch/strings.h"

namespace rocewatch::lint::plan {
namespace {

// Longest textual IPv6 address (with embedded IPv4) is 45 characters.
constexpr std::size_t kMaxAddressText = 45;

bool IsDnsName(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  for (std::string_view label : Split(host, '.')) {
    if (label.empty() || label.size() > 63) return false;
    if (label.front() == '-' || label.back() == '-') return false;
    for (char c : label) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
    }
  }
  return true;
}

bool BitSet(const IpAddress& a, int bit) {
  return (a.bytes[static_cast<std::size_t>(bit / 8)] >> (7 - bit % 8)) & 1;
}

}  // namespace

std::string IpAddress::ToString() const {
  char buf[INET6_ADDRSTRLEN] = {};
  if (inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof buf) == nullptr) return "?";
  return buf;
}

bool IpPrefix::IsNetworkAddress() const {
  int bits = address.v6 ? 128 : 32;
  for (int b = length; b < bits; ++b) {
    if (BitSet(address, b)) return false;
  }
  return length < bits;
}

bool IpPrefix::IsBroadcastAddress() const {
  if (address.v6) return false;
  for (int b = length; b < 32; ++b) {
    if (!BitSet(address, b)) return false;
  }
  return length < 32;
}

Result<IpAddress> ParseIpAddress(std::string_view text) {
  if (text.empty()) return Error{"empty address"};
  if (text.size() > kMaxAddressText) return Error{Quote(text) + " is too long for an IP address"};
  if (text.find('/') != std::string_view::npos) {
    return Error{Quote(text) + " has a prefix length; write the address alone"};
  }
  if (text.find('%') != std::string_view::npos) {
    return Error{Quote(text) + " has a zone index; write the address alone"};
  }
  std::string z(text);  // NUL-terminated copy for inet_pton
  IpAddress a;
  if (z.find(':') != std::string::npos) {
    if (inet_pton(AF_INET6, z.c_str(), a.bytes.data()) != 1) {
      return Error{Quote(text) + " is not a valid IPv6 address"};
    }
    a.v6 = true;
    return a;
  }
  if (inet_pton(AF_INET, z.c_str(), a.bytes.data()) != 1) {
    return Error{Quote(text) +
                 " is not a valid IPv4 address (four decimal numbers 0-255, "
                 "no leading zeros)"};
  }
  return a;
}

Result<IpPrefix> ParseIpPrefix(std::string_view text) {
  std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    return Error{Quote(text) +
                 " has no prefix length; write it as address/length, e.g. "
                 "10.1.0.11/24"};
  }
  std::string_view addr = text.substr(0, slash);
  std::string_view len = text.substr(slash + 1);
  if (addr.find('/') != std::string_view::npos || len.find('/') != std::string_view::npos) {
    return Error{Quote(text) + " has more than one '/'"};
  }
  auto address = ParseIpAddress(addr);
  if (!address.ok()) return address.error();
  int max = address->v6 ? 128 : 32;
  auto length = ParseU64(len);
  if (len.empty() || len != Trim(len) || !length || *length > static_cast<std::uint64_t>(max)) {
    return Error{Quote(text) + ": prefix length " + Quote(len) + " is not a number from 0 to " +
                 std::to_string(max)};
  }
  return IpPrefix{*address, static_cast<int>(*length)};
}

Result<HostPort> ParseHostPort(std::string_view text) {
  std::string_view host, port;
  if (!text.empty() && text.front() == '[') {
    std::size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return Error{Quote(text) + " is not [ipv6]:port"};
    }
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
    auto a = ParseIpAddress(host);
    if (!a.ok() || !a->v6)
      return Error{Quote(text) + ": " + Quote(host) + " is not an IPv6 address"};
  } else {
    std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos)
      return Error{Quote(text) + " has no port; write host:port"};
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) {
      return Error{Quote(text) + ": put an IPv6 host in brackets, e.g. [fd00::1]:9879"};
    }
    bool looks_numeric =
        !host.empty() && host.find_first_not_of("0123456789.") == std::string_view::npos;
    if (looks_numeric ? !ParseIpAddress(host).ok() : !IsDnsName(host)) {
      return Error{Quote(text) + ": " + Quote(host) + " is not an IPv4 address or a host name"};
    }
  }
  auto p = ParseU64(port);
  if (port.empty() || port != Trim(port) || !p || *p < 1 || *p > 65535) {
    return Error{Quote(text) + ": port " + Quote(port) + " is not a number from 1 to 65535"};
  }
  return HostPort{std::string(host), static_cast<std::uint16_t>(*p)};
}

}  // namespace rocewatch::lint::plan
