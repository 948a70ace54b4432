// The running kernel: SIOCETHTOOL ioctls on a datagram socket, rtnetlink and
// generic netlink through libnl-3 sockets. Requests are built and replies
// decoded elsewhere; this file only moves bytes, with a timeout on every
// netlink wait so that a reply that never comes cannot stall a scrape.

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <variant>

#include "exporter/ethtool/driver_info.h"
#include "exporter/ethtool/link_settings.h"
#include "exporter/ethtool/string_set.h"
#include "exporter/kernel/answers.h"
#include "exporter/kernel/lldpctl_client.h"
#include "exporter/kernel/verbs_query.h"
#include "exporter/netlink/dcbnl.h"
#include "exporter/netlink/ethtool_fec.h"
#include "exporter/netlink/ethtool_genl.h"
#include "exporter/netlink/messages.h"
#include "exporter/netlink/rdma_nldev.h"

namespace rocewatch::kernel {
namespace {

Answer Fail(int err) { return Answer{{}, err}; }

// One libnl socket of a netlink protocol, connected lazily.
class NetlinkChannel {
 public:
  explicit NetlinkChannel(int protocol) : protocol_(protocol) {}
  ~NetlinkChannel() {
    if (sock_ != nullptr) nl_socket_free(sock_);
  }
  NetlinkChannel(const NetlinkChannel&) = delete;
  NetlinkChannel& operator=(const NetlinkChannel&) = delete;

  nl_sock* socket() { return Connect() == 0 ? sock_ : nullptr; }
  std::uint32_t NextSeq() { return ++seq_; }

  // Sends `request` (with sequence number `seq`) and returns the first reply
  // datagram carrying that sequence number, or the errno (ETIMEDOUT).
  Answer Ask(const std::vector<std::uint8_t>& request, std::uint32_t seq, int timeout_ms) {
    int err = Connect();
    if (err != 0) return Fail(err);
    if (nl_sendto(sock_, const_cast<std::uint8_t*>(request.data()), request.size()) < 0)
      return Fail(EIO);
    return Receive(seq, timeout_ms);
  }

  // A dump: every datagram answering `seq` until one holds NLMSG_DONE or an NLMSG_ERROR,
  // concatenated (at most kMaxDumpBytes).
  Answer AskDump(const std::vector<std::uint8_t>& request, std::uint32_t seq, int timeout_ms) {
    static constexpr std::size_t kMaxDumpBytes = 4 << 20;
    Answer all = Ask(request, seq, timeout_ms);
    if (!all.ok()) return all;
    while (!EndsDump(all.bytes)) {
      if (all.bytes.size() > kMaxDumpBytes) return Fail(EMSGSIZE);
      Answer more = Receive(seq, timeout_ms);
      if (!more.ok()) return more;
      all.bytes.insert(all.bytes.end(), more.bytes.begin(), more.bytes.end());
    }
    return all;
  }

 private:
  // The last message of `bytes` is NLMSG_DONE or NLMSG_ERROR (or the bytes do not parse).
  static bool EndsDump(const std::vector<std::uint8_t>& bytes) {
    auto messages = netlink::ParseMessages(bytes, "dump");
    if (!messages || messages->empty()) return true;
    const std::uint16_t type = messages->back().type;
    return type == NLMSG_DONE || type == NLMSG_ERROR;
  }

  // The next datagram carrying `seq`, without sending anything (skipping stale replies to an
  // earlier request that timed out).
  Answer Receive(std::uint32_t seq, int timeout_ms) {
    int fd = nl_socket_get_fd(sock_);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      if (left <= 0) return Fail(ETIMEDOUT);
      pollfd pfd{fd, POLLIN, 0};
      int rc = ::poll(&pfd, 1, static_cast<int>(left));
      if (rc < 0 && errno == EINTR) continue;
      if (rc < 0) return Fail(errno);
      if (rc == 0) return Fail(ETIMEDOUT);
      sockaddr_nl from{};
      unsigned char* buf = nullptr;
      int n = nl_recv(sock_, &from, &buf, nullptr);
      if (n <= 0) {
        std::free(buf);
        return Fail(n == 0 ? ECONNRESET : EIO);
      }
      std::vector<std::uint8_t> bytes(buf, buf + n);
      std::free(buf);
      if (bytes.size() >= sizeof(nlmsghdr)) {
        nlmsghdr hdr;
        std::memcpy(&hdr, bytes.data(), sizeof hdr);
        if (hdr.nlmsg_seq != seq) continue;
      }
      return Answer{std::move(bytes), 0};
    }
  }

