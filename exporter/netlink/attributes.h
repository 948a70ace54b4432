#pragma once

// Bounds-checked reading of netlink attributes (struct nlattr): a walker that turns a
// byte span into (type, payload) pairs, and typed getters that insist on exact payload
// sizes. Pure functions over bytes; nothing here reads a socket.
//
// Layout (include/uapi/linux/netlink.h): each attribute is a 4-byte header
// {u16 nla_len; u16 nla_type} followed by nla_len - 4 payload bytes, padded to a multiple
// of 4 (NLA_ALIGN). The two top bits of nla_type are flags: NLA_F_NESTED (the payload is
// itself a list of attributes) and NLA_F_NET_BYTEORDER (the integer is big-endian).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::netlink {

using Bytes = std::span<const std::uint8_t>;

struct Attribute {
  std::uint16_t type = 0;      // nla_type without the flag bits
  bool nested_flag = false;    // NLA_F_NESTED was set (kernels omit it on old families)
  bool net_byteorder = false;  // NLA_F_NET_BYTEORDER was set: integers are big-endian
  Bytes payload;               // nla_len - 4 bytes, without the alignment padding
};

// Splits `data` into attributes. Rejects a header that does not fit, an nla_len below 4 or
// past the end of `data`, and trailing bytes that cannot hold an attribute header; the
// error message starts with `where` (e.g. "dcbnl IEEE_GET reply: DCB_ATTR_IEEE").
// Attributes are returned in wire order; duplicates are kept.
Result<std::vector<Attribute>> ParseAttributes(Bytes data, std::string_view where);

// The last attribute of `type` (the kernel's nla_parse keeps the last one too), or nullptr.
const Attribute* FindAttribute(const std::vector<Attribute>& attributes, std::uint16_t type);

// Typed getters. `name` names the attribute in the error message ("DCB_ATTR_DCBX").
// Integers must have exactly their size; host byte order unless NLA_F_NET_BYTEORDER.
Result<std::uint8_t> GetU8(const Attribute& attribute, std::string_view name);
Result<std::uint16_t> GetU16(const Attribute& attribute, std::string_view name);
Result<std::uint32_t> GetU32(const Attribute& attribute, std::string_view name);
Result<std::uint64_t> GetU64(const Attribute& attribute, std::string_view name);
// A NUL-terminated string (NLA_NUL_STRING / nla_put_string): the payload must contain a NUL;
// the text up to the first NUL is returned.
Result<std::string> GetString(const Attribute& attribute, std::string_view name);
// The nested attributes of `attribute` (flag or not: old families such as dcbnl do not set
// NLA_F_NESTED).
Result<std::vector<Attribute>> GetNested(const Attribute& attribute, std::string_view name);

// The error GetStruct returns on a size mismatch; exposed so callers can reuse the wording.
Error WrongLengthError(std::string_view name, std::size_t got, std::size_t want);

// A fixed-size kernel struct (struct ieee_pfc, struct dcb_app…). The payload size must equal
// sizeof(T) exactly, as iproute2's dcb tool requires; the bytes are copied (never cast) so a
// misaligned payload is fine.
template <class T>
Result<T> GetStruct(const Attribute& attribute, std::string_view name) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (attribute.payload.size() != sizeof(T)) {
    return WrongLengthError(name, attribute.payload.size(), sizeof(T));
  }
  T value;
  std::memcpy(&value, attribute.payload.data(), sizeof(T));
  return value;
}

}  // namespace rocewatch::netlink
