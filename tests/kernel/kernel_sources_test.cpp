// The kernel-answer sources (ethtool, dcb, ethtool_netlink, verbs) on the replayed
// fixtures (tests/fixtures/README.md "Kernel answers" lists every value asserted here),
// and on answers that are bad in the ways a real node's can be: a truncated GSTATS, a
// dcbnl reply whose PFC attribute has the wrong length, a netdev that vanished, a kernel
// without the ethtool netlink family, a capture without the call.

#include <gtest/gtest.h>
#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "common/fixture_collector.h"
#include "common/fixture_paths.h"
#include "common/rendered_text.h"
#include "common/test_dir.h"
#include "exporter/capture/files/capture_files.h"
#include "exporter/collectors/dcb/collector.h"
#include "exporter/collectors/ethtool/collector.h"
#include "exporter/collectors/ethtool_netlink/collector.h"
#include "exporter/collectors/rdma/collector.h"
#include "exporter/collectors/registry.h"
#include "exporter/inventory/inventory.h"
#include "exporter/kernel/answers.h"
#include "exporter/pass/runner.h"
#include "netlink/kernel_skb.h"

namespace rocewatch {
namespace {

using rocewatch::testing::FixtureDir;
using rocewatch::testing::TestDir;
namespace stdfs = std::filesystem;

// --- harness ------------------------------------------------------------------------

Inventory FixtureInventory(const std::string& dir) {
  fs::Tree sysfs("sysfs", dir + "/sys");
  return Discover(sysfs, DiscoverOptions{}, 1);
}

Inventory NetdevInventory(std::initializer_list<const char*> names) {
  Inventory inv;
  inv.generation = 1;
  for (const char* n : names)
    inv.netdevs.push_back(NetdevRef{n, "devices/virtual/net/" + std::string(n), "", 0});
  return inv;
}

struct Collected {
  NodeSnapshot snap;
  SourceStatus status;
};

// A source built from the registry (as the collector builds it), kept across collections.
class SourceUnderTest {
 public:
  SourceUnderTest(const std::string& name, kernel::KernelAnswers& kernel,
                  std::map<std::string, std::string> options = {})
      : sysfs_("sysfs", "/nonexistent") {
    const collectors::CollectorInfo* info = collectors::FindCollector(name);
    EXPECT_NE(info, nullptr) << name;
    collectors::SourceEnv env;
    env.sysfs = &sysfs_;
    env.configfs = &sysfs_;
    env.debugfs = &sysfs_;
    env.kernel = &kernel;
    env.options = WithDefaults(*info, std::move(options));
    auto made = info->make(env);
    EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.error().message);
    if (made.ok()) source_ = std::move(*made);
    name_ = name;
  }

  Collected Collect(const Inventory& inventory) {
    if (inventory.generation != prepared_) {
      source_->Prepare(inventory);
      prepared_ = inventory.generation;
    }
    Collected r;
    r.status.name = name_;
    source_->Collect(inventory, r.snap, r.status);
    return r;
  }

 private:
  fs::Tree sysfs_;
  std::unique_ptr<collectors::Source> source_;
  std::string name_;
  std::uint64_t prepared_ = 0;
};

// The replay of a fixture, counting the calls and letting a test rewrite answers.
class CountingKernel final : public kernel::KernelAnswers {
 public:
  explicit CountingKernel(std::string dir) : inner_(kernel::MakeReplayKernel(std::move(dir))) {}

  std::map<std::string, int> calls;
  std::function<void(const std::string& call, const std::string& netdev, kernel::Answer&)> rewrite;

  // Counts the call as its capture key names it (ethtool/<netdev>/<call>[.<set>]): "drvinfo",
  // "sset_info", "strings", "stats", "ieee", "linkstate"…
  kernel::Answer Ask(const kernel::Request& r) override {
    const std::string key = kernel::KeyOf(r);
    const std::size_t first = key.find('/'), last = key.rfind('/');
    const std::string netdev = key.substr(first + 1, last - first - 1);
    const std::string call = key.substr(last + 1, key.find('.', last) - last - 1);
    kernel::Answer a = inner_->Ask(r);
    calls[call] += 1;
    if (rewrite) rewrite(call, netdev, a);
    return a;
  }

 private:
  std::unique_ptr<kernel::KernelAnswers> inner_;
};

// A writable copy of a fixture's kernel/ answers.
void CopyKernelAnswers(const std::string& fixture, const TestDir& dir) {
  stdfs::copy(fixture + "/kernel", dir / "kernel", stdfs::copy_options::recursive);
}

void WriteBytes(const TestDir& dir, const std::string& key,
                const std::vector<std::uint8_t>& bytes) {
  Status s = kernel::WriteAnswer(dir.path(), key, kernel::Answer{bytes, 0});
  ASSERT_TRUE(s.ok()) << s.error().message;
}

void WriteErrno(const TestDir& dir, const std::string& key, int err) {
  stdfs::remove(stdfs::path(dir.path()) / "kernel" / key);
  Status s = kernel::WriteAnswer(dir.path(), key, kernel::Answer{{}, err});
  ASSERT_TRUE(s.ok()) << s.error().message;
}

template <class T>
const T* FindNetdev(const std::vector<T>& v, const std::string& netdev) {
  for (const auto& x : v)
    if (x.netdev == netdev) return &x;
  return nullptr;
}

std::optional<double> Priority(const EthtoolSnapshot& e, int priority, const std::string& direction,
                               const std::string& kind) {
  std::optional<double> found;
  for (const auto& p : e.per_priority) {
    if (p.priority == priority && ethtool::DirectionName(p.direction) == direction &&
        ethtool::PriorityKindName(p.kind) == kind) {
      EXPECT_FALSE(found) << "duplicate " << kind << " priority " << priority;
      found = p.value;
    }
  }
  return found;
}

std::optional<double> Port(const EthtoolSnapshot& e, const std::string& kind) {
  std::optional<double> found;
  for (const auto& p : e.port) {
    if (p.spec->kind == kind) {
      EXPECT_FALSE(found) << "duplicate " << kind;
      found = p.value;
    }
  }
  return found;
}

bool AnyErrorHas(const SourceStatus& s, const std::string& a, const std::string& b) {
  return std::any_of(s.errors.begin(), s.errors.end(), [&](const std::string& e) {
    return e.find(a) != std::string::npos && e.find(b) != std::string::npos;
  });
}

// Crafted SIOCETHTOOL answers, laid out as the kernel fills them.
std::vector<std::uint8_t> DriverInfoBytes(const std::string& driver, std::uint32_t n_stats) {
  ethtool_drvinfo d{};
  d.cmd = ETHTOOL_GDRVINFO;
  std::memcpy(d.driver, driver.data(), driver.size());
  d.n_stats = n_stats;
  std::vector<std::uint8_t> out(sizeof d);
  std::memcpy(out.data(), &d, sizeof d);
  return out;
}

std::vector<std::uint8_t> SsetInfoBytes(std::uint32_t count) {
  std::vector<std::uint8_t> out(sizeof(ethtool_sset_info) + 4, 0);
  ethtool_sset_info h{};
  h.cmd = ETHTOOL_GSSET_INFO;
  h.sset_mask = 1u << ETH_SS_STATS;
  std::memcpy(out.data(), &h, sizeof h);
  std::memcpy(out.data() + sizeof h, &count, 4);
  return out;
}

std::vector<std::uint8_t> StringsBytes(const std::vector<std::string>& names) {
  ethtool_gstrings h{};
  h.cmd = ETHTOOL_GSTRINGS;
  h.string_set = ETH_SS_STATS;
  h.len = static_cast<std::uint32_t>(names.size());
  std::vector<std::uint8_t> out(sizeof h + names.size() * ETH_GSTRING_LEN, 0);
  std::memcpy(out.data(), &h, sizeof h);
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::memcpy(out.data() + sizeof h + i * ETH_GSTRING_LEN, names[i].data(), names[i].size());
  }
  return out;
}

