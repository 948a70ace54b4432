// Real `rdma statistic show link DEV/PORT` outputs (tests/fixtures/real/rdma-statistic, their
// PROVENANCE.md), translated into the RDMA_NLDEV_CMD_STAT_GET answers the kernel sends for them
// (tests/exporter/netlink/rdma_reply.h) and served by the rdma collector: every counter the text prints
// is on the page with its value, the optional ones included, and nothing the answer lacks.

#include <gtest/gtest.h>

#include <cerrno>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "common/fixture_collector.h"
#include "common/fixture_paths.h"
#include "exporter/collectors/rdma/collector.h"
#include "exporter/metrics/text_renderer.h"
#include "exporter/netlink/rdma_reply.h"

namespace rocewatch {
namespace {

using testing::FixtureCollectorConfig;
using testing::FixtureDir;

struct Shown {
  std::string link;  // "mlx5_2/1" as printed
  std::vector<testing::NldevCounter> counters;
};

// iproute2's text: "link DEV/PORT" then NAME VALUE pairs, wrapped over lines.
Shown ReadShown(const std::string& file) {
  std::ifstream in(std::string(ROCEWATCH_SOURCE_DIR) + "/tests/fixtures/real/rdma-statistic/" + file);
  EXPECT_TRUE(in) << file;
  std::string word;
  Shown shown;
  in >> word;
  EXPECT_EQ(word, "link") << file;
  in >> shown.link;
  std::string name;
  std::uint64_t value = 0;
  while (in >> name >> value) shown.counters.push_back({name, value});
  EXPECT_TRUE(in.eof()) << file << ": not NAME VALUE pairs after " << name;
  return shown;
}

// Answers STAT_GET for one port of the fixture with the printed counters; other ports fail
// as they do without RDMA netlink (their files serve).
class ShownKernel final : public kernel::KernelAnswers {
 public:
  ShownKernel(std::string device, Shown shown)
      : device_(std::move(device)), shown_(std::move(shown)),
        replay_(kernel::MakeReplayKernel(FixtureDir("mlx5-roce"))) {}
  int served = 0;
  kernel::Answer Ask(const kernel::Request& r) override {
    const auto* stat = std::get_if<kernel::call::RdmaStat>(&r);
    if (stat == nullptr) return replay_->Ask(r);
    if (stat->device != device_ || stat->port != 1) return {{}, EPROTONOSUPPORT};
    ++served;
    return {testing::BuildStatReply(3, device_, 1, shown_.counters), 0};
  }

 private:
  std::string device_;
  Shown shown_;
  std::unique_ptr<kernel::KernelAnswers> replay_;
};

std::string Page(std::shared_ptr<kernel::KernelAnswers> kernel) {
  PassConfig config = FixtureCollectorConfig(FixtureDir("mlx5-roce"), {"rdma"});
  config.kernel = std::move(kernel);
  // Every counter the driver gives: the outputs show mlx5's detail counters too.
  config.collector_options["rdma"] = {{"all-hw-counters", "true"}};
  auto pass = PassRunner::Create(config);
  EXPECT_TRUE(pass.ok()) << pass.error().message;
  NodeSnapshot snap = (*pass)->Collect();
  metrics::TextRenderer out;
  collectors::RenderRdma(snap, out);
  return std::move(out).Take();
}

std::string Sample(const std::string& device, const std::string& counter, std::uint64_t value) {
  return "roce_hw_stat_total{device=\"" + device + "\",port=\"1\",counter=\"" + counter + "\"} " +
         std::to_string(value) + "\n";
}

void ExpectEveryValueServed(const std::string& file, const std::string& link,
                            const std::string& device, std::size_t count) {
  Shown shown = ReadShown(file);
  EXPECT_EQ(shown.link, link);
  ASSERT_EQ(shown.counters.size(), count) << file;
  auto kernel = std::make_shared<ShownKernel>(device, shown);
  const std::string page = Page(kernel);
  EXPECT_GT(kernel->served, 0);
  std::set<std::string> printed;
  for (const auto& c : shown.counters) {
    printed.insert(c.name);
    EXPECT_NE(page.find(Sample(device, c.name, c.value)), std::string::npos)
        << file << ": " << c.name << " " << c.value << " not served";
  }
  // The answer is the port's whole set: nothing else of that port is served as a hw counter.
  const std::string prefix = "roce_hw_stat_total{device=\"" + device + "\",port=\"1\",counter=\"";
  std::size_t served = 0;
  for (std::size_t at = page.find(prefix); at != std::string::npos; at = page.find(prefix, at + 1)) {
    const std::size_t start = at + prefix.size();
    const std::string name = page.substr(start, page.find('"', start) - start);
    EXPECT_TRUE(printed.count(name)) << file << ": " << name << " served but not printed";
    ++served;
  }
  EXPECT_EQ(served, count);
  // And by meaning (roce_transport_events_total): the mlx5 counters.c names the outputs print,
  // with the event each is (typed from counters.c and NVIDIA's counter descriptions).
  const std::map<std::string, std::string> events = {
      {"np_cnp_sent", "cnp_sent"}, {"rp_cnp_handled", "cnp_handled"}, {"rp_cnp_ignored", "cnp_ignored"},
      {"np_ecn_marked_roce_packets", "ecn_marked"}, {"out_of_sequence", "out_of_sequence"},
      {"duplicate_request", "duplicate_request"}, {"packet_seq_err", "sequence_error_nak"},
      {"local_ack_timeout_err", "local_ack_timeout"}, {"roce_adp_retrans", "retransmits"},
      {"rnr_nak_retry_err", "rnr_nak_received"}, {"implied_nak_seq_err", "implied_nak_sequence_error"}};
  std::size_t by_meaning = 0;
  for (const auto& c : shown.counters) {
    auto e = events.find(c.name);
    if (e == events.end()) continue;
    ++by_meaning;
    const std::string sample = "roce_transport_events_total{device=\"" + device + "\",port=\"1\",event=\"" +
                               e->second + "\"} " + std::to_string(c.value) + "\n";
    EXPECT_NE(page.find(sample), std::string::npos) << file << ": " << sample;
  }
  EXPECT_GE(by_meaning, 10u) << file;
}

TEST(RdmaNetlinkRealOutputs, Iproute2DefaultCounterShow2019) {
  // rx_write_requests 8, rx_read_requests 4; the fixture's files for mlx5_2/1 hold other
  // values and counters this kernel did not have (roce_adp_retrans …): the answer wins.
  ExpectEveryValueServed("mlx5-iproute2-2019.txt", "mlx5_2/1", "mlx5_2", 23);
}

TEST(RdmaNetlinkRealOutputs, OptionalCountersEnabled2021) {
  // cc_rx_ce_pkts and cc_rx_cnp_pkts: optional counters, which no sysfs file shows.
  ExpectEveryValueServed("mlx5-optional-counters-2021.txt", "rocep8s0f0/1", "mlx5_0", 30);
}

}  // namespace
}  // namespace rocewatch
