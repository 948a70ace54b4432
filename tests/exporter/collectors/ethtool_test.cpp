// The ethtool collector on the replayed SIOCETHTOOL answers of the fixtures (tests/fixtures/README.md
// "Kernel answers" lists every value asserted here) and on answers a real node can give: a
// truncated GSTATS, a vanished netdev, a capture without the call.

#include "common/kernel_answer_harness.h"

namespace rocewatch {
namespace {

using namespace rocewatch::testing::kernel_sources;  // NOLINT(google-build-using-namespace)

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
  // ice prints XOFF with and without ".nic" in different versions: one series, the first.
  const std::vector<std::string> names = {"rx_priority_3_xoff.nic", "rx_priority_3_xoff",
                                          "rx_dropped.nic",         "rx_dropped.nic",
                                          "rx_queue_0_packets",     "rx_queue_0_packets"};
  WriteBytes(dir, kernel::call::DriverInfo{"eth9"}.Key(), DriverInfoBytes("ice", 6));
  WriteBytes(dir, kernel::call::StringSetInfo{"eth9", ETH_SS_STATS}.Key(), SsetInfoBytes(6));
  WriteBytes(dir, kernel::call::Strings{"eth9", ETH_SS_STATS}.Key(), StringsBytes(names));
  WriteBytes(dir, kernel::call::Stats{"eth9"}.Key(), StatsBytes({10, 20, 30, 40, 50, 60}));
  auto kernel = kernel::MakeReplayKernel(dir.path());
  SourceUnderTest source("ethtool", *kernel, {{"metrics-include", "^rx_queue_0_"}});
  Collected r = source.Collect(NetdevInventory({"eth9"}));
  EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
  ASSERT_EQ(r.snap.ethtool.size(), 1u);
  const EthtoolSnapshot& e = r.snap.ethtool[0];
  EXPECT_EQ(Priority(e, 3, "rx", "pause_frames"), 10);
  EXPECT_EQ(Port(e, "rx_discarded_packets"), 30);
  ASSERT_EQ(e.included.size(), 1u);
  EXPECT_EQ(e.included[0].value, 50);
  EXPECT_EQ(e.unclassified, 0u);
  EXPECT_FALSE(e.speed_bytes_per_second);  // link settings not captured: no series

  // And the rendered families carry each series once.
  auto families = testing::RenderText(collectors::RenderEthtool, r.snap);
  EXPECT_EQ(SamplesOf(families, "roce_pfc_pause_frames_total"), 1u);
  EXPECT_EQ(SamplesOf(families, "roce_ethtool_rx_discarded_packets_total"), 1u);
  EXPECT_EQ(SamplesOf(families, "roce_ethtool_stat_total"), 1u);
}

TEST(EthtoolSource, TheDriverTheKernelReportsChoosesTheTable) {
  // mlx5's and bnxt_en's names under three drivers: each reads only its own; a driver with no
  // table gets no family, its names counted and served raw with metrics-include.
  const std::vector<std::string> names = {"rx_prio3_pause", "rx_pfc_ena_frames_pri3", "pfc_pri3_rx_duration_us",
                                          "link_down_events_phy", "link_down_events", "rx0_packets"};
  auto collect = [&](const std::string& driver, const std::string& include) {
    TestDir dir;
    WriteBytes(dir, kernel::call::DriverInfo{"eth9"}.Key(), DriverInfoBytes(driver, 6));
    WriteBytes(dir, kernel::call::StringSetInfo{"eth9", ETH_SS_STATS}.Key(), SsetInfoBytes(6));
    WriteBytes(dir, kernel::call::Strings{"eth9", ETH_SS_STATS}.Key(), StringsBytes(names));
    WriteBytes(dir, kernel::call::Stats{"eth9"}.Key(), StatsBytes({7, 9, 2500000, 3, 4, 5}));
    auto kernel = kernel::MakeReplayKernel(dir.path());
    SourceUnderTest source("ethtool", *kernel, {{"metrics-include", include}});
    Collected r = source.Collect(NetdevInventory({"eth9"}));
    EXPECT_TRUE(r.status.success) << ::testing::PrintToString(r.status.errors);
    EXPECT_EQ(r.snap.ethtool.size(), 1u);
    return r.snap;
  };
  const NodeSnapshot mlx5 = collect("mlx5_core", "");
  EXPECT_EQ(Priority(mlx5.ethtool[0], 3, "rx", "pause_frames"), 7);
  EXPECT_EQ(Port(mlx5.ethtool[0], "link_down_events"), 3);
  EXPECT_FALSE(Priority(mlx5.ethtool[0], 3, "rx", "pfc_frames"));
  EXPECT_EQ(mlx5.ethtool[0].unclassified, 3u);  // bnxt_en's three names

  const NodeSnapshot bnxt = collect("bnxt_en", "");
  EXPECT_FALSE(Priority(bnxt.ethtool[0], 3, "rx", "pause_frames"));  // pfc_ena counts XON too
  EXPECT_EQ(Priority(bnxt.ethtool[0], 3, "rx", "pfc_frames"), 9);
  EXPECT_EQ(Priority(bnxt.ethtool[0], 3, "rx", "pause_duration_seconds"), 2.5);
  EXPECT_EQ(Port(bnxt.ethtool[0], "link_down_events"), 4);
  EXPECT_EQ(bnxt.ethtool[0].unclassified, 2u);  // mlx5's two names

  const NodeSnapshot other = collect("hns3", "^(rx_prio3_pause|link_down_events)$");
  EXPECT_TRUE(other.ethtool[0].per_priority.empty());
  EXPECT_TRUE(other.ethtool[0].port.empty());
  EXPECT_EQ(other.ethtool[0].unclassified, 5u);  // all but the per-queue rx0_packets
  auto families = testing::RenderText(collectors::RenderEthtool, other);
  EXPECT_EQ(SamplesOf(families, "roce_pfc_pause_frames_total"), 0u);
  EXPECT_EQ(SamplesOf(families, "roce_ethtool_stat_total"), 2u);
  const auto unclassified = families.Find("roce_exporter_unclassified_statistics", "netdev", "eth9");
  ASSERT_EQ(unclassified.size(), 1u);
  EXPECT_EQ(families.samples()[unclassified[0]].value, 5.0);
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