  int Connect() {
    if (sock_ != nullptr) return 0;
    sock_ = nl_socket_alloc();
    if (sock_ == nullptr) return ENOMEM;
    nl_socket_disable_seq_check(sock_);
    if (nl_connect(sock_, protocol_) < 0) {
      // socket() refuses a protocol no module registered (NETLINK_RDMA without ib_core):
      // keep that errno, the caller falls back; anything else reads as ECONNREFUSED.
      const int refused = errno == EPROTONOSUPPORT ? EPROTONOSUPPORT : ECONNREFUSED;
      nl_socket_free(sock_);
      sock_ = nullptr;
      return refused;
    }
    nl_socket_set_buffer_size(sock_, 1 << 20, 0);
    // Ask for the kernel's error text too (extended ACK): drivers explain
    // refusals there ("Transceiver module not inserted").
    int one = 1;
    ::setsockopt(nl_socket_get_fd(sock_), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof one);
    return 0;
  }

  int protocol_;
  nl_sock* sock_ = nullptr;
  std::uint32_t seq_ = 0;
};

class LiveKernel final : public KernelAnswers {
 public:
  explicit LiveKernel(LiveOptions options)
      : options_(options), route_(NETLINK_ROUTE), genl_(NETLINK_GENERIC), rdma_(NETLINK_RDMA) {
    ioctl_fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  }
  ~LiveKernel() override {
    if (ioctl_fd_ >= 0) ::close(ioctl_fd_);
  }

  Answer Ask(const Request& request) override {
    return std::visit([this](const auto& c) { return Do(c); }, request);
  }

 private:
  // One overload per call of kernel/calls.h: a call without one does not compile.
  Answer Do(const call::DriverInfo& c) {
    return Ioctl(c.netdev, ethtool::BuildDriverInfoRequest());
  }
  Answer Do(const call::StringSetInfo& c) {
    return Ioctl(c.netdev, ethtool::BuildSsetInfoRequest(c.set));
  }
  Answer Do(const call::Strings& c) {
    auto req = ethtool::BuildStringsRequest(c.set, c.count, kHeadroom);
    if (!req) return Fail(EINVAL);
    return Ioctl(c.netdev, std::move(*req));
  }
  Answer Do(const call::Stats& c) {
    auto req = ethtool::BuildStatsRequest(c.count, kHeadroom);
    if (!req) return Fail(EINVAL);
    return Ioctl(c.netdev, std::move(*req));
  }
  Answer Do(const call::LinkSettings& c) {
    Answer first = Ioctl(c.netdev, ethtool::BuildLinkSettingsRequest(0));
    if (!first.ok()) return first;
    auto decoded = ethtool::DecodeLinkSettings(first.bytes);
    if (!decoded || !decoded->handshake_words) return first;
    return Ioctl(c.netdev, ethtool::BuildLinkSettingsRequest(*decoded->handshake_words));
  }
  Answer Do(const call::ModuleInfo& c) {
    ethtool_modinfo info{};
    info.cmd = ETHTOOL_GMODULEINFO;
    std::vector<std::uint8_t> buf(sizeof info);
    std::memcpy(buf.data(), &info, sizeof info);
    return Ioctl(c.netdev, std::move(buf));
  }
  Answer Do(const call::ModuleEeprom& c) {
    if (c.length > 4096) return Fail(EINVAL);
    ethtool_eeprom hdr{};
    hdr.cmd = ETHTOOL_GMODULEEEPROM;
    hdr.offset = c.offset;
    hdr.len = c.length;
    std::vector<std::uint8_t> buf(sizeof hdr + c.length);
    std::memcpy(buf.data(), &hdr, sizeof hdr);
    return Ioctl(c.netdev, std::move(buf));
  }

