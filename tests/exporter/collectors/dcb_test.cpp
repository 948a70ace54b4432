// The dcb collector on the replayed dcbnl answers of the fixtures and on bad ones: a PFC attribute
// of the wrong length, repeated or ambiguous APP entries, a netdev without DCB, a vanished netdev.

#include "common/kernel_answer_harness.h"

namespace rocewatch {
namespace {

using namespace rocewatch::testing::kernel_sources;  // NOLINT(google-build-using-namespace)

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

}  // namespace
}  // namespace rocewatch
