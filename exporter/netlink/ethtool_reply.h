#pragma once

// What the ethtool genetlink requests and replies share (ethtool_genl.cpp, ethtool_fec.cpp):
// the request start with its nested ETHTOOL_A_*_HEADER, the reply's attributes after its
// genlmsghdr, and the reply header. Internal to rocewatch::netlink.

#include <cstdint>
#include <string_view>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "exporter/netlink/ethtool_genl.h"
#include "exporter/netlink/message_builder.h"
#include "exporter/netlink/messages.h"
#include "rocewatch/result.h"

namespace rocewatch::ethtool_nl::detail {

// `error` with "where: " in front, its errno kept.
Error Prefixed(std::string_view where, const Error& error);

// nlmsghdr, genlmsghdr {cmd, ETHTOOL_GENL_VERSION} and the nested header `header_attr`
// with ETHTOOL_A_HEADER_DEV_NAME `ifname` and, when not 0, ETHTOOL_A_HEADER_FLAGS `flags`.
Result<netlink::MessageBuilder> StartRequest(std::uint16_t family_id, std::uint8_t cmd,
                                             std::uint16_t header_attr, std::string_view ifname,
                                             std::uint32_t flags, std::uint32_t seq,
                                             std::string_view what);

// The attributes of a genetlink message after checking its command is `cmd`.
Result<std::vector<netlink::Attribute>> GenlAttributes(const netlink::Message& message,
                                                       std::uint8_t cmd, std::string_view where);

// The attributes of one ethtool reply (a data message, or the errno of an NLMSG_ERROR).
Result<std::vector<netlink::Attribute>> EthtoolReply(netlink::Bytes reply, std::uint8_t cmd,
                                                     std::string_view where);

// The nested ETHTOOL_A_*_HEADER of a reply.
Result<ReplyHeader> DecodeHeader(const netlink::Attribute& nest, std::string_view name);

}  // namespace rocewatch::ethtool_nl::detail
