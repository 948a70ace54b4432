#include "exporter/netlink/messages.h"

#include <linux/netlink.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "exporter/netlink/errno_name.h"

namespace rocewatch::netlink {
namespace {

constexpr std::size_t kHeaderBytes = sizeof(nlmsghdr);  // 16

std::size_t Align4(std::size_t n) {
  return (n + NLMSG_ALIGNTO - 1) & ~std::size_t{NLMSG_ALIGNTO - 1};
}

}  // namespace

Result<std::vector<Message>> ParseMessages(Bytes buffer, std::string_view where) {
  std::vector<Message> out;
  std::size_t offset = 0;
  while (offset < buffer.size()) {
    const std::size_t remaining = buffer.size() - offset;
    if (remaining < kHeaderBytes) {
      return Error{std::string(where) + ": " + std::to_string(remaining) +
                   " trailing bytes at offset " + std::to_string(offset) +
                   " are too short for a netlink message header"};
    }
    nlmsghdr header;
    std::memcpy(&header, buffer.data() + offset, sizeof(header));
    if (header.nlmsg_len < kHeaderBytes) {
      return Error{std::string(where) + ": message at offset " + std::to_string(offset) +
                   " has nlmsg_len " + std::to_string(header.nlmsg_len) +
                   " (below the 16-byte header)"};
    }
    if (header.nlmsg_len > remaining) {
      return Error{std::string(where) + ": message type " + std::to_string(header.nlmsg_type) +
                   " at offset " + std::to_string(offset) + " has nlmsg_len " +
                   std::to_string(header.nlmsg_len) + " but only " + std::to_string(remaining) +
                   " bytes remain (truncated)"};
    }
    Message message;
    message.type = header.nlmsg_type;
    message.flags = header.nlmsg_flags;
    message.seq = header.nlmsg_seq;
    message.port_id = header.nlmsg_pid;
    message.payload = buffer.subspan(offset + kHeaderBytes, header.nlmsg_len - kHeaderBytes);
    out.push_back(message);
    offset += std::min(Align4(header.nlmsg_len), remaining);
  }
  return out;
}

Result<KernelError> DecodeErrorMessage(const Message& message, std::string_view where) {
  std::int32_t error = 0;
  if (message.payload.size() < sizeof(error)) {
    return Error{std::string(where) + ": NLMSG_ERROR payload is " +
                 std::to_string(message.payload.size()) + " bytes, too short for the error code"};
  }
  std::memcpy(&error, message.payload.data(), sizeof(error));
  KernelError out;
  // The kernel sends -errno; tolerate a positive value rather than negating INT_MIN.
  out.errno_value = error < 0 ? (error == INT32_MIN ? INT32_MAX : -error) : error;

  if ((message.flags & NLM_F_ACK_TLVS) == 0) return out;
  // struct nlmsgerr is {int error; struct nlmsghdr msg}; unless NLM_F_CAPPED, the whole
  // request follows in place of msg, and the TLVs come after it.
  std::size_t tlv_offset = sizeof(nlmsgerr);
  if ((message.flags & NLM_F_CAPPED) == 0 && message.payload.size() >= sizeof(nlmsgerr)) {
    nlmsghdr request;
    std::memcpy(&request, message.payload.data() + sizeof(error), sizeof(request));
    tlv_offset = sizeof(error) + Align4(request.nlmsg_len);
  }
  if (tlv_offset >= message.payload.size()) return out;
  auto tlvs = ParseAttributes(message.payload.subspan(tlv_offset),
                              std::string(where) + ": NLMSG_ERROR extended ack");
  if (!tlvs) return out;  // the errno is what matters; a garbled extack is not worth failing on
  if (const Attribute* text = FindAttribute(*tlvs, NLMSGERR_ATTR_MSG)) {
    if (auto s = GetString(*text, "NLMSGERR_ATTR_MSG")) out.extack = std::move(*s);
  }
  return out;
}

namespace {

// Shared by ExpectReply and ExpectDataReply; `type` 0 matches any data message.
Result<Message> FindReply(Bytes buffer, std::uint16_t type, std::string_view where) {
  auto messages = ParseMessages(buffer, where);
  if (!messages) return messages.error();
  std::optional<Message> found;
  for (const Message& m : *messages) {
    if (m.type == NLMSG_NOOP || m.type == NLMSG_DONE) continue;
    if (m.type == NLMSG_ERROR) {
      auto error = DecodeErrorMessage(m, where);
      if (!error) return error.error();
      if (error->errno_value == 0) continue;  // ACK
      std::string text =
          std::string(where) + ": kernel answered " + DescribeErrno(error->errno_value);
      if (!error->extack.empty()) text += ": " + error->extack;
      return Error{std::move(text), error->errno_value};
    }
    if (type != 0 ? m.type != type : m.type < NLMSG_MIN_TYPE) continue;
    if (found) {
      return Error{std::string(where) + ": more than one reply message (type " +
                   std::to_string(m.type) + ")"};
    }
    found = m;
  }
  if (!found) {
    const std::string wanted = type != 0 ? "of type " + std::to_string(type) : "with data";
    return Error{std::string(where) + ": no message " + wanted + " among " +
                 std::to_string(messages->size()) + " messages (" + std::to_string(buffer.size()) +
                 " bytes)"};
  }
  return *found;
}

}  // namespace

Result<Message> ExpectReply(Bytes buffer, std::uint16_t type, std::string_view where) {
  if (type == 0) return Error{std::string(where) + ": message type 0 is not a reply type"};
  return FindReply(buffer, type, where);
}

Result<Message> ExpectDataReply(Bytes buffer, std::string_view where) {
  return FindReply(buffer, 0, where);
}

}  // namespace rocewatch::netlink
