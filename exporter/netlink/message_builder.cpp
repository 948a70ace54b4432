#include "exporter/netlink/message_builder.h"

#include <linux/netlink.h>

namespace rocewatch::netlink {

// The header is copied into a buffer created at its size (NLMSG_HDRLEN is already aligned), not
// appended to an empty vector, see Append.
MessageBuilder::MessageBuilder(std::uint16_t type, std::uint16_t flags, std::uint32_t seq)
    : bytes_(NLMSG_HDRLEN, 0) {
  static_assert(sizeof(nlmsghdr) == NLMSG_HDRLEN);
  nlmsghdr header{};
  header.nlmsg_len = sizeof(header);
  header.nlmsg_type = type;
  header.nlmsg_flags = flags;
  header.nlmsg_seq = seq;
  header.nlmsg_pid = 0;
  std::memcpy(bytes_.data(), &header, sizeof(header));
}

// Grows the buffer (zero-filled) and copies into it. Not vector::insert of a byte range: at -O3
// GCC 12 inlines that into a memmove whose bounds it cannot follow and reports a false
// -Wstringop-overflow, and growing an empty vector a false -Warray-bounds (GCC bugs 107852,
// 109717).
void MessageBuilder::Append(const void* data, std::size_t size, std::size_t padded_size) {
  const std::size_t offset = bytes_.size();
  bytes_.resize(offset + padded_size, 0);
  if (size != 0) {
    std::memcpy(bytes_.data() + offset, data, size);
  }
}

void MessageBuilder::AppendPadded(const void* data, std::size_t size) {
  Append(data, size, NLA_ALIGN(size));
}

void MessageBuilder::PutAttribute(std::uint16_t type, const void* data, std::size_t size) {
  nlattr header{};
  header.nla_len = static_cast<std::uint16_t>(NLA_HDRLEN + size);
  header.nla_type = type;
  Append(&header, sizeof(header), sizeof(header));
  AppendPadded(data, size);
}

void MessageBuilder::PutU8(std::uint16_t type, std::uint8_t value) {
  PutAttribute(type, &value, sizeof(value));
}
void MessageBuilder::PutU32(std::uint16_t type, std::uint32_t value) {
  PutAttribute(type, &value, sizeof(value));
}

void MessageBuilder::PutString(std::uint16_t type, std::string_view value) {
  std::vector<std::uint8_t> with_nul(value.begin(), value.end());
  with_nul.push_back(0);
  PutAttribute(type, with_nul.data(), with_nul.size());
}

void MessageBuilder::PutBytes(std::uint16_t type, std::span<const std::uint8_t> value) {
  PutAttribute(type, value.data(), value.size());
}

std::size_t MessageBuilder::BeginNest(std::uint16_t type) {
  const std::size_t token = bytes_.size();
  nlattr header{};
  header.nla_len = NLA_HDRLEN;
  header.nla_type = static_cast<std::uint16_t>(type | NLA_F_NESTED);
  Append(&header, sizeof(header), sizeof(header));
  return token;
}

void MessageBuilder::EndNest(std::size_t token) {
  const auto length = static_cast<std::uint16_t>(bytes_.size() - token);
  std::memcpy(bytes_.data() + token, &length, sizeof(length));
}

std::vector<std::uint8_t> MessageBuilder::Finish() && {
  const auto length = static_cast<std::uint32_t>(bytes_.size());
  std::memcpy(bytes_.data(), &length, sizeof(length));
  return std::move(bytes_);
}

}  // namespace rocewatch::netlink