std::vector<std::uint8_t> StatsBytes(const std::vector<std::uint64_t>& values) {
  ethtool_stats h{};
  h.cmd = ETHTOOL_GSTATS;
  h.n_stats = static_cast<std::uint32_t>(values.size());
  std::vector<std::uint8_t> out(sizeof h + values.size() * 8);
  std::memcpy(out.data(), &h, sizeof h);
  std::memcpy(out.data() + sizeof h, values.data(), values.size() * 8);
  return out;
}

// dcbnl_ieee_fill() for a driver with ieee_getpfc and an APP table (test-only mirror).
std::vector<std::uint8_t> DcbReply(const std::string& ifname, std::size_t pfc_bytes,
                                   const std::vector<dcb_app>& apps) {
  testing::KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(4242, 1, RTM_GETDCB, sizeof(dcbmsg), NLM_F_REQUEST);
  dcbmsg header{};
  header.dcb_family = AF_UNSPEC;
  header.cmd = DCB_CMD_IEEE_GET;
  skb.SetFamilyHeader(m, header);
  skb.NlaPutString(DCB_ATTR_IFNAME, ifname);
  const std::size_t ieee = skb.NestStartNoflag(DCB_ATTR_IEEE);
  ieee_pfc pfc{};
  pfc.pfc_cap = 8;
  pfc.pfc_en = 1u << 3;
  std::vector<std::uint8_t> pfc_raw(std::max(pfc_bytes, sizeof pfc), 0);
  std::memcpy(pfc_raw.data(), &pfc, sizeof pfc);
  skb.NlaPut(DCB_ATTR_IEEE_PFC, pfc_raw.data(), pfc_bytes);
  const std::size_t app = skb.NestStartNoflag(DCB_ATTR_IEEE_APP_TABLE);
  for (const dcb_app& a : apps) skb.NlaPutStruct(DCB_ATTR_IEEE_APP, a);
  skb.NestEnd(app);
  skb.NestEnd(ieee);
  skb.NlaPutU8(DCB_ATTR_DCBX, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
  skb.NlmsgEnd(m);
  return skb.bytes();
}

std::size_t SamplesOf(const lint::observe::Exposition& text, const std::string& name) {
  return text.SamplesOf(name).size();
}

constexpr const char* kRoceNetdevs[] = {"ens1f0np0", "ens2f0np0", "ens3f0np0", "ens4f0np0"};

// --- ethtool ------------------------------------------------------------------------

TEST(EthtoolSource, Mlx5RoceDriverLinkAndClassifiedStatistics) {
  const std::string dir = FixtureDir("mlx5-roce");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("ethtool", *kernel, {{"metrics-include", "^rx0_packets$"}});
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  EXPECT_TRUE(r.status.errors.empty()) << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.ethtool.size(), 4u);

  const EthtoolSnapshot* e = FindNetdev(r.snap.ethtool, "ens1f0np0");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->driver_info_read);
  EXPECT_EQ(e->driver, "mlx5_core");
  EXPECT_EQ(e->version, "6.8.0-60-generic");
  EXPECT_EQ(e->firmware, "28.39.2048 (MT_0000000838)");
  EXPECT_EQ(e->bus_info, "0000:17:00.0");
  EXPECT_EQ(e->speed_bytes_per_second, 50e9);  // 400000 Mb/s
  EXPECT_EQ(e->duplex, "full");
  EXPECT_EQ(e->connector, "fibre");
  EXPECT_EQ(e->autoneg, false);

  // PFC on priority 3 only: mlx5 lists pause counters for enabled priorities only.
  EXPECT_EQ(Priority(*e, 3, "rx", "pause_frames"), 1284551);
  EXPECT_EQ(Priority(*e, 3, "tx", "pause_frames"), 417902);
  EXPECT_EQ(Priority(*e, 3, "rx", "pause_duration_seconds"), 93.118224);  // 93118224 µs
  EXPECT_EQ(Priority(*e, 3, "tx", "pause_duration_seconds"), 30.551208);
  EXPECT_EQ(Priority(*e, 3, "rx", "pause_transitions"), 1191044);
  EXPECT_FALSE(Priority(*e, 0, "rx", "pause_frames"));
  EXPECT_EQ(Priority(*e, 3, "rx", "bytes"), 19160085336064.0);
  EXPECT_EQ(Priority(*e, 6, "tx", "packets"), 2916005);  // CNPs sent = np_cnp_sent
  EXPECT_EQ(Priority(*e, 3, "rx", "ecn_marked"), 2917734);
  EXPECT_EQ(Priority(*e, 0, "rx", "discards"), 2291);
  EXPECT_EQ(Priority(*e, 3, "rx", "discards"), 0);

  EXPECT_EQ(Port(*e, "rx_discarded_packets"), 2291);
  EXPECT_EQ(Port(*e, "link_down_events"), 1);
  EXPECT_EQ(Port(*e, "tx_pause_storm_warning_events"), 0);
  EXPECT_EQ(Port(*e, "pcie_outbound_read_stalled_ratio"), 0.02);  // 2 percent
  EXPECT_EQ(Port(*e, "rx_fec_corrected_bit_errors"), 1820331);

  ASSERT_EQ(e->included.size(), 1u);
  EXPECT_EQ(e->included[0].name, "rx0_packets");
  EXPECT_EQ(e->included[0].value, 48211977);

  const EthtoolSnapshot* storm = FindNetdev(r.snap.ethtool, "ens4f0np0");
  ASSERT_NE(storm, nullptr);
  EXPECT_EQ(Port(*storm, "tx_pause_storm_warning_events"), 4);
  EXPECT_EQ(Port(*storm, "tx_pause_storm_error_events"), 1);
  EXPECT_EQ(Priority(*storm, 3, "tx", "pause_duration_seconds"), 911.284377);

  const EthtoolSnapshot* down = FindNetdev(r.snap.ethtool, "ens3f0np0");
  ASSERT_NE(down, nullptr);
  EXPECT_FALSE(down->speed_bytes_per_second);  // SPEED_UNKNOWN
  EXPECT_EQ(down->duplex, "unknown");
  EXPECT_EQ(Port(*down, "link_down_events"), 9);
}

