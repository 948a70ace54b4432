#include "exporter/pass/runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "common/fixture_collector.h"
#include "common/fixture_paths.h"
#include "common/test_dir.h"

namespace rocewatch {
namespace {

using rocewatch::testing::FixtureDir;
using rocewatch::testing::TestDir;


std::unique_ptr<PassRunner> Make(const std::string& dir, std::map<std::string, std::string> rdma_options = {}) {
  PassConfig config = testing::FixtureCollectorConfig(dir);
  config.source_options["rdma"] = std::move(rdma_options);
  auto c = PassRunner::Create(config);
  EXPECT_TRUE(c.ok()) << c.error().message;
  return std::move(*c);
}

const std::map<std::string, std::string> kEveryRdmaCounter = {{"all-hw-counters", "true"},
                                                              {"all-port-counters", "true"}};

// The sysfs files a collector read (through held attributes or whole), by path.
class ReadPaths final : public fs::Recorder {
 public:
  void OnRead(std::string_view tree, std::string_view rel) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (tree == "sysfs") reads_.emplace(rel);
  }
  void OnList(std::string_view, std::string_view) override {}
  void OnLink(std::string_view, std::string_view) override {}
  bool Read(const std::string& suffix) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& r : reads_)
      if (r.ends_with(suffix)) return true;
    return false;
  }

 private:
  std::mutex mu_;
  std::set<std::string> reads_;
};

const SourceStatus& StatusOf(const NodeSnapshot& s, const std::string& name) {
  for (const auto& st : s.sources)
    if (st.name == name) return st;
  static SourceStatus none;
  ADD_FAILURE() << "no status for " << name;
  return none;
}



TEST(Collector, RoceNodeDeviceAndPortValues) {
  auto collector = Make(FixtureDir("mlx5-roce"));
  NodeSnapshot s = collector->Collect();
  ASSERT_EQ(s.devices.size(), 4u);
  const DeviceSnapshot& d = s.devices[0];
  EXPECT_EQ(d.name, "mlx5_0");
  EXPECT_EQ(d.fw_version, "28.39.2048");
  EXPECT_EQ(d.hca_type, "MT4129");
  EXPECT_EQ(d.node_guid, "946d:ae03:00b1:2c3a");
  EXPECT_EQ(d.node_type, "1: CA");
  EXPECT_EQ(d.driver, "mlx5_core");
  const PortSnapshot& p = d.ports.at(0);
  EXPECT_EQ(p.state, 4u);
  EXPECT_EQ(p.phys_state, 5u);
  EXPECT_EQ(p.rate_bytes_per_second, 50e9);
  EXPECT_EQ(p.netdev, "ens1f0np0");
  // counters/port_xmit_data counts 4-byte words: 4823190551872 × 4.
  EXPECT_EQ(p.transmitted_bytes, 4823190551872.0 * 4);
  // 21 files less the four with their own families and the 11 an Ethernet port reads only
  // with --collector.rdma.all-port-counters (collectors/rdma/default_counters.cpp).
  EXPECT_EQ(p.counters.present(), 6u);
  EXPECT_EQ(p.counters.Find("link_downed"), 1);
  EXPECT_EQ(p.hw_counters.Find("np_cnp_sent"), 2916005);
  EXPECT_EQ(p.hw_counters.Find("rp_cnp_handled"), 1734562);
  // 32 files: lifespan is not a counter, 14 are mlx5 detail, out_of_sequence does not parse.
  EXPECT_EQ(p.hw_counters.present(), 16u);
  EXPECT_EQ(p.hw_counters.size(), 17u);  // out_of_sequence listed but without a value
  EXPECT_EQ(p.hw_counters.Find("out_of_sequence"), std::nullopt);
  EXPECT_EQ(p.hw_counters.Find("lifespan"), std::nullopt);
  EXPECT_EQ(p.hw_counters_lifespan_seconds, 0.01);
  ASSERT_EQ(p.gids.size(), 4u);
  EXPECT_EQ(p.gids[3].index, 3u);
  EXPECT_EQ(p.gids[3].type, "RoCE v2");
  EXPECT_EQ(p.gids[3].ip, "10.1.0.11");
  EXPECT_EQ(p.gids[3].netdev, "ens1f0np0");
}

