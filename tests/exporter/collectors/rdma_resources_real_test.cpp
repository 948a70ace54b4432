// Real `rdma resource show` outputs (tests/fixtures/real/rdma-resource, its PROVENANCE.md),
// translated into the RDMA_NLDEV_CMD_RES_GET answers the kernel sends for them
// (tests/exporter/netlink/rdma_reply.h) and served by the rdma collector: every count the text prints
// is on the page with its value, and nothing the answers lack.

#include <gtest/gtest.h>

#include <cerrno>
#include <fstream>
#include <map>
#include <sstream>
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
  std::uint32_t index = 0;
  std::vector<std::pair<std::string, std::uint64_t>> counts;
};

// iproute2's text: one line a device, "INDEX: DEVICE: TYPE COUNT ...".
std::map<std::string, Shown> ReadShown(const std::string& file) {
  std::ifstream in(std::string(ROCEWATCH_SOURCE_DIR) + "/tests/fixtures/real/rdma-resource/" + file);
  EXPECT_TRUE(in) << file;
  std::map<std::string, Shown> out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string index, device;
    words >> index >> device;
    EXPECT_TRUE(index.size() > 1 && index.back() == ':') << line;
    EXPECT_TRUE(device.size() > 1 && device.back() == ':') << line;
    device.pop_back();
    Shown& shown = out[device];
    shown.index = static_cast<std::uint32_t>(std::stoul(index));
    std::string type;
    std::uint64_t count = 0;
    while (words >> type >> count) shown.counts.emplace_back(type, count);
    EXPECT_TRUE(words.eof()) << file << ": not TYPE COUNT pairs after " << type;
  }
  return out;
}

class ShownKernel final : public kernel::KernelAnswers {
 public:
  explicit ShownKernel(std::map<std::string, Shown> shown) : shown_(std::move(shown)) {}
  int served = 0;
  kernel::Answer Ask(const kernel::Request& r) override {
    const auto* s = std::get_if<kernel::call::RdmaResourceSummary>(&r);
    if (s == nullptr || !shown_.count(s->device)) return {{}, EPROTONOSUPPORT};
    ++served;
    const Shown& shown = shown_.at(s->device);
    return {testing::BuildResourceSummaryReply(shown.index, s->device, shown.counts), 0};
  }

 private:
  std::map<std::string, Shown> shown_;
};

void ExpectEveryCountServed(const std::string& file, std::size_t devices) {
  const auto shown = ReadShown(file);
  ASSERT_EQ(shown.size(), devices) << file;
  auto kernel = std::make_shared<ShownKernel>(shown);
  PassConfig config = FixtureCollectorConfig(FixtureDir("mlx5-roce"), {"rdma"});
  config.kernel = kernel;
  auto pass = PassRunner::Create(config);
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  NodeSnapshot snap = (*pass)->Collect();
  metrics::TextRenderer out;
  collectors::RenderRdma(snap, out);
  const std::string page = std::move(out).Take();
  EXPECT_EQ(kernel->served, static_cast<int>(devices));
  std::size_t printed = 0;
  for (const auto& [device, s] : shown) {
    ASSERT_EQ(s.counts.size(), 7u) << file << " " << device;  // pd cq qp cm_id mr ctx srq
    for (const auto& [type, count] : s.counts) {
      const std::string line = "roce_rdma_resources{device=\"" + device + "\",type=\"" + type +
                               "\"} " + std::to_string(count) + "\n";
      EXPECT_NE(page.find(line), std::string::npos) << file << ": " << line << " not served";
      ++printed;
    }
  }
  std::size_t served = 0;
  for (std::size_t at = page.find("roce_rdma_resources{"); at != std::string::npos;
       at = page.find("roce_rdma_resources{", at + 1))
    ++served;
  EXPECT_EQ(served, printed);
}

TEST(RdmaResourcesRealOutputs, LibfabricIssue8256BeforeClients) {
  ExpectEveryCountServed("mlx5-libfabric-8256-before.txt", 4);
}

TEST(RdmaResourcesRealOutputs, LibfabricIssue8256After4026Clients) {
  ExpectEveryCountServed("mlx5-libfabric-8256-after.txt", 4);
}

}  // namespace
}  // namespace rocewatch
