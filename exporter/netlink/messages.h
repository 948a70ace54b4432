#pragma once

// Walking a buffer of netlink messages (what one recv() on a netlink socket returns):
// struct nlmsghdr {u32 len; u16 type; u16 flags; u32 seq; u32 pid} followed by the
// payload, each message padded to NLMSG_ALIGN (4). Control messages: NLMSG_DONE ends a
// dump, NLMSG_ERROR carries struct nlmsgerr {int error (-errno, 0 = ACK); struct nlmsghdr
// request} and, with NLM_F_ACK_TLVS, extended-ack attributes (NLMSGERR_ATTR_MSG text).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "rocewatch/result.h"

namespace rocewatch::netlink {

struct Message {
  std::uint16_t type = 0;
  std::uint16_t flags = 0;
  std::uint32_t seq = 0;
  std::uint32_t port_id = 0;
  Bytes payload;  // nlmsg_len - 16 bytes, without padding
};

// Splits `buffer` into messages; rejects an nlmsg_len below the header or past the buffer.
Result<std::vector<Message>> ParseMessages(Bytes buffer, std::string_view where);

struct KernelError {
  int errno_value = 0;  // positive errno; 0 is an ACK
  std::string extack;   // NLMSGERR_ATTR_MSG when the kernel sent one, else ""
};

// Decodes an NLMSG_ERROR message's payload.
Result<KernelError> DecodeErrorMessage(const Message& message, std::string_view where);

// The one data message of type `type` in a reply buffer. An NLMSG_ERROR with a non-zero
// error becomes an Error whose code is the (positive) errno and whose message names the
// errno and the kernel's extack text; ACKs, NLMSG_NOOP and NLMSG_DONE are skipped. An Error
// (code 0) when no message of `type` is present or a second one is.
Result<Message> ExpectReply(Bytes buffer, std::uint16_t type, std::string_view where);

// The same for the one data message of any type at or above NLMSG_MIN_TYPE: a genetlink
// reply whose family id the decoder is not told.
Result<Message> ExpectDataReply(Bytes buffer, std::string_view where);

}  // namespace rocewatch::netlink
