// Kernel tests: the live transport, the sources and the real roce_exporter against the
// running kernel, in a network namespace with veth pairs the test creates and deletes.
// They need root and iproute2 and skip with the reason otherwise.
//
// What this kernel's veth answers (checked here, and what the tests rely on):
//   GDRVINFO       driver "veth", version "1.0" (strscpy'd over UTS_RELEASE: the rest of
//                  the release stays behind the NUL), no firmware, no bus_info
//   GSSET_INFO     10 statistics with the default one rx and one tx queue:
//   GSTRINGS       peer_ifindex, rx_queue_0_xdp_{packets,bytes}, rx_queue_0_drops,
//                  rx_queue_0_xdp_{redirect,drops,tx,tx_errors}, tx_queue_0_xdp_{xmit,xmit_errors}
//   GSTATS         peer_ifindex = the peer's ifindex; the rx queue counters count every
//                  received packet once the receiving veth runs NAPI (GRO on, and the sender
//                  not doing TSO), zero otherwise; xdp_bytes counts each frame without its
//                  14-byte Ethernet header
//   GLINKSETTINGS  10000 Mb/s, full duplex, port TP, autoneg off, no link modes
//   LINKSTATE_GET  link 1; 0 once the peer is down; no ext_state, no SQI
//   dcbnl, PAUSE_GET, MODULE_EEPROM_GET, GMODULEINFO: EOPNOTSUPP

#include <gtest/gtest.h>
#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <regex>
#include <thread>

#include "exporter/collectors/registry.h"
#include "exporter/ethtool/driver_info.h"
#include "exporter/ethtool/link_settings.h"
#include "exporter/ethtool/string_set.h"
#include "exporter/fs/directory.h"
#include "exporter/fs/tree.h"
#include "exporter/kernel/answers.h"
#include "exporter/kernel/verbs_query.h"
#include "exporter/netlink/dcbnl.h"
#include "exporter/netlink/ethtool_fec.h"
#include "exporter/netlink/ethtool_genl.h"
#include "common/kernel_answer_harness.h"
#include "netns.h"

