// The rdma collector's two sources of hw counters: one RDMA netlink STAT_GET answer a port
// (kernel-shaped, tests/exporter/netlink/rdma_reply.h) and the hw_counters/ files. Same values, same
// page; optional counters only netlink lists are served like the others; where netlink fails
// (here: the live kernel, which has no RDMA netlink) the files serve, and the failed call is
// not made again until the inventory changes.

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "common/fixture_collector.h"
#include "common/fixture_paths.h"
#include "exporter/collectors/rdma/collector.h"
#include "exporter/collectors/sysfs_values.h"
#include "exporter/metrics/text_renderer.h"
#include "exporter/netlink/messages.h"
#include "exporter/netlink/rdma_nldev.h"
#include "exporter/netlink/rdma_stat.h"
#include "exporter/netlink/kernel_skb.h"
#include "exporter/netlink/rdma_reply.h"

namespace rocewatch {
namespace {

namespace stdfs = std::filesystem;
using testing::FixtureCollectorConfig;
using testing::FixtureDir;

// The fixture's hw_counters/ values of a port, as the driver would report them in STAT_GET:
// every file but lifespan whose text is a counter (a seeded oddity that does not parse is left
// out, as the files serve no value for it either).
std::vector<testing::NldevCounter> FixtureHwCounters(const std::string& dir, const std::string& dev,
                                                     std::uint32_t port) {
  std::vector<testing::NldevCounter> out;
  const stdfs::path hw = stdfs::path(dir) / "sys/class/infiniband" / dev / "ports" /
                         std::to_string(port) / "hw_counters";
  std::error_code ec;
  for (const auto& entry : stdfs::directory_iterator(hw, ec)) {
    const std::string name = entry.path().filename();
    if (name == "lifespan") continue;
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    auto v = collectors::ParseCounterValue(text);
    if (!v || v->unavailable()) continue;
    out.push_back({name, *v->value});
  }
  return out;
}

// Answers RdmaStat for the fixture's ports (plus `extra` counters), the rest from the replay.
class NetlinkKernel final : public kernel::KernelAnswers {
 public:
  explicit NetlinkKernel(std::string dir) : dir_(std::move(dir)), replay_(kernel::MakeReplayKernel(dir_)) {}
  std::vector<testing::NldevCounter> extra;
  std::vector<testing::NldevOptional> optional;  // STAT_GET_STATUS; empty: EOPNOTSUPP
  int stat_calls = 0;
  int status_calls = 0;
  kernel::Answer Ask(const kernel::Request& r) override {
    if (const auto* s = std::get_if<kernel::call::RdmaStatStatus>(&r)) {
      ++status_calls;
      if (optional.empty()) {
        testing::KernelSkb skb;
        skb.Ack(rdma_nl::BuildStatStatusRequest(7, s->port, 3), EOPNOTSUPP);
        return {skb.bytes(), 0};
      }
      return {testing::BuildStatStatusReply(7, s->device, s->port, optional), 0};
    }
    const auto* stat = std::get_if<kernel::call::RdmaStat>(&r);
    if (stat == nullptr) return replay_->Ask(r);
    ++stat_calls;
    auto counters = FixtureHwCounters(dir_, stat->device, stat->port);
    if (counters.empty()) return {{}, ENODEV};
    counters.insert(counters.end(), extra.begin(), extra.end());
    return {testing::BuildStatReply(7, stat->device, stat->port, counters), 0};
  }

 private:
  std::string dir_;
  std::unique_ptr<kernel::KernelAnswers> replay_;
};

// Counts RdmaStat calls on any kernel.
class CountingKernel final : public kernel::KernelAnswers {
 public:
  explicit CountingKernel(std::shared_ptr<kernel::KernelAnswers> inner) : inner_(std::move(inner)) {}
  int stat_calls = 0;
  kernel::Answer last_stat;
  kernel::Answer Ask(const kernel::Request& r) override {
    kernel::Answer a = inner_->Ask(r);
    if (std::holds_alternative<kernel::call::RdmaStat>(r)) {
      ++stat_calls;
      last_stat = a;
    }
    return a;
  }

