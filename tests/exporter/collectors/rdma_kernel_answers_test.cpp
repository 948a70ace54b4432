// The rdma collector's counters and GID entries as served, on the replayed fixture.

#include "common/kernel_answer_harness.h"

namespace rocewatch {
namespace {

using namespace rocewatch::testing::kernel_sources;  // NOLINT(google-build-using-namespace)

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
  // np_cnp_sent is mlx5's cnp_sent: served by meaning, and raw only with all-hw-counters.
  EXPECT_EQ(labels(f, "roce_hw_stat_total", "counter"), (S{"rx_write_requests", "req_cqe_error"}));
  EXPECT_EQ(labels(f, "roce_transport_events_total", "event"), (S{"cnp_sent"}));
  EXPECT_EQ(labels(f, "roce_port_stat_total", "counter"), S(counters.begin(), counters.end()));
  EXPECT_EQ(labels(f, "roce_gid_info", "index"), (S{"1", "2"}));

  NodeSnapshot all = snap;
  all.devices[0].detail.all_gids = true;
  EXPECT_EQ(labels(render(all), "roce_gid_info", "index"), (S{"0", "1", "2"}));
  all.devices[0].detail.all_hw_counters = true;
  EXPECT_EQ(labels(render(all), "roce_hw_stat_total", "counter"), S(hw.begin(), hw.end()));
  EXPECT_EQ(labels(render(all), "roce_transport_events_total", "event"), (S{"cnp_sent"}));
}

}  // namespace
}  // namespace rocewatch