// The counters left out by default are not read at all (a pread each a scrape, a firmware
// query on mlx5 when the driver's cache expired); each option reads its own part again.
TEST(Collector, ReadsTheDetailCountersOnlyWithTheirOptions) {
  const std::string port = "mlx5_0/ports/1/";
  for (const auto& [options, detail_read] :
       std::vector<std::pair<std::map<std::string, std::string>, bool>>{{{}, false}, {kEveryRdmaCounter, true}}) {
    auto collector = Make(FixtureDir("mlx5-roce"), options);
    ReadPaths reads;
    collector->SetRecorder(&reads);
    NodeSnapshot s = collector->Collect();
    collector->SetRecorder(nullptr);
    const PortSnapshot& p = s.devices.at(0).ports.at(0);
    EXPECT_TRUE(reads.Read(port + "hw_counters/np_cnp_sent"));
    EXPECT_TRUE(reads.Read(port + "counters/link_downed"));
    EXPECT_EQ(reads.Read(port + "hw_counters/rx_write_requests"), detail_read);
    EXPECT_EQ(reads.Read(port + "counters/unicast_rcv_packets"), detail_read);
    EXPECT_EQ(p.hw_counters.Find("rx_write_requests").has_value(), detail_read);
    EXPECT_EQ(p.counters.present(), detail_read ? 17u : 6u);
    EXPECT_EQ(p.hw_counters.size(), detail_read ? 31u : 17u);
  }
  // One option, one part: --collector.rdma.all-hw-counters alone reads no port counter more.
  auto hw_only = Make(FixtureDir("mlx5-roce"), {{"all-hw-counters", "true"}});
  NodeSnapshot s = hw_only->Collect();
  EXPECT_EQ(s.devices.at(0).ports.at(0).hw_counters.size(), 31u);
  EXPECT_EQ(s.devices.at(0).ports.at(0).counters.present(), 6u);
}

// An InfiniBand port reads every counters/ file by default (the trims are for Ethernet).
TEST(Collector, InfinibandPortsReadEveryPortCounter) {
  auto collector = Make(FixtureDir("mlx5-ib"));
  NodeSnapshot s = collector->Collect();
  ASSERT_FALSE(s.devices.empty());
  const PortSnapshot& p = s.devices.at(0).ports.at(0);
  EXPECT_EQ(p.link_layer, "InfiniBand");
  EXPECT_TRUE(p.counters.Find("unicast_rcv_packets").has_value());
  EXPECT_TRUE(p.counters.Find("VL15_dropped").has_value());
}

TEST(Collector, SeededOdditiesAreCountedNotFatal) {
  // VL15_dropped (the N/A) is a counter an Ethernet port reads only with all-port-counters.
  EXPECT_EQ(StatusOf(Make(FixtureDir("mlx5-roce"))->Collect(), "rdma").unavailable_values, 0);
  auto collector = Make(FixtureDir("mlx5-roce"), kEveryRdmaCounter);
  NodeSnapshot s = collector->Collect();
  const SourceStatus& rdma = StatusOf(s, "rdma");
  EXPECT_TRUE(rdma.success);
  EXPECT_EQ(rdma.parse_errors_total, 1);   // mlx5_0 out_of_sequence
  EXPECT_EQ(rdma.unavailable_values, 1);   // mlx5_1 VL15_dropped "N/A (no PMA)"
  EXPECT_EQ(s.devices[1].ports[0].counters.Find("VL15_dropped"), std::nullopt);
  // mlx5_2 is down; mlx5_3 has no counters/ directory.
  EXPECT_EQ(s.devices[2].ports[0].state, 1u);
  EXPECT_EQ(s.devices[2].ports[0].phys_state, 3u);
  EXPECT_FALSE(s.devices[3].ports[0].transmitted_bytes.has_value());
  EXPECT_EQ(s.devices[3].ports[0].counters.size(), 0u);
  EXPECT_GT(s.devices[3].ports[0].hw_counters.present(), 0u);
  // The parse error is cumulative: a second pass counts it again.
  NodeSnapshot again = collector->Collect();
  EXPECT_EQ(StatusOf(again, "rdma").parse_errors_total, 2);
  for (const auto& st : s.sources) EXPECT_TRUE(st.success) << st.name;
}