  Answer Do(const call::DcbIeee& c) {
    std::lock_guard<std::mutex> lock(route_mu_);
    std::uint32_t seq = route_.NextSeq();
    auto req = dcbnl::BuildIeeeGetRequest(c.netdev, seq);
    if (!req) return Fail(EINVAL);
    return route_.Ask(*req, seq, options_.netlink_timeout_ms);
  }
  Answer Do(const call::DcbDcbx& c) {
    std::lock_guard<std::mutex> lock(route_mu_);
    std::uint32_t seq = route_.NextSeq();
    auto req = dcbnl::BuildDcbxGetRequest(c.netdev, seq);
    if (!req) return Fail(EINVAL);
    return route_.Ask(*req, seq, options_.netlink_timeout_ms);
  }

  Answer Do(const call::LinkState& c) {
    std::lock_guard<std::mutex> lock(genl_mu_);
    int family = EthtoolFamily();
    if (family < 0) return Fail(-family);
    // The link-down count needs ETHTOOL_FLAG_STATS, which kernels before 6.2
    // refuse on LINKSTATE with EINVAL: ask with it once, and without after that.
    for (bool with_stats : {linkstate_stats_, false}) {
      std::uint32_t seq = genl_.NextSeq();
      auto req = ethtool_nl::BuildLinkStateRequest(static_cast<std::uint16_t>(family), c.netdev,
                                                   seq, with_stats);
      if (!req) return Fail(EINVAL);
      Answer a = genl_.Ask(*req, seq, options_.netlink_timeout_ms);
      if (!with_stats || !a.ok() || ReplyErrno(a.bytes) != EINVAL) return a;
      linkstate_stats_ = false;
    }
    return Fail(EINVAL);
  }
  Answer Do(const call::Pause& c) {
    std::lock_guard<std::mutex> lock(genl_mu_);
    int family = EthtoolFamily();
    if (family < 0) return Fail(-family);
    std::uint32_t seq = genl_.NextSeq();
    auto req = ethtool_nl::BuildPauseRequest(static_cast<std::uint16_t>(family), c.netdev, seq);
    if (!req) return Fail(EINVAL);
    return genl_.Ask(*req, seq, options_.netlink_timeout_ms);
  }
  Answer Do(const call::Fec& c) {
    std::lock_guard<std::mutex> lock(genl_mu_);
    int family = EthtoolFamily();
    if (family < 0) return Fail(-family);
    // The FEC statistics need ETHTOOL_FLAG_STATS, which kernels before 5.14 refuse on
    // FEC_GET with EINVAL: ask with it once, and without after that.
    for (bool with_stats : {fec_stats_, false}) {
      std::uint32_t seq = genl_.NextSeq();
      auto req = ethtool_nl::BuildFecRequest(static_cast<std::uint16_t>(family), c.netdev, seq,
                                             with_stats);
      if (!req) return Fail(EINVAL);
      Answer a = genl_.Ask(*req, seq, options_.netlink_timeout_ms);
      if (!with_stats || !a.ok() || ReplyErrno(a.bytes) != EINVAL) return a;
      fec_stats_ = false;
    }
    return Fail(EINVAL);
  }
  Answer Do(const call::ModuleEepromPage& c) {
    std::lock_guard<std::mutex> lock(genl_mu_);
    int family = EthtoolFamily();
    if (family < 0) return Fail(-family);
    std::uint32_t seq = genl_.NextSeq();
    ethtool_nl::ModuleEepromRequest r;
    r.offset = c.page.offset;
    r.length = c.page.length;
    r.page = c.page.page;
    r.bank = c.page.bank;
    r.i2c_address = c.page.i2c_address;
    auto req =
        ethtool_nl::BuildModuleEepromRequest(static_cast<std::uint16_t>(family), c.netdev, r, seq);
    if (!req) return Fail(EINVAL);
    return genl_.Ask(*req, seq, options_.netlink_timeout_ms);
  }