namespace rocewatch {
namespace {

using testing::NetNamespace;
using testing::kernel_sources::Collected;
using testing::kernel_sources::NetdevInventory;

const std::vector<std::string> kVethStrings = {"peer_ifindex",
                                               "rx_queue_0_xdp_packets",
                                               "rx_queue_0_xdp_bytes",
                                               "rx_queue_0_drops",
                                               "rx_queue_0_xdp_redirect",
                                               "rx_queue_0_xdp_drops",
                                               "rx_queue_0_xdp_tx",
                                               "rx_queue_0_xdp_tx_errors",
                                               "tx_queue_0_xdp_xmit",
                                               "tx_queue_0_xdp_xmit_errors"};

// Legacy ETHTOOL_S* feature ioctls (still mapped onto netdev features).
bool SetFeature(const char* ifname, std::uint32_t cmd, std::uint32_t on) {
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  ethtool_value v{cmd, on};
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
  ifr.ifr_data = reinterpret_cast<char*>(&v);
  bool ok = ::ioctl(fd, SIOCETHTOOL, &ifr) == 0;
  ::close(fd);
  return ok;
}

// Makes `receiver` count received packets in its rx queue statistics: veth does so only on
// its NAPI path, which it takes when GRO is on for the receiver (veth_set_features() enables
// NAPI when the GRO bit changes on a running veth: turn it off, then on) and the sender does
// no TSO (veth_skb_is_eligible_for_gro()).
bool EnableVethNapi(const char* receiver, const char* sender) {
  return SetFeature(receiver, ETHTOOL_SGRO, 0) && SetFeature(receiver, ETHTOOL_SGRO, 1) &&
         SetFeature(sender, ETHTOOL_STSO, 0);
}

// Sends `count` 60-byte broadcast frames (local experimental ethertype) out of `ifname`.
int SendFrames(const char* ifname, int count) {
  int fd = ::socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_ll addr{};
  addr.sll_family = AF_PACKET;
  addr.sll_ifindex = static_cast<int>(::if_nametoindex(ifname));
  addr.sll_halen = ETH_ALEN;
  std::memset(addr.sll_addr, 0xff, ETH_ALEN);
  std::uint8_t frame[60] = {};
  std::memset(frame, 0xff, 6);  // broadcast
  const std::uint8_t src[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
  std::memcpy(frame + 6, src, 6);
  frame[12] = 0x88;  // ETH_P_802_EX1
  frame[13] = 0xb5;
  int sent = 0;
  for (int i = 0; i < count; ++i) {
    if (::sendto(fd, frame, sizeof frame, 0, reinterpret_cast<sockaddr*>(&addr), sizeof addr) ==
        static_cast<ssize_t>(sizeof frame))
      ++sent;
  }
  ::close(fd);
  return sent;
}

// rx_queue_0_xdp_packets of `netdev` (veth's NAPI receive counter), or nullopt.
std::optional<std::uint64_t> VethNapiPackets(kernel::KernelAnswers& k, const std::string& netdev) {
  kernel::Answer sset = k.Ask(kernel::call::StringSetInfo{netdev, ETH_SS_STATS});
  if (!sset.ok()) return std::nullopt;
  auto count = ethtool::DecodeSsetInfo(sset.bytes, ETH_SS_STATS);
  if (!count.ok()) return std::nullopt;
  kernel::Answer strings = k.Ask(kernel::call::Strings{netdev, ETH_SS_STATS, *count});
  kernel::Answer stats = k.Ask(kernel::call::Stats{netdev, *count});
  if (!strings.ok() || !stats.ok()) return std::nullopt;
  auto named = ethtool::DecodeNamedStats(strings.bytes, stats.bytes);
  if (!named.ok()) return std::nullopt;
  for (const auto& stat : *named)
    if (stat.name == "rx_queue_0_xdp_packets") return stat.value;
  return std::nullopt;
}

// A fresh veth drops what it is given (noop qdisc) until linkwatch has activated it, up to a
// second after carrier-on and later under load. Sends single frames from `sender` until one
// reaches `receiver`'s NAPI counter (after EnableVethNapi); false if none did in 5 s.
bool WaitUntilVethDelivers(kernel::KernelAnswers& k, const char* sender, const char* receiver) {
  const auto start = VethNapiPackets(k, receiver);
  if (!start) return false;
  for (int i = 0; i < 500; ++i) {
    SendFrames(sender, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto now = VethNapiPackets(k, receiver);
    if (now && *now > *start) return true;
  }
  return false;
}

class VethTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string reason = testing::KernelTestSkipReason();
    if (!reason.empty()) GTEST_SKIP() << reason;
    auto ns = NetNamespace::Create("rw-test-" + std::to_string(::getpid()));
    if (!ns.ok()) GTEST_SKIP() << "cannot create a network namespace here: " << ns.error().message;
    ns_ = std::move(*ns);
    AddPair("rwv0", "rwv1");
  }

  void AddPair(const std::string& a, const std::string& b) {
    Status s = ns_->Ip({"link", "add", a, "type", "veth", "peer", "name", b});
    ASSERT_TRUE(s.ok()) << s.error().message;
    for (const auto& n : {a, b}) {
      s = ns_->Ip({"link", "set", n, "up"});
      ASSERT_TRUE(s.ok()) << s.error().message;
    }
  }

  // Runs `fn` inside the namespace with a live transport created there.
  void WithLiveKernel(const std::function<void(kernel::KernelAnswers&)>& fn) {
    Status s = ns_->RunInside([&] {
      auto live = kernel::MakeLiveKernel();
      fn(*live);
    });
    ASSERT_TRUE(s.ok()) << s.error().message;
  }

  std::unique_ptr<NetNamespace> ns_;
};

// The live /sys: the kernel-answer sources ask it whether a netdev that answered ENODEV is gone.
const fs::Tree& LiveSysfs() {
  static const fs::Tree tree("sysfs", "/sys");
  return tree;
}

Collected CollectOnce(const std::string& source_name, kernel::KernelAnswers& kernel,
                      const Inventory& inventory, std::map<std::string, std::string> options = {}) {
  Collected r;
  const collectors::CollectorInfo* info = collectors::FindCollector(source_name);
  EXPECT_NE(info, nullptr);
  if (info == nullptr) return r;
  collectors::SourceEnv env;
  env.kernel = &kernel;
  env.sysfs = &LiveSysfs();
  env.options = std::move(options);
  for (const auto& o : info->options) env.options.try_emplace(std::string(o.name), o.default_value);
  auto source = info->make(env);
  EXPECT_TRUE(source.ok());
  if (!source.ok()) return r;
  (*source)->Prepare(inventory);
  r.status.name = source_name;
  (*source)->Collect(inventory, r.snap, r.status);
  return r;
}

std::optional<double> Included(const EthtoolSnapshot& e, const std::string& name) {
  for (const auto& r : e.included)
    if (r.name == name) return r.value;
  return std::nullopt;
}

// --- the live transport and the decoders --------------------------------------------

bool Lists(fs::Directory& dir, const std::string& name) {
  auto names = dir.List();
  EXPECT_TRUE(names.ok()) << names.error().message;
  return names.ok() && std::find(names->begin(), names->end(), name) != names->end();
}

// The live /sys/class/net held open (fs/directory.h, what the collector lists on every pass
// for hot-plug): a netdev created in this namespace (a veth whose peer is in the test's
// namespace, so that deleting that namespace takes both ends) shows in the next listing of
// the same descriptor, and is gone from the one after it is deleted.
TEST_F(VethTest, HeldClassDirectorySeesANetdevComeAndGo) {
  fs::Directory net(&LiveSysfs(), "class/net");
  ASSERT_TRUE(Lists(net, "lo"));
  EXPECT_TRUE(net.held());
  const std::string name = "rwh" + std::to_string(::getpid() % 100000);
  ASSERT_FALSE(Lists(net, name));
  auto added = testing::RunCommand({"ip", "link", "add", name, "type", "veth", "peer", "name", "rwhpeer", "netns",
                                    ns_->name()});
  ASSERT_EQ(added.status, 0) << added.output;
  EXPECT_TRUE(Lists(net, name));
  EXPECT_TRUE(net.held());
  auto deleted = testing::RunCommand({"ip", "link", "del", name});
  ASSERT_EQ(deleted.status, 0) << deleted.output;
  EXPECT_FALSE(Lists(net, name));
  EXPECT_TRUE(Lists(net, "lo"));
}

TEST_F(VethTest, DriverInfoIsVeth) {
  WithLiveKernel([](kernel::KernelAnswers& k) {
    kernel::Answer a = k.Ask(kernel::call::DriverInfo{"rwv0"});
    ASSERT_TRUE(a.ok()) << a.error;
    auto info = ethtool::DecodeDriverInfo(a.bytes);
    ASSERT_TRUE(info.ok()) << info.error().message;
    EXPECT_EQ(info->driver, "veth");
    EXPECT_EQ(info->version, "1.0");
    EXPECT_EQ(info->fw_version, "");
    EXPECT_EQ(info->bus_info, "");
    EXPECT_EQ(info->n_stats, kVethStrings.size());
  });
}

TEST_F(VethTest, StatisticNamesAndValuesThatMoveWithTraffic) {
  WithLiveKernel([](kernel::KernelAnswers& k) {
    kernel::Answer sset = k.Ask(kernel::call::StringSetInfo{"rwv1", ETH_SS_STATS});
    ASSERT_TRUE(sset.ok()) << sset.error;
    auto count = ethtool::DecodeSsetInfo(sset.bytes, ETH_SS_STATS);
    ASSERT_TRUE(count.ok()) << count.error().message;
    EXPECT_EQ(*count, kVethStrings.size());
    kernel::Answer strings = k.Ask(kernel::call::Strings{"rwv1", ETH_SS_STATS, *count});
    ASSERT_TRUE(strings.ok()) << strings.error;
    auto names = ethtool::DecodeStrings(strings.bytes);
    ASSERT_TRUE(names.ok()) << names.error().message;
    EXPECT_EQ(*names, kVethStrings);

    auto read = [&] {
      kernel::Answer stats = k.Ask(kernel::call::Stats{"rwv1", *count});
      EXPECT_TRUE(stats.ok()) << stats.error;
      auto named = ethtool::DecodeNamedStats(strings.bytes, stats.bytes);
      EXPECT_TRUE(named.ok()) << (named.ok() ? "" : named.error().message);
      std::map<std::string, std::uint64_t> out;
      if (named.ok())
        for (const auto& s : *named) out[s.name] = s.value;
      return out;
    };
    auto before = read();
    EXPECT_EQ(before["peer_ifindex"], ::if_nametoindex("rwv0"));

    ASSERT_TRUE(EnableVethNapi("rwv1", "rwv0"));
    ASSERT_TRUE(WaitUntilVethDelivers(k, "rwv0", "rwv1")) << "no frame reached rwv1 in 5 s";
    before = read();
    ASSERT_EQ(SendFrames("rwv0", 20), 20);
    // NAPI runs in softirq after the send returns and adds to the counters at the end of
    // its poll: wait (bounded) for them.
    auto after = read();
    for (int i = 0;
         i < 200 && after["rx_queue_0_xdp_packets"] - before["rx_queue_0_xdp_packets"] < 20; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      after = read();
    }
    EXPECT_GE(after["rx_queue_0_xdp_packets"] - before["rx_queue_0_xdp_packets"], 20u);
    // Bytes are counted after eth_type_trans() pulled the Ethernet header: 46 of each
    // 60-byte frame. (IPv6 neighbour discovery of the fresh veths may add a few packets.)
    EXPECT_GE(after["rx_queue_0_xdp_bytes"] - before["rx_queue_0_xdp_bytes"], 20u * 46u);
    EXPECT_EQ(after["rx_queue_0_drops"], 0u);
  });
}

TEST_F(VethTest, LinkSettings10000FullDuplex) {
  WithLiveKernel([](kernel::KernelAnswers& k) {
    kernel::Answer a = k.Ask(kernel::call::LinkSettings{"rwv0"});
    ASSERT_TRUE(a.ok()) << a.error;
    auto ls = ethtool::DecodeLinkSettings(a.bytes);
    ASSERT_TRUE(ls.ok()) << ls.error().message;
    EXPECT_FALSE(ls->handshake_words);
    EXPECT_EQ(ls->speed_mbps, 10000u);
    EXPECT_EQ(ls->speed_bytes_per_second, 1250000000u);
    EXPECT_EQ(ethtool::DuplexName(ls->duplex), "full");
    EXPECT_EQ(ethtool::PortName(ls->port), "tp");
    EXPECT_FALSE(ls->autoneg);
  });
}

TEST_F(VethTest, LinkStateUpThenDownWhenThePeerGoesDown) {
  WithLiveKernel([](kernel::KernelAnswers& k) {
    kernel::Answer a = k.Ask(kernel::call::LinkState{"rwv0"});
    ASSERT_TRUE(a.ok()) << a.error;
    auto state = ethtool_nl::DecodeLinkStateReply(a.bytes);
    ASSERT_TRUE(state.ok()) << state.error().message;
    EXPECT_EQ(state->header.ifname, "rwv0");
    EXPECT_EQ(state->link, true);
    EXPECT_FALSE(state->ext_state);
  });
  Status down = ns_->Ip({"link", "set", "rwv1", "down"});
  ASSERT_TRUE(down.ok()) << down.error().message;
  WithLiveKernel([](kernel::KernelAnswers& k) {
    Collected r = CollectOnce("ethtool_netlink", k, NetdevInventory({"rwv0"}));
    EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
    ASSERT_EQ(r.snap.link_state.size(), 1u);
    EXPECT_EQ(r.snap.link_state[0].link, false);
    EXPECT_TRUE(r.snap.link_state[0].ext_state.empty());  // veth gives no reason
    EXPECT_FALSE(r.snap.link_state[0].pause_rx);          // PAUSE_GET: EOPNOTSUPP
  });
}

TEST_F(VethTest, DcbPauseAndModuleEepromAreUnsupported) {
  WithLiveKernel([](kernel::KernelAnswers& k) {
    kernel::Answer dcb = k.Ask(kernel::call::DcbIeee{"rwv0"});
    ASSERT_TRUE(dcb.ok()) << dcb.error;
    auto state = dcbnl::DecodeIeeeReply(dcb.bytes);
    ASSERT_TRUE(state.ok()) << state.error().message;
    EXPECT_FALSE(state->supported);

    kernel::Answer pause = k.Ask(kernel::call::Pause{"rwv0"});
    ASSERT_TRUE(pause.ok()) << pause.error;
    auto p = ethtool_nl::DecodePauseReply(pause.bytes);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, EOPNOTSUPP) << p.error().message;

    kernel::Answer page = k.Ask(kernel::call::ModuleEepromPage{"rwv0", kernel::ModulePage{}});
    ASSERT_TRUE(page.ok()) << page.error;
    auto eeprom = ethtool_nl::DecodeModuleEepromReply(page.bytes);
    ASSERT_FALSE(eeprom.ok());
    EXPECT_EQ(eeprom.error().code, EOPNOTSUPP) << eeprom.error().message;

    EXPECT_EQ(k.Ask(kernel::call::ModuleInfo{"rwv0"}).error, EOPNOTSUPP);

    // Through the sources: DCB reported as unsupported, no failure anywhere.
    Collected d = CollectOnce("dcb", k, NetdevInventory({"rwv0", "rwv1"}));
    EXPECT_TRUE(d.status.success) << ::testing::PrintToString(d.status.errors);
    ASSERT_EQ(d.snap.dcb.size(), 2u);
    for (const auto& s : d.snap.dcb) EXPECT_FALSE(s.supported) << s.netdev;
    Collected l = CollectOnce("ethtool_netlink", k, NetdevInventory({"rwv0"}));
    EXPECT_TRUE(l.status.success) << ::testing::PrintToString(l.status.errors);
  });
}

// veth has no get_fecparam: FEC_GET (asked with ETHTOOL_FLAG_STATS) answers EOPNOTSUPP. The fec
// source serves nothing for it, succeeds, and asks once per inventory, not once per scrape.
TEST_F(VethTest, FecIsUnsupportedAndNotAskedAgainEachScrape) {
  WithLiveKernel([](kernel::KernelAnswers& live) {
    kernel::Answer a = live.Ask(kernel::call::Fec{"rwv0"});
    ASSERT_TRUE(a.ok()) << a.error;
    auto fec = ethtool_nl::DecodeFecReply(a.bytes);
    ASSERT_FALSE(fec.ok());
    EXPECT_EQ(fec.error().code, EOPNOTSUPP) << fec.error().message;

    struct Counting final : kernel::KernelAnswers {
      explicit Counting(kernel::KernelAnswers& k) : inner(k) {}
      kernel::KernelAnswers& inner;
      int fec_calls = 0;
      kernel::Answer Ask(const kernel::Request& r) override {
        if (std::holds_alternative<kernel::call::Fec>(r)) ++fec_calls;
        return inner.Ask(r);
      }
    } counting(live);
    testing::kernel_sources::SourceUnderTest source("fec", counting);
    const Inventory inventory = NetdevInventory({"rwv0", "rwv1"});
    for (int pass = 0; pass < 3; ++pass) {
      auto p = source.Collect(inventory);
      EXPECT_TRUE(p.status.success) << ::testing::PrintToString(p.status.errors);
      EXPECT_TRUE(p.status.errors.empty());
      EXPECT_TRUE(p.snap.fec.empty());
      EXPECT_TRUE(source.Page(p.snap).empty()) << source.Page(p.snap);
    }
    EXPECT_EQ(counting.fec_calls, 2);  // one per veth, on the first pass only
  });
}

TEST_F(VethTest, NoRdmaDeviceMeansNoVerbsSeries) {
  kernel::Answer a = kernel::QueryVerbsPort("rw_no_such_device", 1);
  EXPECT_EQ(a.error, ENODEV);
  Inventory inv;
  inv.devices.push_back(DeviceRef{"rw_no_such_device", "", "", "", "", {PortRef{1, "", "", ""}}});
  auto live = kernel::MakeLiveKernel();
  Collected r = CollectOnce("verbs", *live, inv);
  EXPECT_TRUE(r.status.success);
  EXPECT_TRUE(r.status.errors.empty()) << ::testing::PrintToString(r.status.errors);
  EXPECT_TRUE(r.snap.verbs.empty());
}

TEST_F(VethTest, EthtoolSourceOnTheLiveKernel) {
  WithLiveKernel([](kernel::KernelAnswers& k) {
    ASSERT_TRUE(EnableVethNapi("rwv1", "rwv0"));
    ASSERT_TRUE(WaitUntilVethDelivers(k, "rwv0", "rwv1")) << "no frame reached rwv1 in 5 s";
    const collectors::CollectorInfo* info = collectors::FindCollector("ethtool");
    ASSERT_NE(info, nullptr);
    collectors::SourceEnv env;
    env.kernel = &k;
    env.sysfs = &LiveSysfs();
    env.options = {{"metrics-include", "^(rx_queue_0_xdp_packets|peer_ifindex)$"}};
    auto source = info->make(env);
    ASSERT_TRUE(source.ok()) << source.error().message;
    const Inventory inv = NetdevInventory({"rwv0", "rwv1"});
    (*source)->Prepare(inv);
    auto collect = [&] {
      Collected r;
      (*source)->Collect(inv, r.snap, r.status);
      EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
      return r;
    };
    Collected before = collect();
    ASSERT_EQ(before.snap.ethtool.size(), 2u);
    const EthtoolSnapshot& e0 = before.snap.ethtool[0];
    EXPECT_EQ(e0.driver, "veth");
    EXPECT_EQ(e0.speed_bytes_per_second, 1.25e9);
    EXPECT_EQ(e0.duplex, "full");
    EXPECT_EQ(e0.connector, "tp");
    EXPECT_EQ(e0.autoneg, false);
    EXPECT_EQ(Included(e0, "peer_ifindex"), static_cast<double>(::if_nametoindex("rwv1")));
    EXPECT_TRUE(e0.per_priority.empty());
    EXPECT_TRUE(e0.port.empty());
    ASSERT_EQ(SendFrames("rwv0", 30), 30);
    auto rx_before = Included(before.snap.ethtool[1], "rx_queue_0_xdp_packets");
    ASSERT_TRUE(rx_before);
    std::optional<double> rx_after;
    for (int i = 0; i < 200 && (!rx_after || *rx_after - *rx_before < 30); ++i) {
      if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      Collected after = collect();
      ASSERT_EQ(after.snap.ethtool.size(), 2u);
      rx_after = Included(after.snap.ethtool[1], "rx_queue_0_xdp_packets");
    }
    ASSERT_TRUE(rx_after);
    EXPECT_GE(*rx_after - *rx_before, 30);
  });
}

// --- the real exporter in the namespace ---------------------------------------------

std::optional<double> Sample(const std::string& body, const std::string& series) {
  std::size_t at = 0;
  while ((at = body.find(series, at)) != std::string::npos) {
    if (at == 0 || body[at - 1] == '\n') {
      std::size_t end = body.find('\n', at);
      std::string line = body.substr(at, end - at);
      if (line.size() > series.size() && line[series.size()] == ' ') {
        return std::stod(line.substr(series.size() + 1));
      }
    }
    at += series.size();
  }
  return std::nullopt;
}

TEST_F(VethTest, ExporterServesVethsAndSurvivesOneVanishing) {
  AddPair("rwv2", "rwv3");
  auto exporter = testing::ChildProcess::StartInNamespace(
      *ns_, {ROCE_EXPORTER_BIN, "--netdev-include=^rwv", "--web.listen-address=127.0.0.1:0"});
  ASSERT_TRUE(exporter.ok()) << exporter.error().message;
  auto line = (*exporter)->WaitForLine("msg=listening", std::chrono::seconds(20));
  ASSERT_TRUE(line.ok()) << line.error().message;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(*line, m, std::regex("address=127\\.0\\.0\\.1:([0-9]+)"))) << *line;
  const int port = std::stoi(m[1]);

