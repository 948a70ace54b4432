#pragma once

// The kernel calls, declared once. Each call the exporter makes (an ioctl, a
// netlink request, a verbs query, lldpd) is one struct below: its arguments as
// fields, what it asks the kernel (kAsks) and where its answer lives in a
// capture's kernel/ folder (Key(), the layout docs/capture.md lists). `Request`
// is the list of them, and KernelAnswers (kernel/answers.h) answers a Request.
//
// A new call is its struct here and its name in Request; the live kernel
// (kernel/live_kernel.cpp) does not compile until it has an overload for it.
// Recording (capture/record/) and replay (capture/replay/) read Key() and need
// no edit, and neither do test doubles, which answer a Request too.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <variant>

namespace rocewatch::kernel {

// A page of a module's EEPROM as ethtool netlink MODULE_EEPROM_GET addresses it.
struct ModulePage {
  std::uint8_t i2c_address = 0x50;
  std::uint8_t bank = 0;
  std::uint8_t page = 0;
  std::uint32_t offset = 0;  // 0..127 lower page, 128..255 the selected upper page
  std::uint32_t length = 128;
};

namespace call {

// --- SIOCETHTOOL ioctls: the buffer the kernel filled.

struct DriverInfo {
  static constexpr std::string_view kAsks = "SIOCETHTOOL ETHTOOL_GDRVINFO";
  std::string netdev;
  std::string Key() const { return "ethtool/" + netdev + "/drvinfo"; }
};

struct StringSetInfo {
  static constexpr std::string_view kAsks = "SIOCETHTOOL ETHTOOL_GSSET_INFO";
  std::string netdev;
  std::uint32_t set = 0;  // ETH_SS_*
  std::string Key() const { return "ethtool/" + netdev + "/sset_info." + std::to_string(set); }
};

struct Strings {
  static constexpr std::string_view kAsks = "SIOCETHTOOL ETHTOOL_GSTRINGS";
  std::string netdev;
  std::uint32_t set = 0;
  std::uint32_t count = 0;  // entries asked for (GSSET_INFO's answer); not part of the key
  std::string Key() const { return "ethtool/" + netdev + "/strings." + std::to_string(set); }
};

struct Stats {
  static constexpr std::string_view kAsks = "SIOCETHTOOL ETHTOOL_GSTATS";
  std::string netdev;
  std::uint32_t count = 0;  // not part of the key
  std::string Key() const { return "ethtool/" + netdev + "/stats"; }
};

// GLINKSETTINGS after the mask-size handshake: the final buffer.
struct LinkSettings {
  static constexpr std::string_view kAsks = "SIOCETHTOOL ETHTOOL_GLINKSETTINGS";
  std::string netdev;
  std::string Key() const { return "ethtool/" + netdev + "/link_settings"; }
};

struct ModuleInfo {
  static constexpr std::string_view kAsks = "SIOCETHTOOL ETHTOOL_GMODULEINFO";
  std::string netdev;
  std::string Key() const { return "ethtool/" + netdev + "/module_info"; }
};

struct ModuleEeprom {
  static constexpr std::string_view kAsks = "SIOCETHTOOL ETHTOOL_GMODULEEEPROM";
  std::string netdev;
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  std::string Key() const {
    return "ethtool/" + netdev + "/module_eeprom." + std::to_string(offset) + "." +
           std::to_string(length);
  }
};

// --- rtnetlink RTM_GETDCB: the reply message.

struct DcbIeee {
  static constexpr std::string_view kAsks = "rtnetlink RTM_GETDCB DCB_CMD_IEEE_GET";
  std::string netdev;
  std::string Key() const { return "dcbnl/" + netdev + "/ieee"; }
};

struct DcbDcbx {
  static constexpr std::string_view kAsks = "rtnetlink RTM_GETDCB DCB_CMD_GDCBX";
  std::string netdev;
  std::string Key() const { return "dcbnl/" + netdev + "/dcbx"; }
};

// --- generic netlink "ethtool": the reply message.

struct LinkState {
  static constexpr std::string_view kAsks = "ethtool netlink ETHTOOL_MSG_LINKSTATE_GET";
  std::string netdev;
  std::string Key() const { return "ethtool-netlink/" + netdev + "/linkstate"; }
};

struct Pause {
  static constexpr std::string_view kAsks = "ethtool netlink ETHTOOL_MSG_PAUSE_GET with stats";
  std::string netdev;
  std::string Key() const { return "ethtool-netlink/" + netdev + "/pause"; }
};

struct Fec {
  static constexpr std::string_view kAsks = "ethtool netlink ETHTOOL_MSG_FEC_GET with stats";
  std::string netdev;
  std::string Key() const { return "ethtool-netlink/" + netdev + "/fec"; }
};

struct ModuleEepromPage {
  static constexpr std::string_view kAsks = "ethtool netlink ETHTOOL_MSG_MODULE_EEPROM_GET";
  std::string netdev;
  ModulePage page{};
  std::string Key() const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "/module_eeprom.a%02x.b%u.p%02x.o%u.l%u", page.i2c_address,
                  page.bank, page.page, page.offset, page.length);
    return "ethtool-netlink/" + netdev + buf;
  }
};

// --- RDMA netlink (NETLINK_RDMA, nldev): the reply message.

