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

// The error of a parser: its English sentence, and the message in `reason` when asked for.
Error Reason(i18n::StoredMessage* reason, i18n::MessageId id, i18n::StoredArgs args) {
  i18n::StoredMessage message = i18n::Store(id, std::move(args));
  Error error{i18n::RenderOr(i18n::Language::kEnglish, message, "")};
  if (reason != nullptr) *reason = std::move(message);
  return error;
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

Result<IpAddress> ParseIpAddress(std::string_view text, i18n::StoredMessage* reason) {
  if (text.empty()) return Reason(reason, "plan.address.empty", {});
  if (text.size() > kMaxAddressText) return Reason(reason, "plan.address.too_long", {{"text", Quote(text)}});
  if (text.find('/') != std::string_view::npos) {
    return Reason(reason, "plan.address.has_prefix", {{"text", Quote(text)}});
  }
  if (text.find('%') != std::string_view::npos) {
    return Reason(reason, "plan.address.has_zone", {{"text", Quote(text)}});
  }
  std::string z(text);  // NUL-terminated copy for inet_pton
  IpAddress a;
  if (z.find(':') != std::string::npos) {
    if (inet_pton(AF_INET6, z.c_str(), a.bytes.data()) != 1) {
      return Reason(reason, "plan.address.not_ipv6", {{"text", Quote(text)}});
    }
    a.v6 = true;
    return a;
  }
  if (inet_pton(AF_INET, z.c_str(), a.bytes.data()) != 1) {
    return Reason(reason, "plan.address.not_ipv4", {{"text", Quote(text)}});
  }
  return a;
}

Result<IpPrefix> ParseIpPrefix(std::string_view text, i18n::StoredMessage* reason) {
  std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    return Reason(reason, "plan.address.no_prefix", {{"text", Quote(text)}});
  }
  std::string_view addr = text.substr(0, slash);
  std::string_view len = text.substr(slash + 1);
  if (addr.find('/') != std::string_view::npos || len.find('/') != std::string_view::npos) {
    return Reason(reason, "plan.address.two_slashes", {{"text", Quote(text)}});
  }
  auto address = ParseIpAddress(addr, reason);
  if (!address.ok()) return address.error();
  int max = address->v6 ? 128 : 32;
  auto length = ParseU64(len);
  if (len.empty() || len != Trim(len) || !length || *length > static_cast<std::uint64_t>(max)) {
    return Reason(reason, "plan.address.bad_prefix_length",
                  {{"text", Quote(text)}, {"length", Quote(len)}, {"max", std::to_string(max)}});
  }
  return IpPrefix{*address, static_cast<int>(*length)};
}

Result<HostPort> ParseHostPort(std::string_view text, i18n::StoredMessage* reason) {
  std::string_view host, port;
  if (!text.empty() && text.front() == '[') {
    std::size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return Reason(reason, "plan.address.not_bracketed", {{"text", Quote(text)}});
    }
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
    auto a = ParseIpAddress(host);
    if (!a.ok() || !a->v6)
      return Reason(reason, "plan.address.bracket_not_ipv6", {{"text", Quote(text)}, {"host", Quote(host)}});
  } else {
    std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos)
      return Reason(reason, "plan.address.no_port", {{"text", Quote(text)}});
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) {
      return Reason(reason, "plan.address.ipv6_brackets", {{"text", Quote(text)}});
    }
    bool looks_numeric =
        !host.empty() && host.find_first_not_of("0123456789.") == std::string_view::npos;
    if (looks_numeric ? !ParseIpAddress(host).ok() : !IsDnsName(host)) {
      return Reason(reason, "plan.address.bad_host", {{"text", Quote(text)}, {"host", Quote(host)}});
    }
  }
  auto p = ParseU64(port);
  if (port.empty() || port != Trim(port) || !p || *p < 1 || *p > 65535) {
    return Reason(reason, "plan.address.bad_port", {{"text", Quote(text)}, {"port", Quote(port)}});
  }
  return HostPort{std::string(host), static_cast<std::uint16_t>(*p)};
}

}  // namespace rocewatch::lint::plan