TEST(Collector, NetdevPcieEcnAndRdmaCm) {
  auto collector = Make(FixtureDir("mlx5-roce"));
  NodeSnapshot s = collector->Collect();
  ASSERT_EQ(s.netdevs.size(), 4u);
  EXPECT_EQ(s.netdevs[0].mtu_bytes, 9000);
  EXPECT_EQ(s.netdevs[0].operstate_id, 1u);
  EXPECT_EQ(s.netdevs[0].speed_bytes_per_second, 50e9);
  EXPECT_EQ(s.netdevs[2].operstate, "down");
  EXPECT_EQ(s.netdevs[2].carrier, false);
  EXPECT_FALSE(s.netdevs[2].speed_bytes_per_second.has_value());

  ASSERT_EQ(s.pcie.size(), 4u);
  EXPECT_EQ(s.pcie[1].device, "mlx5_1");
  EXPECT_EQ(s.pcie[1].current_width, 8u);
  EXPECT_EQ(s.pcie[1].max_width, 16u);
  EXPECT_EQ(s.pcie[1].current_speed_transfers, 32e9);
  EXPECT_EQ(s.pcie[2].numa_node, 1);

  ASSERT_EQ(s.ecn.size(), 4u);
  for (int p = 0; p < 8; ++p) {
    EXPECT_EQ(s.ecn[0].np_enabled[p], p == 3) << p;
    EXPECT_EQ(s.ecn[0].rp_enabled[p], p == 3) << p;
  }
  int debugfs_params = 0;
  for (const auto& param : s.ecn[0].parameters) {
    if (param.source == "debugfs") ++debugfs_params;
    if (param.source == "sysfs" && param.name == "cnp_dscp") {
      EXPECT_EQ(param.value, 48);
    }
    if (param.source == "debugfs" && param.name == "rpg_ai_rate") {
      EXPECT_EQ(param.value, 5);
    }
  }
  EXPECT_GT(debugfs_params, 0);  // only mlx5_0 has cc_params in the fixture
  for (std::size_t i = 1; i < s.ecn.size(); ++i)
    for (const auto& param : s.ecn[i].parameters) EXPECT_EQ(param.source, "sysfs");

  ASSERT_EQ(s.rdma_cm.size(), 2u);
  EXPECT_EQ(s.rdma_cm[0].device, "mlx5_0");
  EXPECT_EQ(s.rdma_cm[0].roce_mode, "RoCE v2");
  EXPECT_EQ(s.rdma_cm[0].tos, 106);
  EXPECT_EQ(s.rdma_cm[1].device, "mlx5_1");
}

TEST(Collector, InfinibandNode) {
  auto collector = Make(FixtureDir("mlx5-ib"));
  NodeSnapshot s = collector->Collect();
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].ports[0].link_layer, "InfiniBand");
  EXPECT_EQ(s.devices[0].ports[0].lid, 0x1au);
  EXPECT_EQ(s.devices[0].ports[0].sm_lid, 0x1u);
  EXPECT_EQ(s.devices[1].ports[0].state, 2u);
  EXPECT_TRUE(s.ecn.empty());
  EXPECT_EQ(s.netdevs[0].mtu_bytes, 4092);
}