  Answer Do(const call::RdmaStat& c) {
    std::lock_guard<std::mutex> lock(rdma_mu_);
    return AskRdmaPort(c.device, [&](std::uint32_t index, std::uint32_t seq) {
      return rdma_nl::BuildStatRequest(index, c.port, seq);
    });
  }
  Answer Do(const call::RdmaStatStatus& c) {
    std::lock_guard<std::mutex> lock(rdma_mu_);
    return AskRdmaPort(c.device, [&](std::uint32_t index, std::uint32_t seq) {
      return rdma_nl::BuildStatStatusRequest(index, c.port, seq);
    });
  }

  Answer Do(const call::RdmaResourceSummary& c) {
    std::lock_guard<std::mutex> lock(rdma_mu_);
    return AskRdmaPort(c.device, [&](std::uint32_t index, std::uint32_t seq) {
      return rdma_nl::BuildResourceSummaryRequest(index, seq);
    });
  }
  Answer Do(const call::RdmaCounterMode& c) {
    std::lock_guard<std::mutex> lock(rdma_mu_);
    return AskRdmaPort(c.device, [&](std::uint32_t index, std::uint32_t seq) {
      return rdma_nl::BuildCounterModeRequest(index, c.port, seq);
    });
  }
  Answer Do(const call::RdmaBoundCounters& c) {
    std::lock_guard<std::mutex> lock(rdma_mu_);
    return AskRdmaPort(
        c.device,
        [&](std::uint32_t index, std::uint32_t seq) {
          return rdma_nl::BuildBoundCountersRequest(index, c.port, seq);
        },
        /*dump=*/true);
  }
  Answer Do(const call::RdmaResourceQps& c) {
    std::lock_guard<std::mutex> lock(rdma_mu_);
    return AskRdmaPort(
        c.device,
        [&](std::uint32_t index, std::uint32_t seq) {
          return rdma_nl::BuildResourceQpDumpRequest(index, seq);
        },
        /*dump=*/true);
  }

  Answer Do(const call::RdmaUverbsChardev& c) {
    std::lock_guard<std::mutex> lock(rdma_mu_);
    return AskRdmaPort(c.device, [&](std::uint32_t index, std::uint32_t seq) {
      return rdma_nl::BuildUverbsChardevRequest(index, seq);
    });
  }

  // An nldev request about `device`, which nldev addresses by index: the name is looked up
  // first (a RDMA_NLDEV_CMD_GET dump), and again when the device was renamed or re-registered.
  // A dump request collects every datagram up to NLMSG_DONE.
  template <class Build>
  Answer AskRdmaPort(const std::string& device, Build build, bool is_dump = false) {
    auto index = rdma_indexes_.find(device);
    if (index == rdma_indexes_.end()) {
      if (Answer looked = LookUpRdmaIndexes(); !looked.ok()) return looked;
      index = rdma_indexes_.find(device);
      if (index == rdma_indexes_.end()) return Fail(ENODEV);
    }
    const std::uint32_t asked = index->second;
    auto ask = [&](std::uint32_t i) {
      std::uint32_t seq = rdma_.NextSeq();
      return is_dump ? rdma_.AskDump(build(i, seq), seq, options_.netlink_timeout_ms)
                     : rdma_.Ask(build(i, seq), seq, options_.netlink_timeout_ms);
    };
    Answer a = ask(asked);
    if (!a.ok()) {
      rdma_indexes_.erase(device);
      return a;
    }
    // An index the kernel no longer knows answers EINVAL (ib_device_get_by_index finds no
    // device; `rdma link delete` then `add` gives the name a new index), on some paths ENODEV.
    // Look the names up again, and ask once more where the device has a new index: it serves
    // in this scrape, not only after the exporter restarts. Where the index is unchanged the
    // EINVAL was the kernel's answer to the request.
    const int err = ReplyErrno(a.bytes);
    if (err != EINVAL && err != ENODEV) return a;
    if (Answer looked = LookUpRdmaIndexes(); !looked.ok()) return a;
    index = rdma_indexes_.find(device);
    if (index == rdma_indexes_.end() || index->second == asked) return a;
    return ask(index->second);
  }