// RDMA_NLDEV_CMD_STAT_GET for one port: every hw counter the port has enabled, optional ones
// included (netlink/rdma_stat.h). The live kernel finds the device's index by name first (a
// RDMA_NLDEV_CMD_GET dump); the answer is the STAT_GET reply. EPROTONOSUPPORT where the
// kernel has no RDMA netlink (ib_core not loaded).
struct RdmaStat {
  static constexpr std::string_view kAsks = "rdma netlink RDMA_NLDEV_CMD_STAT_GET";
  std::string device;  // the RDMA device
  std::uint32_t port = 0;
  std::string Key() const {
    return "rdma-netlink/" + device + "/" + std::to_string(port) + "/stat";
  }
};

// RDMA_NLDEV_CMD_STAT_GET_STATUS for one port (kernels 6.0 and later): the optional counters
// the driver has and whether each is enabled (`rdma statistic mode [supported]`).
struct RdmaStatStatus {
  static constexpr std::string_view kAsks = "rdma netlink RDMA_NLDEV_CMD_STAT_GET_STATUS";
  std::string device;
  std::uint32_t port = 0;
  std::string Key() const {
    return "rdma-netlink/" + device + "/" + std::to_string(port) + "/stat_status";
  }
};

// RDMA_NLDEV_CMD_RES_GET for one device: how many QPs, CQs, MRs, PDs, CM IDs, contexts and
// SRQs it has now (`rdma resource show`; netlink/rdma_nldev.h).
struct RdmaResourceSummary {
  static constexpr std::string_view kAsks = "rdma netlink RDMA_NLDEV_CMD_RES_GET";
  std::string device;
  std::string Key() const { return "rdma-netlink/" + device + "/res_summary"; }
};

// RDMA_NLDEV_CMD_STAT_GET with STAT_RES = RES_QP for one port: its QP-counter mode
// (`rdma statistic qp mode`; none, auto or manual).
struct RdmaCounterMode {
  static constexpr std::string_view kAsks = "rdma netlink RDMA_NLDEV_CMD_STAT_GET qp mode";
  std::string device;
  std::uint32_t port = 0;
  std::string Key() const {
    return "rdma-netlink/" + device + "/" + std::to_string(port) + "/qp_mode";
  }
};

// The same as a dump for one port: every bound counter with its QPs and hw counters
// (`rdma statistic qp show`); every message up to NLMSG_DONE.
struct RdmaBoundCounters {
  static constexpr std::string_view kAsks = "rdma netlink RDMA_NLDEV_CMD_STAT_GET qp dump";
  std::string device;
  std::uint32_t port = 0;
  std::string Key() const {
    return "rdma-netlink/" + device + "/" + std::to_string(port) + "/qp_counters";
  }
};

// RDMA_NLDEV_CMD_RES_QP_GET dump for one device: every QP with its owner (`rdma resource show
// qp`; netlink/rdma_res_qp.h); every message up to NLMSG_DONE.
struct RdmaResourceQps {
  static constexpr std::string_view kAsks = "rdma netlink RDMA_NLDEV_CMD_RES_QP_GET dump";
  std::string device;
  std::string Key() const { return "rdma-netlink/" + device + "/res_qp"; }
};

// RDMA_NLDEV_CMD_GET_CHARDEV "uverbs" for one device: its verbs character device and the
// driver id libibverbs binds its provider by (netlink/rdma_nldev.h); asked only for a device
// whose sysfs names no driver (rxe, siw), once per inventory.
struct RdmaUverbsChardev {
  static constexpr std::string_view kAsks = "rdma netlink RDMA_NLDEV_CMD_GET_CHARDEV uverbs";
  std::string device;
  std::string Key() const { return "rdma-netlink/" + device + "/uverbs_chardev"; }
};

// --- libibverbs ibv_query_port: the struct ibv_port_attr it filled, as bytes.
// ENODEV when there is no such verbs device (no RDMA stack: not an error).

struct VerbsPortAttr {
  static constexpr std::string_view kAsks = "libibverbs ibv_query_port";
  std::string device;  // the RDMA device
  std::uint32_t port = 0;
  std::string Key() const { return "verbs/" + device + "/port" + std::to_string(port); }
};

// --- lldpd through liblldpctl (kernel/lldpctl_client.h): every neighbour as json0 text
// (lldp/neighbors_json.h).

struct LldpNeighbors {
  static constexpr std::string_view kAsks = "lldpd through liblldpctl";
  std::string socket;  // lldpd's control socket, "" for liblldpctl's default; not in the key
  std::string Key() const { return "lldp/neighbors.json"; }
};

}  // namespace call

// Every call, one alternative each.
using Request = std::variant<call::DriverInfo, call::StringSetInfo, call::Strings, call::Stats,
                             call::LinkSettings, call::ModuleInfo, call::ModuleEeprom,
                             call::DcbIeee, call::DcbDcbx, call::LinkState, call::Pause,
                             call::Fec, call::ModuleEepromPage, call::RdmaStat, call::RdmaStatStatus,
                             call::RdmaResourceSummary, call::RdmaCounterMode,
                             call::RdmaBoundCounters, call::RdmaResourceQps, call::RdmaUverbsChardev, call::VerbsPortAttr,
                             call::LldpNeighbors>;

// Where the answer to `request` lives under a capture's kernel/ folder.
std::string KeyOf(const Request& request);
// What `request` asks the kernel ("SIOCETHTOOL ETHTOOL_GSTATS"), for logs and tests.
std::string_view AsksOf(const Request& request);

}  // namespace rocewatch::kernel