TEST(Collector, EmptyNodeServesOnlyStatus) {
  auto collector = Make(FixtureDir("empty"));
  NodeSnapshot s = collector->Collect();
  EXPECT_TRUE(s.devices.empty());
  EXPECT_EQ(s.sources.size(), collectors::AllCollectors().size());
  for (const auto& st : s.sources) EXPECT_TRUE(st.success);
}

TEST(Collector, DeviceThatVanishesCostsItsSeriesOnly) {
  TestDir dir;
  testing::CopyFixture("mlx5-roce", dir.path());
  auto collector = Make(dir.path());
  NodeSnapshot first = collector->Collect();
  ASSERT_EQ(first.devices.size(), 4u);
  EXPECT_EQ(collector->stats().discoveries_total, 1);
  // The device's directory disappears while its class link stays (the window
  // between listing and reading): its held attributes now read as gone.
  std::string pci = std::filesystem::read_symlink(dir / "sys/class/infiniband/mlx5_1").string();
  std::filesystem::remove_all(std::filesystem::path(dir / "sys/class/infiniband") / pci);
  NodeSnapshot second = collector->Collect();
  ASSERT_EQ(second.devices.size(), 3u);
  EXPECT_EQ(second.devices[1].name, "mlx5_2");
  EXPECT_EQ(StatusOf(second, "rdma").vanished_total, 1);
  EXPECT_TRUE(StatusOf(second, "rdma").success);
  // The next pass walks the tree again; the dangling device is skipped with a reason.
  NodeSnapshot third = collector->Collect();
  EXPECT_EQ(collector->stats().discoveries_total, 2);
  EXPECT_EQ(third.devices.size(), 3u);
  EXPECT_EQ(collector->inventory().errors.size(), 1u);
}

// A device that leaves the class directory (unplugged, its driver unbound) and one that joins
// it are in the very scrape that first lists them: the listing is looked at while the sources
// run, and a pass over the inventory it made stale is run again over the new one.
TEST(Collector, DeviceThatLeavesOrJoinsTheListingIsInThatScrape) {
  TestDir dir;
  testing::CopyFixture("mlx5-roce", dir.path());
  auto collector = Make(dir.path());
  ASSERT_EQ(collector->Collect().devices.size(), 4u);
  const std::filesystem::path link = dir / "sys/class/infiniband/mlx5_1";
  const std::filesystem::path target = std::filesystem::read_symlink(link);
  std::filesystem::remove(link);

  NodeSnapshot without = collector->Collect();
  EXPECT_EQ(collector->stats().discoveries_total, 2);
  ASSERT_EQ(without.devices.size(), 3u);
  EXPECT_EQ(without.devices[1].name, "mlx5_2");
  EXPECT_EQ(StatusOf(without, "rdma").vanished_total, 0);
  EXPECT_TRUE(StatusOf(without, "rdma").errors.empty());

  std::filesystem::create_directory_symlink(target, link);
  NodeSnapshot with = collector->Collect();
  EXPECT_EQ(collector->stats().discoveries_total, 3);
  ASSERT_EQ(with.devices.size(), 4u);
  EXPECT_EQ(with.devices[1].name, "mlx5_1");
  EXPECT_EQ(collector->Collect().devices.size(), 4u);
  EXPECT_EQ(collector->stats().discoveries_total, 3);  // nothing changed: no walk again
}