TEST(EthtoolSource, PerQueueStatisticsOnlyWhenIncluded) {
  const std::string dir = FixtureDir("mlx5-roce");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("ethtool", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  ASSERT_EQ(r.snap.ethtool.size(), 4u);
  for (const auto& e : r.snap.ethtool) EXPECT_TRUE(e.included.empty()) << e.netdev;
}

TEST(EthtoolSource, InvalidIncludeRegexIsAnError) {
  auto kernel = kernel::MakeReplayKernel(FixtureDir("empty"));
  const collectors::CollectorInfo* info = collectors::FindCollector("ethtool");
  ASSERT_NE(info, nullptr);
  collectors::SourceEnv env;
  env.kernel = kernel.get();
  env.options = {{"metrics-include", "rx[0-"}};
  auto made = info->make(env);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.error().message.find("--collector.ethtool.metrics-include=rx[0-"),
            std::string::npos)
      << made.error().message;
}

TEST(EthtoolSource, IpoibNetdevs) {
  const std::string dir = FixtureDir("mlx5-ib");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("ethtool", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  const EthtoolSnapshot* up = FindNetdev(r.snap.ethtool, "ibp23s0");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->driver, "mlx5_core[ib_ipoib]");
  EXPECT_EQ(up->connector, "other");
  EXPECT_EQ(up->speed_bytes_per_second, 50e9);
  EXPECT_FALSE(Priority(*up, 3, "rx", "pause_frames"));  // no PFC on InfiniBand
  const EthtoolSnapshot* init = FindNetdev(r.snap.ethtool, "ibp61s0");
  ASSERT_NE(init, nullptr);
  EXPECT_FALSE(init->speed_bytes_per_second);
}

TEST(EthtoolSource, ClassifiesOnceAndRereadsNamesWhenTheCountChanges) {
  const std::string dir = FixtureDir("mlx5-roce");
  CountingKernel kernel(dir);
  SourceUnderTest source("ethtool", kernel);
  const Inventory inv = FixtureInventory(dir);
  source.Collect(inv);
  Collected r = source.Collect(inv);
  EXPECT_TRUE(r.status.success);
  EXPECT_EQ(kernel.calls["strings"], 4);  // once per netdev, not per scrape
  EXPECT_EQ(kernel.calls["sset_info"], 4);
  EXPECT_EQ(kernel.calls["stats"], 8);
  EXPECT_EQ(kernel.calls["drvinfo"], 8);

  // The driver now reports another n_stats for ens2f0np0 (channels changed): its names are
  // read again, the others are not.
  kernel.rewrite = [](const std::string& call, const std::string& netdev, kernel::Answer& a) {
    if (call == "drvinfo" && netdev == "ens2f0np0") {
      std::uint32_t n = 999;
      std::memcpy(a.bytes.data() + offsetof(ethtool_drvinfo, n_stats), &n, sizeof n);
    }
  };
  r = source.Collect(inv);
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  EXPECT_EQ(kernel.calls["strings"], 5);
  EXPECT_EQ(r.snap.ethtool.size(), 4u);
}

TEST(EthtoolSource, SeveralNamesForOneSeriesGiveOneSeriesFirstWins) {
  TestDir dir;
  const std::vector<std::string> names = {"rx_prio3_pause",  "rx_priority_3_xoff.nic",
                                          "rx_discards_phy", "rx_discards_phy",
                                          "rx0_packets",     "rx0_packets"};
  WriteBytes(dir, kernel::call::DriverInfo{"eth9"}.Key(), DriverInfoBytes("test", 6));
  WriteBytes(dir, kernel::call::StringSetInfo{"eth9", ETH_SS_STATS}.Key(), SsetInfoBytes(6));
  WriteBytes(dir, kernel::call::Strings{"eth9", ETH_SS_STATS}.Key(), StringsBytes(names));
  WriteBytes(dir, kernel::call::Stats{"eth9"}.Key(), StatsBytes({10, 20, 30, 40, 50, 60}));
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("ethtool", *kernel, {{"metrics-include", "^rx0_"}});
  Collected r = source.Collect(NetdevInventory({"eth9"}));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.ethtool.size(), 1u);
  const EthtoolSnapshot& e = r.snap.ethtool[0];
  EXPECT_EQ(Priority(e, 3, "rx", "pause_frames"), 10);
  EXPECT_EQ(Port(e, "rx_discarded_packets"), 30);
  ASSERT_EQ(e.included.size(), 1u);
  EXPECT_EQ(e.included[0].value, 50);
  EXPECT_FALSE(e.speed_bytes_per_second);  // link settings not captured: no series

  // And the rendered families carry each series once.
  auto families = testing::RenderText(collectors::RenderEthtool, r.snap);
  EXPECT_EQ(SamplesOf(families, "roce_pfc_pause_frames_total"), 1u);
  EXPECT_EQ(SamplesOf(families, "roce_ethtool_rx_discarded_packets_total"), 1u);
  EXPECT_EQ(SamplesOf(families, "roce_ethtool_stat_total"), 1u);
}

// The priorities of a per-priority family's samples for one netdev.
std::set<std::string> PrioritiesOf(const lint::observe::Exposition& text,
                                   const std::string& name, const std::string& netdev) {
  std::set<std::string> out;
  for (std::uint32_t i : text.Find(name, "netdev", netdev))
    out.insert(std::string(text.LabelValue(text.samples()[i], "priority").value_or("")));
  return out;
}

lint::observe::Exposition RenderEthtoolOf(const NodeSnapshot& snap) {
  return testing::RenderText(collectors::RenderEthtool, snap);
}

