// The ethtool_netlink collector on replayed LINKSTATE/PAUSE answers, an IPoIB netdev, a kernel
// without the ethtool family and a truncated reply.

#include "common/kernel_answer_harness.h"

namespace rocewatch {
namespace {

using namespace rocewatch::testing::kernel_sources;  // NOLINT(google-build-using-namespace)

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

// ethtool netlink's link state is the carrier where the driver's get_link is
// ethtool_op_get_link (mlx5e_ethtool_ops): left out while roce_netdev_carrier serves it. bnxt's
// bnxt_get_link asks the firmware: served. A netdev with no carrier read (down) keeps it.
TEST(EthtoolNetlinkSource, LinkDetectedIsLeftOutWhereItRepeatsTheCarrier) {
  NodeSnapshot snap;
  for (const char* n : {"mlx", "bnxt", "nocarrier"}) {
    LinkStateSnapshot l;
    l.netdev = n;
    l.link = true;
    snap.link_state.push_back(l);
    EthtoolSnapshot e;
    e.netdev = n;
    e.driver = std::string(n) == "bnxt" ? "bnxt_en" : "mlx5_core";
    snap.ethtool.push_back(e);
    NetdevSnapshot nd;
    nd.name = n;
    if (std::string(n) != "nocarrier") nd.carrier = true;
    snap.netdevs.push_back(nd);
  }
  std::string text;
  testing::RenderText(collectors::RenderLinkState, snap, &text);
  EXPECT_EQ(text.find(R"(roce_link_detected{netdev="mlx"})"), std::string::npos) << text;
  EXPECT_NE(text.find(R"(roce_link_detected{netdev="bnxt"} 1)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"(roce_link_detected{netdev="nocarrier"} 1)"), std::string::npos) << text;
  snap.link_state[0].repeats = true;  // --collector.ethtool_netlink.repeats
  testing::RenderText(collectors::RenderLinkState, snap, &text);
  EXPECT_NE(text.find(R"(roce_link_detected{netdev="mlx"} 1)"), std::string::npos) << text;
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

}  // namespace
}  // namespace rocewatch
