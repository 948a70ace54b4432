#include "exporter/netlink/attributes.h"

#include <linux/netlink.h>

#include <algorithm>
#include <bit>
#include <string>

namespace rocewatch::netlink {
namespace {

constexpr std::size_t kHeaderBytes = NLA_HDRLEN;  // 4
constexpr std::uint16_t kTypeMask = static_cast<std::uint16_t>(NLA_TYPE_MASK);

std::size_t Align4(std::size_t n) { return (n + NLA_ALIGNTO - 1) & ~std::size_t{NLA_ALIGNTO - 1}; }

template <class T>
Result<T> GetInteger(const Attribute& attribute, std::string_view name) {
  if (attribute.payload.size() != sizeof(T)) {
    return WrongLengthError(name, attribute.payload.size(), sizeof(T));
  }
  T value;
  std::memcpy(&value, attribute.payload.data(), sizeof(T));
  if (attribute.net_byteorder && std::endian::native == std::endian::little) {
    if constexpr (sizeof(T) == 2) value = static_cast<T>(__builtin_bswap16(value));
    if constexpr (sizeof(T) == 4) value = __builtin_bswap32(value);
    if constexpr (sizeof(T) == 8) value = __builtin_bswap64(value);
  }
  return value;
}

}  // namespace

Error WrongLengthError(std::string_view name, std::size_t got, std::size_t want) {
  return Error{std::string(name) + ": payload is " + std::to_string(got) + " bytes, expected " +
               std::to_string(want)};
}

Result<std::vector<Attribute>> ParseAttributes(Bytes data, std::string_view where) {
  std::vector<Attribute> out;
  std::size_t offset = 0;
  while (offset < data.size()) {
    const std::size_t remaining = data.size() - offset;
    if (remaining < kHeaderBytes) {
      return Error{std::string(where) + ": " + std::to_string(remaining) +
                   " trailing bytes at offset " + std::to_string(offset) +
                   " are too short for an attribute header"};
    }
    std::uint16_t length = 0;
    std::uint16_t raw_type = 0;
    std::memcpy(&length, data.data() + offset, sizeof(length));
    std::memcpy(&raw_type, data.data() + offset + 2, sizeof(raw_type));
    if (length < kHeaderBytes) {
      return Error{std::string(where) + ": attribute at offset " + std::to_string(offset) +
                   " has nla_len " + std::to_string(length) + " (below the 4-byte header)"};
    }
    if (length > remaining) {
      return Error{std::string(where) + ": attribute type " + std::to_string(raw_type & kTypeMask) +
                   " at offset " + std::to_string(offset) + " has nla_len " +
                   std::to_string(length) + " but only " + std::to_string(remaining) +
                   " bytes remain (truncated)"};
    }
    Attribute attribute;
    attribute.type = static_cast<std::uint16_t>(raw_type & kTypeMask);
    attribute.nested_flag = (raw_type & NLA_F_NESTED) != 0;
    attribute.net_byteorder = (raw_type & NLA_F_NET_BYTEORDER) != 0;
    attribute.payload = data.subspan(offset + kHeaderBytes, length - kHeaderBytes);
    out.push_back(attribute);
    // The last attribute's padding may be cut off by the end of the buffer.
    offset += std::min(Align4(length), remaining);
  }
  return out;
}

const Attribute* FindAttribute(const std::vector<Attribute>& attributes, std::uint16_t type) {
  const Attribute* found = nullptr;
  for (const Attribute& a : attributes) {
    if (a.type == type) found = &a;
  }
  return found;
}

Result<std::uint8_t> GetU8(const Attribute& attribute, std::string_view name) {
  return GetInteger<std::uint8_t>(attribute, name);
}
Result<std::uint16_t> GetU16(const Attribute& attribute, std::string_view name) {
  return GetInteger<std::uint16_t>(attribute, name);
}
Result<std::uint32_t> GetU32(const Attribute& attribute, std::string_view name) {
  return GetInteger<std::uint32_t>(attribute, name);
}
Result<std::uint64_t> GetU64(const Attribute& attribute, std::string_view name) {
  return GetInteger<std::uint64_t>(attribute, name);
}

Result<std::string> GetString(const Attribute& attribute, std::string_view name) {
  const auto* begin = reinterpret_cast<const char*>(attribute.payload.data());
  const std::size_t size = attribute.payload.size();
  const void* nul = size == 0 ? nullptr : std::memchr(begin, '\0', size);
  if (nul == nullptr) {
    return Error{std::string(name) + ": string of " + std::to_string(size) +
                 " bytes has no terminating NUL"};
  }
  return std::string(begin, static_cast<const char*>(nul));
}

Result<std::vector<Attribute>> GetNested(const Attribute& attribute, std::string_view name) {
  return ParseAttributes(attribute.payload, name);
}

}  // namespace rocewatch::netlink