TEST(EthtoolMetrics, PerPrioritySeriesOnlyForPrioritiesInUseByDefault) {
  // mlx5-roce: PFC on 3; the default DSCPs in use 26 and 48 map to 3 and 6; priority 0
  // carries the node's other traffic (non-zero bytes and 2,291 discards). 1, 2, 4, 5 and 7
  // count nothing: no series.
  const std::string dir = FixtureDir("mlx5-roce");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest ethtool("ethtool", *kernel);
  SourceUnderTest dcb("dcb", *kernel);
  Collected r = ethtool.Collect(FixtureInventory(dir));
  Collected d = dcb.Collect(FixtureInventory(dir));
  r.snap.dcb = d.snap.dcb;
  const std::set<std::string> in_use = {"0", "3", "6"};
  auto families = RenderEthtoolOf(r.snap);
  for (const char* family : {"roce_priority_bytes_total", "roce_priority_packets_total",
                             "roce_priority_discards_total", "roce_priority_ecn_marked_packets_total"})
    EXPECT_EQ(PrioritiesOf(families, family, "ens1f0np0"), in_use) << family;
  EXPECT_EQ(PrioritiesOf(families, "roce_pfc_pause_frames_total", "ens1f0np0"),
            std::set<std::string>{"3"});

  // A pause counted on priority 5 (PFC off there, no DSCP in use): its series is served,
  // the signal RoCEPauseOnNonPFCPriority and counters.pause-on-non-pfc look for.
  NodeSnapshot paused = r.snap;
  for (auto& e : paused.ethtool)
    if (e.netdev == "ens1f0np0")
      e.per_priority.push_back({5, ethtool::Direction::kRx, ethtool::PriorityKind::kPauseFrames, 12});
  EXPECT_EQ(PrioritiesOf(RenderEthtoolOf(paused), "roce_pfc_pause_frames_total", "ens1f0np0"),
            (std::set<std::string>{"3", "5"}));
  EXPECT_EQ(PrioritiesOf(RenderEthtoolOf(paused), "roce_priority_bytes_total", "ens1f0np0"),
            (std::set<std::string>{"0", "3", "5", "6"}));

  // Another DSCP in use (--collector.dcb.dscps) serves the priority it maps to.
  SourceUnderTest dcb10("dcb", *kernel, {{"dscps", "10"}});
  NodeSnapshot other = r.snap;
  other.dcb = dcb10.Collect(FixtureInventory(dir)).snap.dcb;
  // PFC on 3, traffic on 0, CNPs counted on 6; 10 maps to 1, which counts nothing.
  std::set<std::string> expected = {"0", "3", "6"};
  for (const auto& dc : other.dcb)
    if (dc.netdev == "ens1f0np0")
      for (const auto& m : dc.dscp_priority)
        if (m.dscp == 10) expected.insert(std::to_string(m.priority));
  EXPECT_EQ(expected.size(), 4u);
  EXPECT_EQ(PrioritiesOf(RenderEthtoolOf(other), "roce_priority_bytes_total", "ens1f0np0"), expected);

  // Without the dcb section PFC state is unknown: all eight.
  NodeSnapshot no_dcb = r.snap;
  no_dcb.dcb.clear();
  EXPECT_EQ(PrioritiesOf(RenderEthtoolOf(no_dcb), "roce_priority_bytes_total", "ens1f0np0").size(), 8u);

  // --collector.ethtool.all-priorities: all eight with the dcb section too.
  SourceUnderTest all("ethtool", *kernel, {{"all-priorities", "true"}});
  Collected ra = all.Collect(FixtureInventory(dir));
  ra.snap.dcb = d.snap.dcb;
  auto all_families = RenderEthtoolOf(ra.snap);
  EXPECT_EQ(PrioritiesOf(all_families, "roce_priority_bytes_total", "ens1f0np0").size(), 8u);
  EXPECT_EQ(PrioritiesOf(all_families, "roce_priority_discards_total", "ens1f0np0").size(), 8u);

  collectors::SourceEnv env;
  env.kernel = kernel.get();
  env.options = {{"all-priorities", "yes"}};
  auto made = collectors::FindCollector("ethtool")->make(env);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.error().message.find("--collector.ethtool.all-priorities"), std::string::npos)
      << made.error().message;
}

// Samples of `name` for one netdev.
std::size_t NetdevSamples(const lint::observe::Exposition& text, const std::string& name,
                          const std::string& netdev) {
  return text.Find(name, "netdev", netdev).size();
}

// The rdma renderer serves every counter the source read (the source reads only what
// collectors/rdma/default_counters.h serves: RdmaCollector.ReadsTheDetailCountersOnlyWithTheirOptions)
// and leaves out a RoCE v1 GID entry that repeats a RoCE v2 entry, unless
// --collector.rdma.all-gids; a v1 entry without a v2 twin stays.
TEST(RdmaMetrics, CountersAsReadAndRoceV1TwinsOnlyWithAllGids) {
  auto set = [](std::vector<std::string> names) {
    CounterSet c;
    c.values.assign(names.size(), 0);
    c.names = std::make_shared<const std::vector<std::string>>(std::move(names));
    return c;
  };
  const std::vector<std::string> hw = {"np_cnp_sent", "rx_write_requests", "req_cqe_error"};
  const std::vector<std::string> counters = {"link_downed", "unicast_rcv_packets"};
  DeviceSnapshot d;
  d.name = "mlx5_0";
  d.driver = "mlx5_core";
  PortSnapshot p;
  p.number = 1;
  p.link_layer = "Ethernet";
  p.netdev = "ens1f0np0";
  p.hw_counters = set(hw);
  p.counters = set(counters);
  p.gids = {{0, "fe80::1", "IB/RoCE v1", p.netdev, "fe80::1"},
            {1, "fe80::1", "RoCE v2", p.netdev, "fe80::1"},
            {2, "fe80::2", "IB/RoCE v1", p.netdev, "fe80::2"}};
  d.ports.push_back(p);
  NodeSnapshot snap;
  snap.devices = {d};
  auto labels = [](const lint::observe::Exposition& text, const std::string& name, const std::string& key) {
    std::set<std::string> out;
    for (std::uint32_t i : text.Find(name, "device", "mlx5_0"))
      out.insert(std::string(text.LabelValue(text.samples()[i], key).value_or("")));
    return out;
  };
  auto render = [](const NodeSnapshot& n) { return testing::RenderText(collectors::RenderRdma, n); };
  auto f = render(snap);
  using S = std::set<std::string>;
  EXPECT_EQ(labels(f, "roce_hw_stat_total", "counter"), S(hw.begin(), hw.end()));
  EXPECT_EQ(labels(f, "roce_port_stat_total", "counter"), S(counters.begin(), counters.end()));
  EXPECT_EQ(labels(f, "roce_gid_info", "index"), (S{"1", "2"}));

  NodeSnapshot all = snap;
  all.devices[0].detail.all_gids = true;
  EXPECT_EQ(labels(render(all), "roce_gid_info", "index"), (S{"0", "1", "2"}));
}