// Unprivileged, debugfs (mounted 0700) does not list: the DCQCN parameters there
// are counted unavailable, the sysfs ones are still served, the source succeeds.
TEST(Collector, UnreadableDebugfsCountsUnavailable) {
  TestDir dir;
  testing::CopyFixture("mlx5-roce", dir.path());
  std::vector<std::filesystem::path> cc_params;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "debugfs"))
    if (e.is_directory() && e.path().filename() == "cc_params") cc_params.push_back(e.path());
  ASSERT_EQ(cc_params.size(), 1u);  // mlx5_0's function
  std::filesystem::remove_all(cc_params[0]);
  std::ofstream(cc_params[0].string() + ".errno") << "13 EACCES\n";

  auto collector = Make(dir.path());
  NodeSnapshot s = collector->Collect();
  const SourceStatus& ecn = StatusOf(s, "ecn");
  EXPECT_TRUE(ecn.success);
  EXPECT_EQ(ecn.unavailable_values, 1);
  ASSERT_EQ(s.ecn.size(), 4u);
  bool sysfs_cnp_dscp = false;
  for (const auto& param : s.ecn[0].parameters) {
    EXPECT_EQ(param.source, "sysfs") << param.name;
    sysfs_cnp_dscp = sysfs_cnp_dscp || (param.name == "cnp_dscp" && param.value == 48);
  }
  EXPECT_TRUE(sysfs_cnp_dscp);
}

TEST(Collector, RejectsBadOptionValues) {
  PassConfig c = testing::FixtureCollectorConfig(FixtureDir("mlx5-roce"));
  c.source_options["rdma"]["gid-interval"] = "soon";
  auto collector = PassRunner::Create(c);
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().message,
            "--collector.rdma.gid-interval: invalid duration \"soon\" (expected e.g. 500ms, 30s, 5m, 1h)");
}

}  // namespace
}  // namespace rocewatch

namespace rocewatch {
namespace {

// A source that hangs (a firmware command that never returns) is cut off at the
// pass's deadline: its series are left out, the other sources are served, and
// while it is still stuck it is reported busy instead of being asked again.
TEST(Collector, HangingSourceIsBoundedByTheDeadline) {
  std::mutex mu;
  std::condition_variable released_cv;
  bool released = false;
  std::atomic<int> blocked{0};
  PassConfig c = testing::FixtureCollectorConfig(FixtureDir("mlx5-roce"));
  c.enabled_sources = {"rdma", "netdev", "pcie"};
  c.source_timeout_seconds = 0.3;
  c.sysfs_transform = [&](std::string_view rel, std::string&) {
    if (rel.find("hw_counters/np_cnp_sent") == std::string_view::npos) return;
    std::unique_lock<std::mutex> lock(mu);
    ++blocked;
    released_cv.wait_for(lock, std::chrono::seconds(30), [&] { return released; });
  };
  auto collector = PassRunner::Create(c);
  ASSERT_TRUE(collector.ok());

  auto t0 = std::chrono::steady_clock::now();
  NodeSnapshot first = (*collector)->Collect();
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(took, 5.0);  // bounded by the 0.3 s deadline, not by the hang
  EXPECT_FALSE(StatusOf(first, "rdma").success);
  EXPECT_NE(StatusOf(first, "rdma").errors.at(0).find("timed out"), std::string::npos);
  EXPECT_TRUE(first.devices.empty());
  EXPECT_TRUE(StatusOf(first, "netdev").success);
  EXPECT_EQ(first.netdevs.size(), 4u);
  EXPECT_EQ(first.pcie.size(), 4u);

  NodeSnapshot second = (*collector)->Collect();
  EXPECT_FALSE(StatusOf(second, "rdma").success);
  EXPECT_EQ(StatusOf(second, "rdma").errors.at(0),
            "still busy with an earlier pass that ran past its deadline");
  EXPECT_EQ(second.netdevs.size(), 4u);

  {
    std::lock_guard<std::mutex> lock(mu);
    released = true;
  }
  released_cv.notify_all();
  // Once the stuck read returns, the source is served again.
  NodeSnapshot third;
  for (int i = 0; i < 50; ++i) {
    third = (*collector)->Collect();
    if (StatusOf(third, "rdma").success) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(StatusOf(third, "rdma").success);
  EXPECT_EQ(third.devices.size(), 4u);
}

}  // namespace
}  // namespace rocewatch