  std::string first;
  Status s = ns_->RunInside([&] {
    auto body = testing::HttpGet(port, "/metrics");
    ASSERT_TRUE(body.ok()) << body.error().message;
    first = *body;
  });
  ASSERT_TRUE(s.ok()) << s.error().message;
  for (const char* n : {"rwv0", "rwv1", "rwv2", "rwv3"}) {
    const std::string prefix = std::string("roce_ethtool_driver_info{netdev=\"") + n +
                               "\",driver=\"veth\",version=\"1.0\",";
    EXPECT_NE(first.find(prefix), std::string::npos) << prefix << "\n" << first;
    EXPECT_EQ(Sample(first, std::string("roce_dcb_supported{netdev=\"") + n + "\"}"), 0) << n;
    EXPECT_EQ(Sample(first,
                     std::string("roce_ethtool_link_speed_bytes_per_second{netdev=\"") + n + "\"}"),
              1.25e9)
        << n;
    EXPECT_EQ(Sample(first, std::string("roce_link_detected{netdev=\"") + n + "\"}"), 1) << n;
  }
  for (const char* c : {"ethtool", "dcb", "ethtool_netlink", "verbs"}) {
    EXPECT_EQ(
        Sample(first, std::string("roce_exporter_collector_success{collector=\"") + c + "\"}"), 1)
        << c;
  }