TEST(EthtoolMetrics, PortStatsThatRepeatAnotherFamilyOnlyWhileItIsServed) {
  const std::string dir = FixtureDir("mlx5-roce");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest ethtool("ethtool", *kernel);
  SourceUnderTest netlink("ethtool_netlink", *kernel);
  const std::string nd = "ens1f0np0";
  Collected r = ethtool.Collect(FixtureInventory(dir));
  const char* const rdma_traffic[] = {
      "roce_ethtool_rx_rdma_unicast_bytes_total", "roce_ethtool_rx_rdma_unicast_packets_total",
      "roce_ethtool_tx_rdma_unicast_bytes_total", "roce_ethtool_tx_rdma_unicast_packets_total"};
  const char* const pause_control[] = {"roce_ethtool_rx_pause_control_frames_total",
                                       "roce_ethtool_tx_pause_control_frames_total"};
  const char* const detail[] = {"roce_ethtool_rx_jabber_frames_total",
                                "roce_ethtool_rx_mac_control_frames_total",
                                "roce_ethtool_module_unplug_events_total",
                                "roce_ethtool_pcie_outbound_read_stalled_seconds_total"};
  // Alone (no rdma or ethtool_netlink section): the repeats are the only copy, so served;
  // the detail kinds are not; what the checks read is.
  auto alone = RenderEthtoolOf(r.snap);
  for (const char* f : rdma_traffic) EXPECT_EQ(NetdevSamples(alone, f, nd), 1u) << f;
  for (const char* f : pause_control) EXPECT_EQ(NetdevSamples(alone, f, nd), 1u) << f;
  for (const char* f : detail) EXPECT_EQ(NetdevSamples(alone, f, nd), 0u) << f;
  EXPECT_EQ(NetdevSamples(alone, "roce_ethtool_rx_discarded_packets_total", nd), 1u);
  EXPECT_EQ(NetdevSamples(alone, "roce_ethtool_link_down_events_total", nd), 1u);

  // With the RDMA port's data counters served (roce_port_*_total), the vport RDMA counters
  // are left out for that netdev only; with ethtool netlink's pause statistics, the pause
  // control frames.
  NodeSnapshot both = r.snap;
  DeviceSnapshot dev;
  dev.name = "mlx5_0";
  PortSnapshot port;
  port.number = 1;
  port.netdev = nd;
  port.received_bytes = 4;
  port.transmitted_bytes = 8;
  dev.ports.push_back(port);
  both.devices.push_back(dev);
  both.link_state = netlink.Collect(FixtureInventory(dir)).snap.link_state;
  auto trimmed = RenderEthtoolOf(both);
  for (const char* f : rdma_traffic) {
    EXPECT_EQ(NetdevSamples(trimmed, f, nd), 0u) << f;
    EXPECT_EQ(NetdevSamples(trimmed, f, "ens2f0np0"), 1u) << f;
  }
  for (const char* f : pause_control) EXPECT_EQ(NetdevSamples(trimmed, f, nd), 0u) << f;

  // --collector.ethtool.all-port-stats: everything.
  SourceUnderTest all("ethtool", *kernel, {{"all-port-stats", "true"}});
  NodeSnapshot full = both;
  full.ethtool = all.Collect(FixtureInventory(dir)).snap.ethtool;
  auto every = RenderEthtoolOf(full);
  for (const char* f : rdma_traffic) EXPECT_EQ(NetdevSamples(every, f, nd), 1u) << f;
  for (const char* f : pause_control) EXPECT_EQ(NetdevSamples(every, f, nd), 1u) << f;
  for (const char* f : detail) EXPECT_EQ(NetdevSamples(every, f, nd), 1u) << f;

  collectors::SourceEnv env;
  env.kernel = kernel.get();
  env.options = {{"all-port-stats", "1"}};
  auto made = collectors::FindCollector("ethtool")->make(env);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.error().message.find("--collector.ethtool.all-port-stats"), std::string::npos)
      << made.error().message;
}

TEST(EthtoolSource, TruncatedStatsFailOnlyThatNetdev) {
  TestDir dir;
  CopyKernelAnswers(FixtureDir("mlx5-roce"), dir);
  const std::string stats = dir / ("kernel/" + kernel::call::Stats{"ens2f0np0"}.Key());
  stdfs::resize_file(stats, 8 + 100 * 8);  // n_stats still says 1126
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("ethtool", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_FALSE(r.status.success);
  EXPECT_TRUE(AnyErrorHas(r.status, "netdev ens2f0np0", "ethtool GSTATS"))
      << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.ethtool.size(), 4u);
  const EthtoolSnapshot* broken = FindNetdev(r.snap.ethtool, "ens2f0np0");
  ASSERT_NE(broken, nullptr);
  EXPECT_EQ(broken->driver, "mlx5_core");  // what did read is still served
  EXPECT_TRUE(broken->per_priority.empty());
  for (const char* other : {"ens1f0np0", "ens3f0np0", "ens4f0np0"}) {
    const EthtoolSnapshot* e = FindNetdev(r.snap.ethtool, other);
    ASSERT_NE(e, nullptr) << other;
    EXPECT_TRUE(Priority(*e, 3, "rx", "pause_frames")) << other;
  }
}

