// The rdma collector over the fixtures: devices, ports, GIDs, counters and their options.

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "common/fixture_pass.h"
#include "common/fixture_paths.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {
namespace {

using testing::FixtureDir;
using testing::MakeFixturePass;
using testing::StatusOf;

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

TEST(RdmaCollector, RoceNodeDeviceAndPortValues) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-roce"));
  NodeSnapshot s = pass->Collect();
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
  // lifespan is a setting nothing reads: read (as 0.01 s here) only with all-hw-counters.
  EXPECT_EQ(p.hw_counters_lifespan_seconds, std::nullopt);
  ASSERT_EQ(p.gids.size(), 4u);
  EXPECT_EQ(p.gids[3].index, 3u);
  EXPECT_EQ(p.gids[3].type, "RoCE v2");
  EXPECT_EQ(p.gids[3].ip, "10.1.0.11");
  EXPECT_EQ(p.gids[3].netdev, "ens1f0np0");
}

// The counters left out by default are not read at all (a pread each a scrape, a firmware
// query on mlx5 when the driver's cache expired); each option reads its own part again.
TEST(RdmaCollector, ReadsTheDetailCountersOnlyWithTheirOptions) {
  const std::string port = "mlx5_0/ports/1/";
  for (const auto& [options, detail_read] :
       std::vector<std::pair<std::map<std::string, std::string>, bool>>{{{}, false}, {kEveryRdmaCounter, true}}) {
    auto pass = MakeFixturePass(FixtureDir("mlx5-roce"), {{"rdma", options}});
    ReadPaths reads;
    pass->SetRecorder(&reads);
    NodeSnapshot s = pass->Collect();
    pass->SetRecorder(nullptr);
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
  auto hw_only = MakeFixturePass(FixtureDir("mlx5-roce"), {{"rdma", {{"all-hw-counters", "true"}}}});
  NodeSnapshot s = hw_only->Collect();
  EXPECT_EQ(s.devices.at(0).ports.at(0).hw_counters.size(), 31u);
  EXPECT_EQ(s.devices.at(0).ports.at(0).counters.present(), 6u);
  EXPECT_EQ(s.devices.at(0).ports.at(0).hw_counters_lifespan_seconds, 0.01);  // hw_counters/lifespan: 10 ms
}

// Each driver's unit names its own detail counters: on the demo's Broadcom (bnxt_re, Linux
// 6.8's 92 names of a Thor port) and Intel (irdma, 46) nodes the default keeps the error and
// congestion counters and leaves out volume, resource counts, the operation mix and the error
// breakdowns; all-hw-counters keeps every one.
TEST(RdmaCollector, EachDriversDetailCountersAreItsOwn) {
  struct Case {
    const char* node;
    std::size_t all, by_default;
    const char* kept;
    const char* left_out;
  };
  for (const Case& c : {Case{"gpu-13", 92, 24, "rx_roce_discards", "res_rx_no_perm"},
                        Case{"gpu-14", 46, 11, "ip4InDiscards", "ip4InOctets"}}) {
    SCOPED_TRACE(c.node);
    const std::string node = std::string(ROCEWATCH_SOURCE_DIR) + "/examples/demo/nodes/" + c.node;
    for (bool all : {false, true}) {
      auto pass = all ? MakeFixturePass(node, {{"rdma", {{"all-hw-counters", "true"}}}}) : MakeFixturePass(node);
      NodeSnapshot s = pass->Collect();
      ASSERT_FALSE(s.devices.empty());
      const PortSnapshot& p = s.devices.at(0).ports.at(0);
      EXPECT_EQ(p.hw_counters.size(), all ? c.all : c.by_default);
      EXPECT_TRUE(p.hw_counters.Find(c.kept).has_value());
      EXPECT_EQ(p.hw_counters.Find(c.left_out).has_value(), all);
    }
  }
}

// An InfiniBand port reads every counters/ file by default (the trims are for Ethernet).
TEST(RdmaCollector, InfinibandPortsReadEveryPortCounter) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-ib"));
  NodeSnapshot s = pass->Collect();
  ASSERT_FALSE(s.devices.empty());
  const PortSnapshot& p = s.devices.at(0).ports.at(0);
  EXPECT_EQ(p.link_layer, "InfiniBand");
  EXPECT_TRUE(p.counters.Find("unicast_rcv_packets").has_value());
  EXPECT_TRUE(p.counters.Find("VL15_dropped").has_value());
}

TEST(RdmaCollector, SeededOdditiesAreCountedNotFatal) {
  // VL15_dropped (the N/A) is a counter an Ethernet port reads only with all-port-counters.
  EXPECT_EQ(StatusOf(MakeFixturePass(FixtureDir("mlx5-roce"))->Collect(), "rdma").unavailable_values, 0);
  auto pass = MakeFixturePass(FixtureDir("mlx5-roce"), {{"rdma", kEveryRdmaCounter}});
  NodeSnapshot s = pass->Collect();
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
  NodeSnapshot again = pass->Collect();
  EXPECT_EQ(StatusOf(again, "rdma").parse_errors_total, 2);
  for (const auto& st : s.sources) EXPECT_TRUE(st.success) << st.name;
}

TEST(RdmaCollector, InfinibandNode) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-ib"));
  NodeSnapshot s = pass->Collect();
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].ports[0].link_layer, "InfiniBand");
  EXPECT_EQ(s.devices[0].ports[0].lid, 0x1au);
  EXPECT_EQ(s.devices[0].ports[0].sm_lid, 0x1u);
  EXPECT_EQ(s.devices[1].ports[0].state, 2u);
}

}  // namespace
}  // namespace rocewatch