  // Scrape continuously while rwv2 (and with it its peer rwv3) is deleted.
  std::atomic<bool> stop{false};
  std::vector<std::string> bodies;
  std::string scrape_error;
  std::thread scraper([&] {
    Status inside = ns_->RunInside([&] {
      while (!stop.load()) {
        auto body = testing::HttpGet(port, "/metrics");
        if (!body.ok()) {
          scrape_error = body.error().message;
          return;
        }
        bodies.push_back(std::move(*body));
      }
    });
    if (!inside.ok()) scrape_error = inside.error().message;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Status del = ns_->Ip({"link", "del", "rwv2"});
  std::string last;
  for (int i = 0; i < 100 && del.ok(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Status inside = ns_->RunInside([&] {
      auto body = testing::HttpGet(port, "/metrics");
      if (body.ok()) last = *body;
    });
    if (!last.empty() && last.find("netdev=\"rwv2\"") == std::string::npos) break;
  }
  stop = true;
  scraper.join();
  ASSERT_TRUE(del.ok()) << del.error().message;
  EXPECT_TRUE(scrape_error.empty()) << scrape_error;
  EXPECT_FALSE(bodies.empty());

  // Every scrape, during the deletion too, was a success for the kernel collectors.
  for (const auto& body : bodies) {
    for (const char* c : {"ethtool", "dcb", "ethtool_netlink", "verbs"}) {
      EXPECT_EQ(
          Sample(body, std::string("roce_exporter_collector_success{collector=\"") + c + "\"}"), 1)
          << c;
    }
  }
  // Afterwards: the deleted pair's series are gone, the other pair is still served.
  ASSERT_FALSE(last.empty());
  EXPECT_EQ(last.find("netdev=\"rwv2\""), std::string::npos);
  EXPECT_EQ(last.find("netdev=\"rwv3\""), std::string::npos);
  for (const char* n : {"rwv0", "rwv1"}) {
    EXPECT_NE(
        last.find(std::string("roce_ethtool_driver_info{netdev=\"") + n + "\",driver=\"veth\""),
        std::string::npos)
        << n;
    EXPECT_EQ(Sample(last, std::string("roce_dcb_supported{netdev=\"") + n + "\"}"), 0) << n;
    EXPECT_EQ(Sample(last, std::string("roce_link_detected{netdev=\"") + n + "\"}"), 1) << n;
  }
  EXPECT_EQ(Sample(last, "roce_exporter_collector_success{collector=\"dcb\"}"), 1);
}

}  // namespace
}  // namespace rocewatch