TEST(EthtoolSource, VanishedNetdevIsLeftOutAndRediscovered) {
  TestDir dir;
  CopyKernelAnswers(FixtureDir("mlx5-roce"), dir);
  WriteErrno(dir, kernel::call::DriverInfo{"ens2f0np0"}.Key(), ENODEV);
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("ethtool", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_TRUE(r.status.success);
  EXPECT_TRUE(r.status.rediscover);
  EXPECT_EQ(r.status.vanished_total, 1);
  EXPECT_EQ(r.snap.ethtool.size(), 3u);
  EXPECT_EQ(FindNetdev(r.snap.ethtool, "ens2f0np0"), nullptr);
}

TEST(EthtoolSource, NotCapturedAndUnsupportedAreNoData) {
  TestDir dir;
  WriteErrno(dir, kernel::call::DriverInfo{"eth9"}.Key(), EOPNOTSUPP);
  WriteErrno(dir, kernel::call::LinkSettings{"eth9"}.Key(), EOPNOTSUPP);
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("ethtool", *kernel);
  Collected r = source.Collect(NetdevInventory({"eth9", "eth10"}));  // eth10: nothing captured
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  EXPECT_TRUE(r.status.errors.empty());
  for (const auto& e : r.snap.ethtool) {
    EXPECT_FALSE(e.driver_info_read);
    EXPECT_TRUE(e.per_priority.empty() && e.port.empty());
  }
}

// --- dcb ----------------------------------------------------------------------------

TEST(DcbSource, Mlx5RoceQosAsTheKernelHoldsIt) {
  const std::string dir = FixtureDir("mlx5-roce");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("dcb", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.dcb.size(), 4u);
  for (const char* n : kRoceNetdevs) {
    const DcbSnapshot* d = FindNetdev(r.snap.dcb, n);
    ASSERT_NE(d, nullptr) << n;
    EXPECT_TRUE(d->supported);
    ASSERT_TRUE(d->pfc_enabled);
    for (int p = 0; p < 8; ++p) EXPECT_EQ((*d->pfc_enabled)[p], p == 3) << n << " priority " << p;
    EXPECT_EQ(d->trust, "dscp");
  }
  const DcbSnapshot& d = *FindNetdev(r.snap.dcb, "ens1f0np0");
  EXPECT_EQ(d.pfc_capability, 8u);
  EXPECT_EQ((*d.pfc_tx_pause_frames)[3], 417902);   // = tx_prio3_pause
  EXPECT_EQ((*d.pfc_rx_pause_frames)[3], 1284551);  // = rx_prio3_pause
  EXPECT_EQ((*d.pfc_rx_pause_frames)[0], 0);
  EXPECT_EQ(*d.priority_tc, (std::array<std::uint32_t, 8>{1, 0, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ((*d.tc_tx_bandwidth_percent)[3], 100);
  EXPECT_EQ((*d.tc_tsa)[3], "vendor");
  EXPECT_EQ((*d.tc_max_rate_bytes_per_second)[3], 0);
  ASSERT_EQ(d.dscp_priority.size(), 64u);
  for (const auto& m : d.dscp_priority) {
    EXPECT_EQ(m.priority, m.dscp >> 3) << "DSCP " << m.dscp;
    EXPECT_FALSE(m.ambiguous);
  }
  auto dscp = [&](std::uint32_t v) {
    for (const auto& m : d.dscp_priority)
      if (m.dscp == v) return std::optional<std::uint32_t>(m.priority);
    return std::optional<std::uint32_t>();
  };
  EXPECT_EQ(dscp(26), 3u);  // RoCE
  EXPECT_EQ(dscp(48), 6u);  // CNP
  ASSERT_EQ(d.app_table.size(), 64u);
  EXPECT_EQ(d.app_table.front().selector, "dscp");
  EXPECT_EQ(d.app_table.front().protocol, 63u);  // dcb_app_add() puts the newest first
  ASSERT_TRUE(d.priority_buffer);
  EXPECT_EQ((*d.priority_buffer)[3], 1u);
  EXPECT_EQ((*d.priority_buffer)[0], 0u);
  EXPECT_EQ((*d.buffer_size_bytes)[1], 261888);
  EXPECT_EQ(d.buffer_total_bytes, 1048576);
  EXPECT_EQ(d.dcbx_modes, (std::vector<std::string>{"host", "cee", "ieee"}));
}

TEST(DcbSource, NetdevWithoutDcbIsUnsupportedNotFailed) {
  const std::string dir = FixtureDir("mlx5-ib");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("dcb", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success);
  EXPECT_TRUE(r.status.errors.empty()) << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.dcb.size(), 2u);
  for (const auto& d : r.snap.dcb) {
    EXPECT_FALSE(d.supported) << d.netdev;
    EXPECT_FALSE(d.pfc_enabled);
    EXPECT_TRUE(d.trust.empty());
  }
  auto text = testing::RenderText(collectors::RenderDcb, r.snap);
  ASSERT_EQ(text.families().size(), 1u);  // roce_dcb_supported only
  EXPECT_EQ(text.families()[0].name, "roce_dcb_supported");
  ASSERT_FALSE(text.samples().empty());
  EXPECT_EQ(text.samples()[0].value, 0);
}

TEST(DcbSource, WrongLengthPfcAttributeFailsOnlyThatNetdev) {
  TestDir dir;
  CopyKernelAnswers(FixtureDir("mlx5-roce"), dir);
  WriteBytes(dir, kernel::call::DcbIeee{"ens2f0np0"}.Key(), DcbReply("ens2f0np0", 100, {}));
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("dcb", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_FALSE(r.status.success);
  EXPECT_TRUE(AnyErrorHas(r.status, "netdev ens2f0np0", "DCB_ATTR_IEEE_PFC"))
      << ::testing::PrintToString(r.status.errors);
  EXPECT_EQ(FindNetdev(r.snap.dcb, "ens2f0np0"), nullptr);
  EXPECT_EQ(r.snap.dcb.size(), 3u);
  for (const auto& d : r.snap.dcb) EXPECT_TRUE(d.supported) << d.netdev;
}

// An APP table that holds the same entry more than once serves it once, in the table's order
// (the first kept); the repeat does not make its DSCP ambiguous.
// The replay of one netdev, eth9, whose dcbnl IEEE answer holds `apps`.
std::unique_ptr<kernel::KernelAnswers> Eth9WithApps(const TestDir& dir, const std::vector<dcb_app>& apps) {
  WriteBytes(dir, kernel::call::DcbIeee{"eth9"}.Key(), DcbReply("eth9", sizeof(ieee_pfc), apps));
  return kernel::MakeReplayKernel(dir.path());
}

// The dcb source's pass over eth9, which must succeed.
Collected CollectEth9(kernel::KernelAnswers& kernel, std::map<std::string, std::string> options = {}) {
  SourceUnderTest source("dcb", kernel, std::move(options));
  Collected r = source.Collect(NetdevInventory({"eth9"}));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  EXPECT_EQ(r.snap.dcb.size(), 1u);
  return r;
}

TEST(DcbSource, RepeatedAppEntriesAreOneEntryInTableOrder) {
  TestDir dir;
  auto kernel = Eth9WithApps(dir, {dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 6, 48}, dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26},
                                   dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 6, 48},
                                   dcb_app{IEEE_8021QAZ_APP_SEL_ETHERTYPE, 6, 48},
                                   dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26}});
  Collected r = CollectEth9(*kernel);
  ASSERT_EQ(r.snap.dcb.size(), 1u);
  const DcbSnapshot& d = r.snap.dcb[0];
  ASSERT_EQ(d.app_table.size(), 3u);
  EXPECT_EQ(d.app_table[0].protocol, 48u);
  EXPECT_EQ(d.app_table[0].selector, "dscp");
  EXPECT_EQ(d.app_table[1].protocol, 26u);
  EXPECT_EQ(d.app_table[2].selector, "ethertype");
  ASSERT_EQ(d.dscp_priority.size(), 2u);
  for (const auto& m : d.dscp_priority) EXPECT_FALSE(m.ambiguous) << m.dscp;
}