  // Replaces the RDMA device name -> nldev index map with a fresh RDMA_NLDEV_CMD_GET dump.
  Answer LookUpRdmaIndexes() {
    std::uint32_t seq = rdma_.NextSeq();
    Answer dump = rdma_.AskDump(rdma_nl::BuildDeviceDumpRequest(seq), seq,
                                options_.netlink_timeout_ms);
    if (!dump.ok()) return dump;
    auto devices = rdma_nl::DecodeDeviceDump(dump.bytes);
    if (!devices) return devices.error().code != 0 ? Fail(devices.error().code) : Fail(EPROTO);
    rdma_indexes_.clear();
    for (const auto& d : *devices) rdma_indexes_[d.name] = d.index;
    return dump;
  }

  Answer Do(const call::VerbsPortAttr& c) { return QueryVerbsPort(c.device, c.port); }

  Answer Do(const call::LldpNeighbors& c) { return QueryLldpNeighbors(c.socket); }

  // Extra entries in GSTRINGS/GSTATS buffers in case the driver's set grew
  // between GSSET_INFO and the read.
  static constexpr std::uint32_t kHeadroom = 64;

  Answer Ioctl(const std::string& netdev, std::vector<std::uint8_t> buf) {
    if (ioctl_fd_ < 0) return Fail(EBADF);
    if (netdev.empty() || netdev.size() >= IFNAMSIZ) return Fail(EINVAL);
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, netdev.data(), netdev.size());
    ifr.ifr_data = reinterpret_cast<char*>(buf.data());
    if (::ioctl(ioctl_fd_, SIOCETHTOOL, &ifr) != 0) return Fail(errno);
    return Answer{std::move(buf), 0};
  }

  // The generic netlink id of "ethtool" (resolved once), or -errno.
  int EthtoolFamily() {
    if (family_ != 0) return family_;
    nl_sock* sock = genl_.socket();
    if (sock == nullptr) return -ECONNREFUSED;
    int id = genl_ctrl_resolve(sock, "ethtool");
    // Kernels before 5.6 have no ethtool netlink family.
    family_ = id > 0 ? id : -EOPNOTSUPP;
    return family_;
  }

  // The errno of an NLMSG_ERROR reply, or of the NLMSG_DONE that ends a failed dump; 0 for
  // anything else (and for a DONE status that is no errno: -4095 and below).
  static int ReplyErrno(const std::vector<std::uint8_t>& bytes) {
    auto messages = netlink::ParseMessages(bytes, "reply");
    if (!messages) return 0;
    for (const auto& m : *messages) {
      if (m.type == NLMSG_ERROR) {
        auto err = netlink::DecodeErrorMessage(m, "reply");
        return err ? err->errno_value : 0;
      }
      if (m.type == NLMSG_DONE) {
        if (m.payload.size() < sizeof(std::int32_t)) return 0;
        std::int32_t status = 0;
        std::memcpy(&status, m.payload.data(), sizeof status);
        return status < 0 && status > -4096 ? -status : 0;
      }
    }
    return 0;
  }

  LiveOptions options_;
  bool linkstate_stats_ = true;
  bool fec_stats_ = true;
  int ioctl_fd_ = -1;
  std::mutex route_mu_, genl_mu_, rdma_mu_;
  NetlinkChannel route_, genl_, rdma_;
  std::map<std::string, std::uint32_t> rdma_indexes_;  // RDMA device name -> nldev index
  int family_ = 0;
};

}  // namespace

std::unique_ptr<KernelAnswers> MakeLiveKernel(LiveOptions options) {
  return std::make_unique<LiveKernel>(options);
}

}  // namespace rocewatch::kernel
