// SourcePool (exporter/pass/source_pool.h): a few threads run a pass's sources in turn. With more
// sources hung than threads, the sources queued behind them time out before they start, and
// the next pass serves them on replacement threads while the hung ones are reported busy;
// once released, every source is served again and the pool is back to its size, also after a
// second hang (the threads that left are joined). A source that
// throws fails alone. Prepare runs once per inventory generation. Once their durations are known
// the longest sources are handed out first.

#include "exporter/pass/source_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace rocewatch {
namespace {

using Clock = std::chrono::steady_clock;

// A gate a source blocks on while it is closed (a firmware command that does not return).
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  std::atomic<int> waiting{0};
  void Pass() {
    std::unique_lock<std::mutex> lock(mu);
    ++waiting;
    cv.wait_for(lock, std::chrono::seconds(30), [&] { return open; });
    --waiting;
  }
  void Open() {
    {
      std::lock_guard<std::mutex> lock(mu);
      open = true;
    }
    cv.notify_all();
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mu);
    open = false;
  }
};

class TestSource final : public collectors::Source {
 public:
  TestSource(std::string netdev, Gate* gate, bool throws = false)
      : netdev_(std::move(netdev)), gate_(gate), throws_(throws) {}
  void Prepare(const Inventory&) override { ++prepared; }
  void Collect(const Inventory&, NodeSnapshot& out, SourceStatus&) override {
    if (gate_ != nullptr && hang.load()) gate_->Pass();
    if (throws_) throw std::runtime_error("boom");
    NetdevSnapshot n;
    n.name = netdev_;
    out.netdevs.push_back(n);
  }
  std::atomic<bool> hang{true};
  std::atomic<int> prepared{0};

 private:
  std::string netdev_;
  Gate* gate_;
  bool throws_;
};

const collectors::CollectorInfo kInfos[] = {
    {"a", "", true, {}, nullptr, nullptr, nullptr}, {"b", "", true, {}, nullptr, nullptr, nullptr},
    {"c", "", true, {}, nullptr, nullptr, nullptr}, {"d", "", true, {}, nullptr, nullptr, nullptr}};

std::vector<std::string> Served(const std::vector<SourcePool::Outcome>& outcomes) {
  std::vector<std::string> names;
  for (const auto& o : outcomes)
    for (const auto& n : o.part.netdevs) names.push_back(n.name);
  return names;
}