TEST(DcbSource, AmbiguousDscpKeepsTheFirstPriorityAndIsFlagged) {
  TestDir dir;
  auto kernel = Eth9WithApps(dir, {dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26}, dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 4, 26},
                                   dcb_app{IEEE_8021QAZ_APP_SEL_DSCP, 6, 48}});
  Collected r = CollectEth9(*kernel);
  ASSERT_EQ(r.snap.dcb.size(), 1u);
  const DcbSnapshot& d = r.snap.dcb[0];
  ASSERT_EQ(d.dscp_priority.size(), 2u);
  EXPECT_EQ(d.dscp_priority[0].dscp, 26u);
  EXPECT_EQ(d.dscp_priority[0].priority, 3u);
  EXPECT_TRUE(d.dscp_priority[0].ambiguous);
  EXPECT_FALSE(d.dscp_priority[1].ambiguous);
  EXPECT_EQ(d.dcbx_modes, (std::vector<std::string>{"host", "ieee"}));
  auto families = testing::RenderText(collectors::RenderDcb, r.snap);
  EXPECT_EQ(SamplesOf(families, "roce_dscp_priority_ambiguous"), 1u);
  EXPECT_EQ(SamplesOf(families, "roce_dscp_priority"), 2u);  // 26 and 48: --collector.dcb.dscps
  // By default the APP table is a digest (two DSCPs mapped); its entries need full-tables.
  EXPECT_EQ(SamplesOf(families, "roce_dcb_app_info"), 0u);
  EXPECT_EQ(SamplesOf(families, "roce_dcb_table_entries"), 2u);  // dscp_map, dcbx

  Collected rf = CollectEth9(*kernel, {{"full-tables", "true"}});
  auto full_families = testing::RenderText(collectors::RenderDcb, rf.snap);
  EXPECT_EQ(SamplesOf(full_families, "roce_dcb_app_info"), 3u);
  EXPECT_EQ(SamplesOf(full_families, "roce_dscp_priority"), 2u);
}

TEST(DcbSource, DefaultServesOnlyTheDscpsInUseAndTheFullMapOneFlagAway) {
  // The fixture's mlx5 maps all 64 DSCPs; rdma_cm is absent here, so the DSCPs served by
  // default are the --collector.dcb.dscps list (one DSCP given: 10).
  auto kernel = kernel::MakeReplayKernel(FixtureDir("mlx5-roce"));
  SourceUnderTest source("dcb", *kernel, {{"dscps", "10"}});
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  auto families = testing::RenderText(collectors::RenderDcb, r.snap);
  const std::size_t netdevs = r.snap.dcb.size();
  ASSERT_GT(netdevs, 0u);
  EXPECT_EQ(SamplesOf(families, "roce_dscp_priority"), netdevs);
  EXPECT_EQ(SamplesOf(families, "roce_ets_tc_tsa_info"), 0u);
  EXPECT_EQ(SamplesOf(families, "roce_dcb_priority_buffer"), 0u);

  collectors::SourceEnv env;
  env.kernel = kernel.get();
  env.options = {{"dscps", "26,64"}};  // 64 is no DSCP
  auto made = collectors::FindCollector("dcb")->make(env);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.error().message.find("--collector.dcb.dscps"), std::string::npos) << made.error().message;
}

TEST(DcbSource, VanishedNetdevIsNotAFailure) {
  TestDir dir;
  CopyKernelAnswers(FixtureDir("mlx5-roce"), dir);
  // What dcb_doit() answers for a name that is gone: NLMSG_ERROR -ENODEV.
  auto request = std::vector<std::uint8_t>(36, 0);
  testing::KernelSkb skb;
  nlmsghdr h{};
  h.nlmsg_len = 36;
  h.nlmsg_type = RTM_GETDCB;
  h.nlmsg_seq = 2;
  std::memcpy(request.data(), &h, sizeof h);
  skb.Ack(request, ENODEV);
  WriteBytes(dir, kernel::call::DcbIeee{"ens2f0np0"}.Key(), skb.bytes());
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("dcb", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  EXPECT_TRUE(r.status.rediscover);
  EXPECT_EQ(r.status.vanished_total, 1);
  EXPECT_EQ(r.snap.dcb.size(), 3u);
}

// --- ethtool netlink ----------------------------------------------------------------

TEST(EthtoolNetlinkSource, LinkStateWithDownReasonAndPause) {
  const std::string dir = FixtureDir("mlx5-roce");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("ethtool_netlink", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.link_state.size(), 4u);
  const LinkStateSnapshot* up = FindNetdev(r.snap.link_state, "ens1f0np0");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->link, true);
  EXPECT_TRUE(up->ext_state.empty());
  EXPECT_EQ(up->link_down_events, 1);
  EXPECT_EQ(up->pause_autoneg, false);
  EXPECT_EQ(up->pause_rx, false);
  EXPECT_EQ(up->pause_tx, false);
  EXPECT_EQ(up->pause_rx_frames, 0);
  EXPECT_EQ(up->pause_tx_frames, 0);
  EXPECT_FALSE(up->sqi);

  const LinkStateSnapshot* down = FindNetdev(r.snap.link_state, "ens3f0np0");
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(down->link, false);
  EXPECT_EQ(down->ext_state, "link_training_failure");
  EXPECT_EQ(down->ext_substate, "kr_frame_lock_not_acquired");
  EXPECT_EQ(down->link_down_events, 9);

  auto families = testing::RenderText(collectors::RenderLinkState, r.snap);
  EXPECT_EQ(SamplesOf(families, "roce_link_down_reason_info"), 1u);
  EXPECT_EQ(SamplesOf(families, "roce_pause_frames_total"), 8u);
}

TEST(EthtoolNetlinkSource, IpoibHasLinkButNoPause) {
  const std::string dir = FixtureDir("mlx5-ib");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("ethtool_netlink", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  EXPECT_TRUE(r.status.errors.empty());
  const LinkStateSnapshot* up = FindNetdev(r.snap.link_state, "ibp23s0");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->link, true);
  EXPECT_FALSE(up->pause_rx);  // PAUSE_GET: EOPNOTSUPP
  EXPECT_FALSE(up->link_down_events);
  const LinkStateSnapshot* init = FindNetdev(r.snap.link_state, "ibp61s0");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->link, false);
  EXPECT_TRUE(init->ext_state.empty());
}

