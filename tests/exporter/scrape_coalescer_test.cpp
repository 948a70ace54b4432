#include "exporter/pass/scrape_coalescer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/fixture_paths.h"
#include "exporter/endpoints/metrics_response.h"

namespace rocewatch {
namespace {

using rocewatch::testing::FixtureDir;

// The value of the sample `name` (a series without labels) in the exposition text, -1 if none.
double SampleValue(const std::string& text, const std::string& name) {
  const std::string line = "\n" + name + " ";
  const std::size_t at = text.find(line);
  return at == std::string::npos ? -1 : std::stod(text.substr(at + line.size(), 32));
}

// The rdma and netdev collectors over the mlx5-roce fixture.
PassConfig FixtureConfig() {
  PassConfig config;
  config.sysfs_root = FixtureDir("mlx5-roce") + "/sys";
  config.configfs_root = FixtureDir("mlx5-roce") + "/configfs";
  config.debugfs_root = FixtureDir("mlx5-roce") + "/debugfs";
  config.kernel = kernel::MakeReplayKernel(FixtureDir("mlx5-roce"));
  config.enabled_collectors = {"rdma", "netdev"};
  return config;
}

TEST(ScrapeCoalescer, ConcurrentScrapesShareOnePass) {
  constexpr int kScrapes = 16;
  const ScrapeCoalescer* self = nullptr;
  std::atomic<bool> first{true};
  PassConfig config = FixtureConfig();
  // Hold the first pass until every other scrape is waiting on it.
  config.sysfs_transform = [&](std::string_view, std::string&) {
    if (!first.exchange(false)) return;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (self->waiting() < kScrapes - 1 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  auto collector = PassRunner::Create(config);
  ASSERT_TRUE(collector.ok());
  ScrapeCoalescer coalescer(std::move(*collector));
  self = &coalescer;

  std::vector<std::shared_ptr<const std::string>> results(kScrapes);
  std::vector<std::thread> threads;
  for (int i = 0; i < kScrapes; ++i)
    threads.emplace_back([&, i] { results[i] = coalescer.CollectText(); });
  for (auto& t : threads) t.join();

  for (const auto& r : results) {
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(SampleValue(*r, "roce_exporter_collections_total"), 1);
    EXPECT_TRUE(*r == *results[0]);  // the same pass, the same page
  }
  auto after = coalescer.CollectText();
  EXPECT_EQ(SampleValue(*after, "roce_exporter_collections_total"), 2);
  EXPECT_EQ(SampleValue(*after, "roce_exporter_coalesced_scrapes_total"), kScrapes - 1);
}

// Scrapes answered from the same pass get the same bytes, not a copy each (a 32-device node's
// text is 1.5 MB, and 64 clients must not hold 64 copies).
TEST(ScrapeCoalescer, ScrapesOfOnePassShareItsTextWithoutCopies) {
  auto collector = PassRunner::Create(FixtureConfig());
  ASSERT_TRUE(collector.ok());
  ScrapeCoalescer coalescer(std::move(*collector), 0.5, /*coalesce_window_seconds=*/3600);

  auto first = coalescer.CollectText();
  ASSERT_NE(first, nullptr);
  EXPECT_NE(first->find("roce_port_state"), std::string::npos);
  auto second = coalescer.CollectText();
  EXPECT_EQ(first.get(), second.get());  // within the window: the same pass, the same text
  http::HttpResponse response = endpoints::MetricsResponse(coalescer, std::nullopt);
  EXPECT_EQ(response.Body().data(), first->data());  // the response points at it
  EXPECT_EQ(response.Body().size(), first->size());
  // (Gzip, a new body of its own, is the HTTP server's, for every route that asks for it:
  // tests/e2e/http_attacks_test.py checks it on both transports.)
}

// The page without the exporter's own series (counts and durations move every pass).
std::string WithoutExporterSeries(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string_view line(text.data() + at, end - at);
    if (line.find("roce_exporter_") == std::string_view::npos) out.append(line);
    at = end;
  }
  return out;
}

TEST(ScrapeCoalescer, ANewPageReusesTheLastBufferOnlyOnceNobodyReadsIt) {
  auto collector = PassRunner::Create(FixtureConfig());
  ASSERT_TRUE(collector.ok());
  ScrapeCoalescer coalescer(std::move(*collector), 0.5, /*coalesce_window_seconds=*/0);

  auto first = coalescer.CollectText();
  ASSERT_NE(first, nullptr);
  const std::string first_copy = *first;
  const char* first_buffer = first->data();
  auto second = coalescer.CollectText();  // `first` is still being sent: not written over
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second->data(), first_buffer);
  EXPECT_EQ(*first, first_copy);
  EXPECT_NE(first_copy.find("roce_exporter_collections_total 1\n"), std::string::npos);
  EXPECT_NE(second->find("roce_exporter_collections_total 2\n"), std::string::npos);

  first.reset();  // its last reader let go: the next page is written into its buffer
  auto third = coalescer.CollectText();
  ASSERT_NE(third, nullptr);
  EXPECT_EQ(third->data(), first_buffer);
  EXPECT_NE(third->find("roce_exporter_collections_total 3\n"), std::string::npos);
  // The same page as one written into a fresh buffer, nothing left of the old bytes.
  EXPECT_EQ(WithoutExporterSeries(*third), WithoutExporterSeries(*second));
  EXPECT_EQ(WithoutExporterSeries(*third), WithoutExporterSeries(first_copy));
  EXPECT_EQ(third->back(), '\n');
}

}  // namespace
}  // namespace rocewatch
