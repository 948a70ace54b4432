// The fec source on kernel-shaped FEC_GET answers (tests/exporter/netlink/fec_reply.h): what it
// serves, what EOPNOTSUPP costs on the next scrape, and what a malformed answer costs.

#include <gtest/gtest.h>
#include <linux/ethtool.h>

#include <algorithm>
#include <cerrno>
#include <map>

#include "exporter/kernel/answers.h"
#include "exporter/netlink/ethtool_fec.h"
#include "common/kernel_answer_harness.h"
#include "exporter/netlink/fec_reply.h"
#include "exporter/netlink/kernel_skb.h"

namespace rocewatch {
namespace {

using testing::BuildFecReply;
using testing::FecReplySpec;
using testing::kernel_sources::AnyErrorHas;
using testing::kernel_sources::HasLine;
using testing::kernel_sources::NetdevInventory;
using testing::kernel_sources::SourceUnderTest;

// Answers FEC_GET per netdev from a table; counts the calls.
class TableKernel final : public kernel::KernelAnswers {
 public:
  std::map<std::string, kernel::Answer> answers;
  std::map<std::string, int> calls;
  kernel::Answer Ask(const kernel::Request& r) override {
    const auto* fec = std::get_if<kernel::call::Fec>(&r);
    if (fec == nullptr) return {{}, ENODATA};
    calls[fec->netdev] += 1;
    auto it = answers.find(fec->netdev);
    return it == answers.end() ? kernel::Answer{{}, ENODATA} : it->second;
  }
};

// What the kernel answers FEC_GET on a driver without get_fecparam (veth): NLMSG_ERROR.
kernel::Answer Eopnotsupp(const std::string& netdev) {
  auto request = ethtool_nl::BuildFecRequest(21, netdev, 7);
  EXPECT_TRUE(request);
  testing::KernelSkb skb;
  skb.Ack(*request, EOPNOTSUPP);
  return {skb.bytes(), 0};
}

kernel::Answer Reply(const FecReplySpec& spec) { return {BuildFecReply(spec), 0}; }

TEST(FecSource, ModesCountersLanesAndHistogramAreServed) {
  TableKernel kernel;
  FecReplySpec rs;
  rs.ifname = "ens1f0np0";
  rs.modes = {ETHTOOL_LINK_MODE_FEC_RS_BIT};
  rs.fec_auto = 1;
  rs.active = ETHTOOL_LINK_MODE_FEC_RS_BIT;
  rs.corrected = {123};
  rs.uncorrectable = {4};
  rs.hist = {{0, 0, 445, {125, 120, 100, 100}}, {1, 3, 12, {}}, {4, 7, 2, {}}};
  kernel.answers["ens1f0np0"] = Reply(rs);
  FecReplySpec fc;
  fc.ifname = "ens2f0np0";
  fc.modes = {ETHTOOL_LINK_MODE_FEC_BASER_BIT, ETHTOOL_LINK_MODE_FEC_NONE_BIT};
  fc.active = ETHTOOL_LINK_MODE_FEC_BASER_BIT;
  fc.corrected = {1316, 1234, 5, 0, 77};
  fc.uncorrectable = {9, 9, 0, 0, 0};
  fc.corrected_bits = {2500000};
  kernel.answers["ens2f0np0"] = Reply(fc);

  SourceUnderTest source("fec", kernel);
  auto p = source.Collect(NetdevInventory({"ens1f0np0", "ens2f0np0"}));
  EXPECT_TRUE(p.status.success) << ::testing::PrintToString(p.status.errors);
  const std::string t = source.Page(p.snap);
  EXPECT_TRUE(HasLine(t, R"(roce_fec_active_info{netdev="ens1f0np0",mode="rs"} 1)")) << t;
  EXPECT_TRUE(HasLine(t, R"(roce_fec_configured_info{netdev="ens1f0np0",mode="auto"} 1)"));
  EXPECT_TRUE(HasLine(t, R"(roce_fec_configured_info{netdev="ens1f0np0",mode="rs"} 1)"));
  EXPECT_TRUE(HasLine(t, R"(roce_fec_corrected_blocks_total{netdev="ens1f0np0"} 123)"));
  EXPECT_TRUE(HasLine(t, R"(roce_fec_uncorrectable_blocks_total{netdev="ens1f0np0"} 4)"));
  EXPECT_TRUE(
      HasLine(t, R"(roce_fec_histogram_codewords_total{netdev="ens1f0np0",low="0",high="0"} 445)"));
  EXPECT_TRUE(
      HasLine(t, R"(roce_fec_histogram_codewords_total{netdev="ens1f0np0",low="1",high="3"} 12)"));
  EXPECT_TRUE(
      HasLine(t, R"(roce_fec_histogram_codewords_total{netdev="ens1f0np0",low="4",high="7"} 2)"));
  EXPECT_EQ(t.find(R"(roce_fec_corrected_bits_total{netdev="ens1f0np0"})"), std::string::npos)
      << "a counter the driver does not keep (empty array) is absent, not 0";

  EXPECT_TRUE(HasLine(t, R"(roce_fec_active_info{netdev="ens2f0np0",mode="baser"} 1)"));
  EXPECT_TRUE(HasLine(t, R"(roce_fec_configured_info{netdev="ens2f0np0",mode="off"} 1)"));
  EXPECT_TRUE(HasLine(t, R"(roce_fec_configured_info{netdev="ens2f0np0",mode="baser"} 1)"));
  EXPECT_EQ(t.find(R"(roce_fec_configured_info{netdev="ens2f0np0",mode="auto"})"),
            std::string::npos);
  EXPECT_TRUE(HasLine(t, R"(roce_fec_corrected_blocks_total{netdev="ens2f0np0"} 1316)"));
  EXPECT_TRUE(
      HasLine(t, R"(roce_fec_lane_corrected_blocks_total{netdev="ens2f0np0",lane="0"} 1234)"));
  EXPECT_TRUE(
      HasLine(t, R"(roce_fec_lane_corrected_blocks_total{netdev="ens2f0np0",lane="3"} 77)"));
  EXPECT_TRUE(
      HasLine(t, R"(roce_fec_lane_uncorrectable_blocks_total{netdev="ens2f0np0",lane="0"} 9)"));
  EXPECT_TRUE(HasLine(t, R"(roce_fec_corrected_bits_total{netdev="ens2f0np0"} 2500000)"));
}

// veth (and IPoIB) answer EOPNOTSUPP: no FEC, not a failure, and not asked again each scrape
// until the inventory changes.
TEST(FecSource, UnsupportedIsNoFecAndIsNotAskedAgainUntilTheInventoryChanges) {
  TableKernel kernel;
  kernel.answers["veth0"] = Eopnotsupp("veth0");
  FecReplySpec rs;
  rs.ifname = "ens1f0np0";
  rs.modes = {ETHTOOL_LINK_MODE_FEC_RS_BIT};
  rs.active = ETHTOOL_LINK_MODE_FEC_RS_BIT;
  rs.corrected = {1};
  kernel.answers["ens1f0np0"] = Reply(rs);
  SourceUnderTest source("fec", kernel);
  const Inventory first = NetdevInventory({"veth0", "ens1f0np0"}, 1);
  for (int pass = 0; pass < 3; ++pass) {
    auto p = source.Collect(first);
    EXPECT_TRUE(p.status.success) << ::testing::PrintToString(p.status.errors);
    EXPECT_TRUE(p.status.errors.empty());
    ASSERT_EQ(p.snap.fec.size(), 1u);
    EXPECT_EQ(p.snap.fec[0].netdev, "ens1f0np0");
  }
  EXPECT_EQ(kernel.calls["veth0"], 1);
  EXPECT_EQ(kernel.calls["ens1f0np0"], 3);
  // A new inventory (a netdev appeared, a driver reloaded): asked once more.
  source.Collect(NetdevInventory({"veth0", "ens1f0np0", "veth1"}, 2));
  source.Collect(NetdevInventory({"veth0", "ens1f0np0", "veth1"}, 2));
  EXPECT_EQ(kernel.calls["veth0"], 2);
}

TEST(FecSource, MalformedAnswerCostsOnlyThatNetdevsFecValues) {
  TableKernel kernel;
  FecReplySpec good;
  good.ifname = "ens1f0np0";
  good.modes = {ETHTOOL_LINK_MODE_FEC_RS_BIT};
  good.active = ETHTOOL_LINK_MODE_FEC_RS_BIT;
  good.uncorrectable = {17};
  kernel.answers["ens1f0np0"] = Reply(good);
  FecReplySpec bad = good;
  bad.ifname = "ens2f0np0";
  bad.hist = {{7, 4, 2, {}}};  // low above high
  kernel.answers["ens2f0np0"] = Reply(bad);
  SourceUnderTest source("fec", kernel);
  auto p = source.Collect(NetdevInventory({"ens1f0np0", "ens2f0np0"}));
  EXPECT_FALSE(p.status.success);
  EXPECT_TRUE(AnyErrorHas(p.status, "netdev ens2f0np0", "bin low 7 is above high 4"))
      << ::testing::PrintToString(p.status.errors);
  ASSERT_EQ(p.snap.fec.size(), 1u);
  const std::string t = source.Page(p.snap);
  EXPECT_TRUE(HasLine(t, R"(roce_fec_uncorrectable_blocks_total{netdev="ens1f0np0"} 17)"));
  EXPECT_EQ(t.find("ens2f0np0"), std::string::npos);
  // A malformed answer is asked again next time (it is not remembered as "no FEC").
  source.Collect(NetdevInventory({"ens1f0np0", "ens2f0np0"}));
  EXPECT_EQ(kernel.calls["ens2f0np0"], 2);
}

TEST(FecSource, NoActiveEncodingIsServedAsNone) {
  TableKernel kernel;
  FecReplySpec none;
  none.ifname = "ens3f0np0";
  none.modes = {ETHTOOL_LINK_MODE_FEC_RS_BIT};
  none.fec_auto = 1;
  none.stats = false;  // a kernel before 5.14, asked without ETHTOOL_FLAG_STATS
  kernel.answers["ens3f0np0"] = Reply(none);
  SourceUnderTest source("fec", kernel);
  auto p = source.Collect(NetdevInventory({"ens3f0np0"}));
  EXPECT_TRUE(p.status.success);
  const std::string t = source.Page(p.snap);
  EXPECT_TRUE(HasLine(t, R"(roce_fec_active_info{netdev="ens3f0np0",mode="none"} 1)")) << t;
  EXPECT_EQ(t.find("_blocks_total"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