TEST(SourcePool, MoreHungSourcesThanThreadsCostOnePassThenTheRestAreServed) {
  Gate gate;
  auto a = std::make_unique<TestSource>("a0", &gate);
  auto b = std::make_unique<TestSource>("b0", &gate);
  auto c = std::make_unique<TestSource>("c0", nullptr);
  auto d = std::make_unique<TestSource>("d0", nullptr);
  TestSource* hung_a = a.get();
  TestSource* hung_b = b.get();
  std::vector<SourcePool::Entry> entries;
  entries.push_back({&kInfos[0], std::move(a)});
  entries.push_back({&kInfos[1], std::move(b)});
  entries.push_back({&kInfos[2], std::move(c)});
  entries.push_back({&kInfos[3], std::move(d)});
  SourcePool pool(std::move(entries), 2);
  auto inventory = std::make_shared<Inventory>();
  inventory->generation = 1;

  // a and b hang on both threads: c and d never start.
  auto first = pool.Run(inventory, Clock::now() + std::chrono::milliseconds(300));
  ASSERT_EQ(first.size(), 4u);
  EXPECT_TRUE(Served(first).empty());
  for (const auto& o : first) {
    EXPECT_TRUE(o.timed_out) << o.status.name;
    EXPECT_FALSE(o.status.success);
    ASSERT_EQ(o.status.errors.size(), 1u);
  }
  EXPECT_EQ(first[0].status.errors[0].find("before it started"), std::string::npos);
  EXPECT_NE(first[2].status.errors[0].find("before it started (every collector thread was busy)"),
            std::string::npos);
  EXPECT_EQ(gate.waiting.load(), 2);

  // The stuck threads are replaced: c and d are served, a and b reported busy, not run again.
  auto second = pool.Run(inventory, Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(Served(second), (std::vector<std::string>{"c0", "d0"}));
  EXPECT_EQ(second[0].status.errors, std::vector<std::string>{"still busy with an earlier pass that ran past its deadline"});
  EXPECT_FALSE(second[1].timed_out);
  EXPECT_TRUE(second[2].status.success && second[3].status.success);
  EXPECT_EQ(pool.threads(), 2u);

  // Released: their late results are dropped; the next pass serves all four.
  hung_a->hang = false;
  hung_b->hang = false;
  gate.Open();
  std::vector<SourcePool::Outcome> later;
  for (int i = 0; i < 100; ++i) {
    later = pool.Run(inventory, Clock::now() + std::chrono::seconds(10));
    if (Served(later).size() == 4) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(Served(later), (std::vector<std::string>{"a0", "b0", "c0", "d0"}));
  EXPECT_EQ(hung_a->prepared.load(), 1);  // one generation, one Prepare
  // The replaced threads that came back left: the pool is its size again.
  for (int i = 0; i < 100 && pool.threads() != 2u; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(pool.threads(), 2u);

  // a hangs again: the others are served by the other thread, the stuck one is replaced (and
  // the threads that left after the first hang are joined then), and a is served once it
  // returns.
  gate.Close();
  hung_a->hang = true;
  auto hang = pool.Run(inventory, Clock::now() + std::chrono::milliseconds(300));
  EXPECT_TRUE(hang[0].timed_out);
  EXPECT_EQ(Served(hang), (std::vector<std::string>{"b0", "c0", "d0"}));
  auto meanwhile = pool.Run(inventory, Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(Served(meanwhile), (std::vector<std::string>{"b0", "c0", "d0"}));
  EXPECT_EQ(pool.threads(), 2u);
  hung_a->hang = false;
  gate.Open();
  for (int i = 0; i < 100; ++i) {
    later = pool.Run(inventory, Clock::now() + std::chrono::seconds(10));
    if (Served(later).size() == 4) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(Served(later), (std::vector<std::string>{"a0", "b0", "c0", "d0"}));
}

// A source that notes when it ran, taking `busy` to run (a slow sysfs walk).
class OrderedSource final : public collectors::Source {
 public:
  OrderedSource(std::string name, std::chrono::milliseconds busy, std::vector<std::string>* order,
                std::mutex* mu)
      : name_(std::move(name)), busy_(busy), order_(order), mu_(mu) {}
  void Prepare(const Inventory&) override {}
  void Collect(const Inventory&, NodeSnapshot&, SourceStatus&) override {
    std::this_thread::sleep_for(busy_);
    std::lock_guard<std::mutex> lock(*mu_);
    order_->push_back(name_);
  }

 private:
  std::string name_;
  std::chrono::milliseconds busy_;
  std::vector<std::string>* order_;
  std::mutex* mu_;
};

// The first pass hands the sources out in registry order; the next ones the longest first, by
// how long each took the pass before (the threads then finish together). Outcomes stay in
// registry order whatever order the sources ran in.
TEST(SourcePool, HandsOutTheLongestSourcesFirstOnceTheirDurationsAreKnown) {
  std::mutex mu;
  std::vector<std::string> order;
  std::vector<SourcePool::Entry> entries;
  const int busy_ms[] = {0, 30, 0, 60};
  for (int i = 0; i < 4; ++i)
    entries.push_back({&kInfos[i], std::make_unique<OrderedSource>(std::string(kInfos[i].name),
                                                                   std::chrono::milliseconds(busy_ms[i]), &order, &mu)});
  SourcePool pool(std::move(entries), 1);
  auto inventory = std::make_shared<Inventory>();
  inventory->generation = 1;

  auto first = pool.Run(inventory, Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(order, (std::vector<std::string>{"a", "b", "c", "d"}));
  order.clear();
  auto second = pool.Run(inventory, Clock::now() + std::chrono::seconds(10));
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[0], "d");
  EXPECT_EQ(order[1], "b");
  ASSERT_EQ(second.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(second[i].status.name, kInfos[i].name);
    EXPECT_TRUE(second[i].status.success) << kInfos[i].name;
  }
}

TEST(SourcePool, AThrowingSourceFailsAloneAndANewGenerationIsPrepared) {
  auto ok = std::make_unique<TestSource>("a0", nullptr);
  auto bad = std::make_unique<TestSource>("b0", nullptr, /*throws=*/true);
  TestSource* prepared = ok.get();
  std::vector<SourcePool::Entry> entries;
  entries.push_back({&kInfos[0], std::move(ok)});
  entries.push_back({&kInfos[1], std::move(bad)});
  SourcePool pool(std::move(entries));
  auto inventory = std::make_shared<Inventory>();
  inventory->generation = 1;
  auto out = pool.Run(inventory, Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(Served(out), std::vector<std::string>{"a0"});
  EXPECT_TRUE(out[0].status.success);
  EXPECT_FALSE(out[1].status.success);
  EXPECT_EQ(out[1].status.errors, std::vector<std::string>{"internal error: boom"});
  EXPECT_FALSE(out[1].timed_out);
  pool.Run(inventory, Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(prepared->prepared.load(), 1);
  auto next = std::make_shared<Inventory>();
  next->generation = 2;
  pool.Run(next, Clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(prepared->prepared.load(), 2);
}

}  // namespace
}  // namespace rocewatch
