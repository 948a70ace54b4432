#pragma once

// Building one netlink request message: struct nlmsghdr, a family header (struct dcbmsg,
// struct genlmsghdr…), then attributes, each padded to 4 bytes with zeros as the kernel's
// nla_put does. Nests get NLA_F_NESTED (strict genetlink families such as ethtool require
// it; dcbnl ignores it). Attribute payloads must stay below 64 KiB (nla_len is 16 bits);
// requests never come close.

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rocewatch::netlink {

class MessageBuilder {
 public:
  // nlmsg_pid is 0: the kernel fills in the sender's port.
  MessageBuilder(std::uint16_t type, std::uint16_t flags, std::uint32_t seq);

  // Appends a family header (padded to 4 bytes). Call once, before any attribute.
  template <class T>
  void PutFamilyHeader(const T& header) {
    static_assert(std::is_trivially_copyable_v<T>);
    AppendPadded(&header, sizeof(T));
  }

  void PutU8(std::uint16_t type, std::uint8_t value);
  void PutU32(std::uint16_t type, std::uint32_t value);
  // The string and its terminating NUL (nla_put_string).
  void PutString(std::uint16_t type, std::string_view value);
  void PutBytes(std::uint16_t type, std::span<const std::uint8_t> value);

  // Starts a nested attribute; returns a token for EndNest.
  std::size_t BeginNest(std::uint16_t type);
  void EndNest(std::size_t token);

  // The finished message with nlmsg_len set.
  std::vector<std::uint8_t> Finish() &&;

 private:
  void PutAttribute(std::uint16_t type, const void* data, std::size_t size);
  void AppendPadded(const void* data, std::size_t size);
  void Append(const void* data, std::size_t size, std::size_t padded_size);

  std::vector<std::uint8_t> bytes_;
};

}  // namespace rocewatch::netlink
