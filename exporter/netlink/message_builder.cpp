#include "netlink/message_builder.h"

#include <linux/netlink.h>

namespace rocewatch::netlink {

MessageBuilder::MessageBuilder(std::uint16_t type, std::uint16_t flags, std::uint32_t seq) {
  nlmsghdr header{};
  header.nlmsg_len = sizeof(header);
  header.nlmsg_type = type;
  header.nlmsg_flags = flags;
  header.nlmsg_seq = seq;
  header.nlmsg_pid = 0;
  AppendPadded(&header, sizeof(header));
}

void MessageBuilder::AppendPadded(const void* data, std::size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  bytes_.insert(bytes_.end(), p, p + size);
  bytes_.resize(NLA_ALIGN(bytes_.size()), 0);
}

void MessageBuilder::PutAttribute(std::uint16_t type, const void* data, std::size_t size) {
  nlattr header{};
  header.nla_len = static_cast<std::uint16_t>(NLA_HDRLEN + size);
  header.nla_type = type;
  const auto* h = reinterpret_cast<const std::uint8_t*>(&header);
  bytes_.insert(bytes_.end(), h, h + sizeof(header));
  AppendPadded(data, size);
}

void MessageBuilder::PutU8(std::uint16_t type, std::uint8_t value) {
  PutAttribute(type, &value, sizeof(value));
}
void MessageBuilder::PutU16(std::uint16_t type, std::uint16_t value) {
  PutAttribute(type, &value, sizeof(value));
}
void MessageBuilder::PutU32(std::uint16_t type, std::uint32_t value) {
  PutAttribute(type, &value, sizeof(value));
}
void MessageBuilder::PutU64(std::uint16_t type, std::uint64_t value) {
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
  const auto* h = reinterpret_cast<const std::uint8_t*>(&header);
  bytes_.insert(bytes_.end(), h, h + sizeof(header));
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