 private:
  std::shared_ptr<kernel::KernelAnswers> inner_;
};

struct Page {
  NodeSnapshot snap;
  std::string text;
};

Page Collect(std::shared_ptr<kernel::KernelAnswers> kernel, std::map<std::string, std::string> options = {},
             int passes = 1) {
  PassConfig config = FixtureCollectorConfig(FixtureDir("mlx5-roce"), {"rdma"});
  config.kernel = std::move(kernel);
  config.collector_options["rdma"] = std::move(options);
  auto pass = PassRunner::Create(config);
  EXPECT_TRUE(pass.ok()) << pass.error().message;
  Page page;
  for (int i = 0; i < passes; ++i) page.snap = (*pass)->Collect();
  metrics::TextRenderer out;
  collectors::RenderRdma(page.snap, out);
  page.text = std::move(out).Take();
  return page;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(RdmaNetlink, SameValuesSamePageEitherWay) {
  for (const auto& options : std::vector<std::map<std::string, std::string>>{
           {}, {{"all-hw-counters", "true"}}}) {
    auto netlink = std::make_shared<NetlinkKernel>(FixtureDir("mlx5-roce"));
    const Page from_netlink = Collect(netlink, options);
    auto files_options = options;
    files_options["netlink"] = "false";
    const Page from_files = Collect(std::make_shared<NetlinkKernel>(FixtureDir("mlx5-roce")), files_options);
    EXPECT_GT(netlink->stat_calls, 0);
    ASSERT_FALSE(from_files.text.empty());
    EXPECT_EQ(from_netlink.text, from_files.text);
    // Real values, not two empty pages: np_cnp_sent of mlx5_0 port 1 is 2916005, served by
    // meaning, and under its raw name too with all-hw-counters.
    EXPECT_NE(from_netlink.text.find(
                  "roce_transport_events_total{device=\"mlx5_0\",port=\"1\",event=\"cnp_sent\"} 2916005\n"),
              std::string::npos);
    EXPECT_EQ(from_netlink.text.find(
                  "roce_hw_stat_total{device=\"mlx5_0\",port=\"1\",counter=\"np_cnp_sent\"} 2916005\n") !=
                  std::string::npos,
              options.contains("all-hw-counters"));
    const auto& p = from_netlink.snap.devices.at(0).ports.at(0);
    EXPECT_EQ(p.hw_counters.Find("rp_cnp_handled"), 1734562);
    // Still the file (a setting, not a counter), read only with --collector.rdma.all-hw-counters.
    if (options.contains("all-hw-counters"))
      EXPECT_EQ(p.hw_counters_lifespan_seconds, 0.01);
    else
      EXPECT_EQ(p.hw_counters_lifespan_seconds, std::nullopt);
  }
}

TEST(RdmaNetlink, NetlinkReplacesTheFileReads) {
  auto netlink = std::make_shared<NetlinkKernel>(FixtureDir("mlx5-roce"));
  PassConfig config = FixtureCollectorConfig(FixtureDir("mlx5-roce"), {"rdma"});
  config.kernel = netlink;
  auto pass = PassRunner::Create(config);
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  struct Reads final : fs::Recorder {
    int hw_counter_files = 0;
    void OnRead(std::string_view tree, std::string_view rel) override {
      if (tree == "sysfs" && rel.find("/hw_counters/") != std::string_view::npos &&
          !rel.ends_with("/lifespan") && rel.find("/ports/") != std::string_view::npos)
        ++hw_counter_files;
    }
    void OnList(std::string_view, std::string_view) override {}
    void OnLink(std::string_view, std::string_view) override {}
  } reads;
  (*pass)->Collect();  // the first pass lists and opens
  (*pass)->SetRecorder(&reads);
  (*pass)->Collect();
  (*pass)->SetRecorder(nullptr);
  EXPECT_EQ(reads.hw_counter_files, 0);
  EXPECT_GT(netlink->stat_calls, 0);
}

TEST(RdmaNetlink, OptionalCountersAreServedLikeTheOthers) {
  auto netlink = std::make_shared<NetlinkKernel>(FixtureDir("mlx5-roce"));
  netlink->extra = {{"cc_rx_ce_pkts", 4411}, {"cc_rx_cnp_pkts", 902}, {"cc_tx_cnp_pkts", 17}};
  const Page page = Collect(netlink);
  EXPECT_NE(page.text.find("roce_hw_stat_total{device=\"mlx5_0\",port=\"1\",counter=\"cc_rx_ce_pkts\"} 4411\n"),
            std::string::npos);
  EXPECT_NE(page.text.find("roce_hw_stat_total{device=\"mlx5_1\",port=\"1\",counter=\"cc_tx_cnp_pkts\"} 17\n"),
            std::string::npos);
}

// Which optional counters a port has and which are enabled: roce_hw_optional_counter_enabled.
// A kernel without STAT_GET_STATUS (before 6.0, EOPNOTSUPP) has none, and is not asked again.
TEST(RdmaNetlink, OptionalCounterStatus) {
  auto netlink = std::make_shared<NetlinkKernel>(FixtureDir("mlx5-roce"));
  netlink->extra = {{"cc_rx_ce_pkts", 4411}};
  netlink->optional = {{"cc_rx_ce_pkts", 40, true}, {"cc_rx_cnp_pkts", 41, false}, {"cc_tx_cnp_pkts", 42, false}};
  const Page page = Collect(netlink);
  const std::string p = "{device=\"mlx5_0\",port=\"1\",counter=";
  EXPECT_NE(page.text.find("roce_hw_optional_counter_enabled" + p + "\"cc_rx_ce_pkts\"} 1\n"), std::string::npos);
  EXPECT_NE(page.text.find("roce_hw_optional_counter_enabled" + p + "\"cc_rx_cnp_pkts\"} 0\n"), std::string::npos);
  EXPECT_NE(page.text.find("roce_hw_optional_counter_enabled" + p + "\"cc_tx_cnp_pkts\"} 0\n"), std::string::npos);
  EXPECT_NE(page.text.find("roce_hw_stat_total" + p + "\"cc_rx_ce_pkts\"} 4411\n"), std::string::npos);

  auto old = std::make_shared<NetlinkKernel>(FixtureDir("mlx5-roce"));
  const Page before_6_0 = Collect(old, {}, /*passes=*/2);
  EXPECT_EQ(Count(before_6_0.text, "roce_hw_optional_counter_enabled{"), 0u);
  std::size_t ports = 0;
  for (const auto& d : before_6_0.snap.devices) ports += d.ports.size();
  EXPECT_EQ(static_cast<std::size_t>(old->status_calls), ports);  // once, not once a scrape
  EXPECT_EQ(static_cast<std::size_t>(old->stat_calls), 2 * ports);
}

// No RDMA netlink here (ib_core is not loaded): the live call fails cleanly, the files serve
// the same page, and the call is not made again on the next scrape.
TEST(RdmaNetlink, LiveKernelWithoutRdmaNetlinkFallsBackToTheFiles) {
  auto live = std::make_shared<CountingKernel>(std::shared_ptr<kernel::KernelAnswers>(kernel::MakeLiveKernel()));
  const Page fallback = Collect(live, {}, /*passes=*/2);
  int error = live->last_stat.error;
  if (error == 0) {
    auto decoded = rdma_nl::DecodeStatReply(live->last_stat.bytes);
    if (decoded) GTEST_SKIP() << "this kernel answers RDMA netlink STAT_GET for the fixture's mlx5_0";
    error = decoded.error().code;
  }
  // EPROTONOSUPPORT without ib_core; ENODEV where RDMA netlink exists but not the fixture's devices.
  EXPECT_TRUE(error == EPROTONOSUPPORT || error == ENODEV || error == EPERM || error == ENOENT)
      << "errno " << error;
  std::size_t ports = 0;
  for (const auto& d : fallback.snap.devices) ports += d.ports.size();
  EXPECT_EQ(static_cast<std::size_t>(live->stat_calls), ports) << "asked again on the second scrape";
  const Page files = Collect(std::make_shared<NetlinkKernel>(FixtureDir("mlx5-roce")), {{"netlink", "false"}});
  EXPECT_EQ(fallback.text, files.text);
  EXPECT_GT(Count(fallback.text, "roce_hw_stat_total{"), 0u);
}

// An answer that does not decode, or names another port, is not served: the files are.
TEST(RdmaNetlink, ABadAnswerFallsBackToTheFiles) {
  class Bad final : public kernel::KernelAnswers {
   public:
    kernel::Answer Ask(const kernel::Request& r) override {
      if (const auto* s = std::get_if<kernel::call::RdmaStat>(&r)) {
        auto bytes = testing::BuildStatReply(1, s->device, s->port + 1, {{"np_cnp_sent", 1}});
        return {bytes, 0};
      }
      return {{}, ENODATA};
    }
  };
  const Page bad = Collect(std::make_shared<Bad>());
  const Page files = Collect(std::make_shared<NetlinkKernel>(FixtureDir("mlx5-roce")), {{"netlink", "false"}});
  EXPECT_EQ(bad.text, files.text);
}

}  // namespace
}  // namespace rocewatch
