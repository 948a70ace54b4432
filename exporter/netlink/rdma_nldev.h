#pragma once

// RDMA netlink (NETLINK_RDMA, the "nldev" client; kernel drivers/infiniband/core/nldev.c,
// constants from include/uapi/rdma/rdma_netlink.h): the requests, the device list, and the
// resource summary. The counters are in rdma_stat.h. Pure builders and decoders over bytes.
//
// A message's nlmsg_type is RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, command) = (5 << 10) + command;
// there is no family header: attributes follow the nlmsghdr. Devices are addressed by
// RDMA_NLDEV_ATTR_DEV_INDEX (u32), which only a RDMA_NLDEV_CMD_GET dump maps to names;
// ports by RDMA_NLDEV_ATTR_PORT_INDEX (u32, from 1 as in sysfs).
//
// RDMA_NLDEV_CMD_RES_GET for one device answers (fill_res_info):
//   DEV_INDEX u32, DEV_NAME string,
//   RES_SUMMARY nest { RES_SUMMARY_ENTRY nest { _ENTRY_NAME string, _ENTRY_CURR u64 } ... }
// with one entry per restrack type the kernel names ("pd", "cq", "qp", "cm_id", "mr",
// "ctx", "srq"); `rdma resource show` prints the same.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "exporter/netlink/messages.h"
#include "rocewatch/result.h"

namespace rocewatch::rdma_nl {

// nlmsg_type of an nldev command (RDMA_NL_GET_TYPE).
std::uint16_t MessageType(std::uint8_t command);

// A device as nldev names it (fill_nldev_handle: DEV_INDEX then DEV_NAME).
struct DeviceHandle {
  std::uint32_t index = 0;
  std::string name;
};

// RDMA_NLDEV_CMD_GET with NLM_F_DUMP: every RDMA device of the namespace.
std::vector<std::uint8_t> BuildDeviceDumpRequest(std::uint32_t seq);
// RDMA_NLDEV_CMD_STAT_GET for one port: every enabled hw counter (default counter).
std::vector<std::uint8_t> BuildStatRequest(std::uint32_t device_index, std::uint32_t port,
                                           std::uint32_t seq);
// RDMA_NLDEV_CMD_STAT_GET_STATUS for one port (kernels 6.0 and later): the optional
// counters the driver has and whether each is enabled.
std::vector<std::uint8_t> BuildStatStatusRequest(std::uint32_t device_index, std::uint32_t port,
                                                 std::uint32_t seq);
// RDMA_NLDEV_CMD_STAT_GET with RDMA_NLDEV_ATTR_STAT_MODE and RDMA_NLDEV_ATTR_STAT_RES =
// RDMA_NLDEV_ATTR_RES_QP: the port's QP-counter mode, the request `rdma statistic qp mode`
// sends (without STAT_MODE the kernel answers EINVAL).
std::vector<std::uint8_t> BuildCounterModeRequest(std::uint32_t device_index, std::uint32_t port,
                                                  std::uint32_t seq);
// The same as a dump (NLM_F_DUMP) for the port: every bound counter (`rdma statistic qp show`).
std::vector<std::uint8_t> BuildBoundCountersRequest(std::uint32_t device_index,
                                                    std::uint32_t port, std::uint32_t seq);
// RDMA_NLDEV_CMD_RES_GET for one device: the resource summary.
std::vector<std::uint8_t> BuildResourceSummaryRequest(std::uint32_t device_index,
                                                      std::uint32_t seq);

// RDMA_NLDEV_CMD_RES_QP_GET with NLM_F_DUMP for one device: every QP it has, with its owner
// (`rdma resource show qp`; the answer is decoded by rdma_res_qp.h).
std::vector<std::uint8_t> BuildResourceQpDumpRequest(std::uint32_t device_index,
                                                     std::uint32_t seq);

// RDMA_NLDEV_CMD_GET_CHARDEV for one device's "uverbs" character device: the kernel answers
// (nldev_get_chardev, ib_uverbs_get_nl_info) CHARDEV u64, CHARDEV_ABI u64, CHARDEV_NAME
// string ("uverbs0") and, unless the driver opts out of driver-id binding,
// UVERBS_DRIVER_ID u32: the enum rdma_driver_id of include/uapi/rdma/ib_user_ioctl_verbs.h that
// libibverbs itself binds its provider with. This is how a device without a parent device
// in sysfs (rxe, siw: no device/driver link) says which driver it is. EINVAL when ib_uverbs
// is not loaded or the index is gone.
std::vector<std::uint8_t> BuildUverbsChardevRequest(std::uint32_t device_index, std::uint32_t seq);

struct UverbsChardev {
  std::string name;                         // "uverbs0"
  std::optional<std::uint32_t> driver_id;   // absent: the driver opts out of driver-id binding
};
// The answer to BuildUverbsChardevRequest. Errors name the attribute; CHARDEV_NAME is
// required, UVERBS_DRIVER_ID is 4 bytes as the kernel puts it (8 accepted: the uapi header
// comments it as u64).
Result<UverbsChardev> DecodeUverbsChardevReply(netlink::Bytes reply);

// The answer to BuildDeviceDumpRequest: one message per device, then NLMSG_DONE. An error
// message becomes an Error with the errno as its code.
Result<std::vector<DeviceHandle>> DecodeDeviceDump(netlink::Bytes reply);

struct ResourceCount {
  std::string name;  // "qp", "cq", "mr", "pd", "ctx", "cm_id", "srq"
  std::uint64_t current = 0;
};

struct ResourceSummary {
  DeviceHandle device;
  std::vector<ResourceCount> resources;  // in the kernel's order
};

// Errors name the attribute: an entry without its name or count, a name used twice, more
// entries than the kernel has restrack types times four.
Result<ResourceSummary> DecodeResourceSummaryReply(netlink::Bytes reply);

namespace detail {

// "where: message" with the errno kept.
Error Prefixed(std::string_view where, const Error& error);
// DEV_INDEX and DEV_NAME among a message's attributes; both required.
Result<DeviceHandle> GetHandle(const std::vector<netlink::Attribute>& attributes,
                               std::string_view where);
// The attributes of the one message of nldev command `command` in `reply`.
Result<std::vector<netlink::Attribute>> NldevReply(netlink::Bytes reply, std::uint8_t command,
                                                   std::string_view where);
// The messages of nldev command `command` in a dump answer, up to NLMSG_DONE (required:
// without it the dump was cut); an NLMSG_ERROR, or an NLMSG_DONE carrying the dump's error
// (a device index the kernel does not know: EINVAL), becomes an Error with the errno as its
// code, a message of another type an Error.
Result<std::vector<netlink::Message>> DumpMessages(netlink::Bytes reply, std::uint8_t command,
                                                   std::string_view where);
// A counter or resource name as the kernel writes it: 1..64 characters, printable, no '/'.
Status CheckName(const std::string& name, std::string_view where);

}  // namespace detail

}  // namespace rocewatch::rdma_nl