TEST(EthtoolNetlinkSource, KernelWithoutTheEthtoolFamilyServesNothingAndSucceeds) {
  TestDir dir;
  for (const char* n : kRoceNetdevs) {
    WriteErrno(dir, kernel::call::LinkState{n}.Key(), EOPNOTSUPP);  // what the live transport
    WriteErrno(dir, kernel::call::Pause{n}.Key(), EOPNOTSUPP);      // answers without the family
  }
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("ethtool_netlink", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_TRUE(r.status.success);
  EXPECT_TRUE(r.status.errors.empty());
  EXPECT_TRUE(r.snap.link_state.empty());
}

TEST(EthtoolNetlinkSource, TruncatedReplyFailsOnlyThatNetdev) {
  TestDir dir;
  CopyKernelAnswers(FixtureDir("mlx5-roce"), dir);
  stdfs::resize_file(dir / ("kernel/" + kernel::call::LinkState{"ens4f0np0"}.Key()), 30);
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("ethtool_netlink", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_FALSE(r.status.success);
  EXPECT_TRUE(AnyErrorHas(r.status, "netdev ens4f0np0", "LINKSTATE_GET"))
      << ::testing::PrintToString(r.status.errors);
  const LinkStateSnapshot* broken = FindNetdev(r.snap.link_state, "ens4f0np0");
  ASSERT_NE(broken, nullptr);  // its pause answer is still served
  EXPECT_FALSE(broken->link);
  EXPECT_EQ(broken->pause_tx, false);
  EXPECT_EQ(FindNetdev(r.snap.link_state, "ens1f0np0")->link, true);
}

// --- verbs --------------------------------------------------------------------------

TEST(VerbsSource, RocePortsActiveMtuSpeedAndGidTable) {
  const std::string dir = FixtureDir("mlx5-roce");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("verbs", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.verbs.size(), 4u);
  for (const auto& v : r.snap.verbs) {
    EXPECT_EQ(v.port, 1u);
    EXPECT_EQ(v.active_mtu_bytes, 4096) << v.device;
    EXPECT_EQ(v.max_mtu_bytes, 4096) << v.device;
    EXPECT_EQ(v.gid_table_length, 255) << v.device;
    // 4X NDR = 400 Gb/s; the down mlx5_2 reports mlx5's fallback 4X QDR = 40 Gb/s, as
    // its sysfs rate does.
    EXPECT_EQ(v.active_speed_bytes_per_second, v.device == "mlx5_2" ? 5e9 : 50e9) << v.device;
  }
}

TEST(VerbsSource, InfinibandPorts) {
  const std::string dir = FixtureDir("mlx5-ib");
  auto kernel = kernel::MakeReplayKernel(dir);
  SourceUnderTest source("verbs", *kernel);
  Collected r = source.Collect(FixtureInventory(dir));
  EXPECT_TRUE(r.status.success);
  ASSERT_EQ(r.snap.verbs.size(), 2u);
  for (const auto& v : r.snap.verbs) {
    EXPECT_EQ(v.active_mtu_bytes, 4096);
    EXPECT_EQ(v.gid_table_length, 8);
    EXPECT_EQ(v.active_speed_bytes_per_second, 50e9);
  }
}

TEST(VerbsSource, NoVerbsDeviceIsNoSeriesAndNoError) {
  TestDir dir;
  for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}) {
    WriteErrno(dir, kernel::call::VerbsPortAttr{d, 1}.Key(), ENODEV);
  }
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("verbs", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_TRUE(r.status.success);
  EXPECT_TRUE(r.status.errors.empty());
  EXPECT_FALSE(r.status.rediscover);
  EXPECT_TRUE(r.snap.verbs.empty());
}

// A device libibverbs does not list is not asked again until the inventory changes.
TEST(VerbsSource, ADeviceWithoutVerbsIsNotAskedAgainUntilTheInventoryChanges) {
  class Counting final : public kernel::KernelAnswers {
   public:
    int asks = 0;
    kernel::Answer Ask(const kernel::Request& r) override {
      if (std::holds_alternative<kernel::call::VerbsPortAttr>(r)) ++asks;
      return {{}, ENODEV};
    }
  } kernel;
  SourceUnderTest source("verbs", kernel);
  Inventory inventory = FixtureInventory(FixtureDir("mlx5-roce"));
  source.Collect(inventory);
  EXPECT_EQ(kernel.asks, 4);  // one port of each of the four devices
  Collected again = source.Collect(inventory);
  EXPECT_EQ(kernel.asks, 4);
  EXPECT_TRUE(again.status.success);
  inventory.generation += 1;  // a device or port appeared, a driver reloaded
  source.Collect(inventory);
  EXPECT_EQ(kernel.asks, 8);
}

TEST(VerbsSource, ExtendedSpeedAndShortAnswers) {
  TestDir dir;
  // rdma-core 47+: 56 bytes, active_speed 0 and active_speed_ex 256 (XDR, 200 Gb/s a lane).
  std::vector<std::uint8_t> xdr(56, 0);
  const std::int32_t head[4] = {4, 5, 5, 255};  // ACTIVE, max 4096, active 4096, 255 GIDs
  std::memcpy(xdr.data(), head, sizeof head);
  xdr[43] = 2;  // active_width 4X
  xdr[44] = 0;  // active_speed
  const std::uint32_t speed_ex = 256;
  std::memcpy(xdr.data() + 52, &speed_ex, sizeof speed_ex);
  WriteBytes(dir, kernel::call::VerbsPortAttr{"mlx5_0", 1}.Key(), xdr);
  WriteBytes(dir, kernel::call::VerbsPortAttr{"mlx5_1", 1}.Key(), std::vector<std::uint8_t>(40, 0));
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("verbs", *kernel);
  Collected r = source.Collect(FixtureInventory(FixtureDir("mlx5-roce")));
  EXPECT_FALSE(r.status.success);
  EXPECT_TRUE(AnyErrorHas(r.status, "device mlx5_1", "too short for struct ibv_port_attr"))
      << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.verbs.size(), 1u);
  EXPECT_EQ(r.snap.verbs[0].device, "mlx5_0");
  EXPECT_EQ(r.snap.verbs[0].active_speed_bytes_per_second, 4 * 200e9 / 8);
}

// --- the whole exporter on the fixtures ---------------------------------------------

TEST(KernelCollectors, AllSucceedOnEveryFixture) {
  for (const char* fixture : {"mlx5-roce", "mlx5-ib", "empty"}) {
    auto collector = PassRunner::Create(
        testing::FixtureCollectorConfig(FixtureDir(fixture), {"ethtool", "dcb", "ethtool_netlink", "fec", "verbs"}));
    ASSERT_TRUE(collector.ok()) << collector.error().message;
    NodeSnapshot s = (*collector)->Collect();
    for (const auto& st : s.sources) {
      EXPECT_TRUE(st.success) << fixture << " " << st.name << ": "
                              << ::testing::PrintToString(st.errors);
    }
  }
}

TEST(EthtoolSpecs, OneFamilyPerPortKindWithPromtoolCleanNames) {
  std::map<std::string, metrics::MetricType> names;
  for (const auto* spec : collectors::EthtoolSpecs()) names.emplace(spec->name, spec->type);
  EXPECT_EQ(names.count("roce_ethtool_rx_discarded_packets_total"), 1u);
  EXPECT_EQ(names.count("roce_ethtool_tx_pause_storm_warning_events_total"), 1u);
  EXPECT_EQ(names.at("roce_ethtool_pcie_outbound_read_stalled_ratio"), metrics::MetricType::kGauge);
  EXPECT_EQ(names.count("roce_ethtool_rx_fec_corrected_bit_errors_total"), 1u);
  for (const auto& [name, type] : names) {
    EXPECT_EQ(name.find("_bits"), std::string::npos) << name;  // promtool: use bytes
  }
}

}  // namespace
}  // namespace rocewatch
