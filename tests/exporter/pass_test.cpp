// The collection pass (exporter/pass/runner.h) over the fixtures: every collector's status,
// devices that vanish, leave or join, option errors and a source that hangs. What each
// collector reads is tested in tests/exporter/collectors/<name>_test.cpp.

#include "exporter/pass/runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/fixture_collector.h"
#include "common/fixture_pass.h"
#include "common/fixture_paths.h"
#include "common/test_dir.h"
#include "exporter/collectors/registry.h"

namespace rocewatch {
namespace {

using testing::FixtureDir;
using testing::MakeFixturePass;
using testing::StatusOf;
using testing::TestDir;

TEST(PassRunner, EmptyNodeServesOnlyStatus) {
  auto pass = MakeFixturePass(FixtureDir("empty"));
  NodeSnapshot s = pass->Collect();
  EXPECT_TRUE(s.devices.empty());
  EXPECT_EQ(s.sources.size(), collectors::AllCollectors().size());
  for (const auto& st : s.sources) EXPECT_TRUE(st.success);
}

// The kernel-answer collectors succeed on every fixture they replay.
TEST(PassRunner, KernelAnswerCollectorsSucceedOnEveryFixture) {
  for (const char* fixture : {"mlx5-roce", "mlx5-ib", "mlx5-sriov", "empty"}) {
    auto collector = PassRunner::Create(
        testing::FixtureCollectorConfig(FixtureDir(fixture), {"ethtool", "dcb", "ethtool_netlink", "fec", "verbs"}));
    ASSERT_TRUE(collector.ok()) << collector.error().message;
    NodeSnapshot s = (*collector)->Collect();
    for (const auto& st : s.sources) {
      EXPECT_TRUE(st.success) << fixture << " " << st.name << ": "
                              << ::testing::PrintToString(st.errors);
    }
  }
}

TEST(PassRunner, DeviceThatVanishesCostsItsSeriesOnly) {
  TestDir dir;
  testing::CopyFixture("mlx5-roce", dir.path());
  auto pass = MakeFixturePass(dir.path());
  NodeSnapshot first = pass->Collect();
  ASSERT_EQ(first.devices.size(), 4u);
  EXPECT_EQ(pass->stats().discoveries_total, 1);
  // The device's directory disappears while its class link stays (the window
  // between listing and reading): its held attributes now read as gone.
  std::string pci = std::filesystem::read_symlink(dir / "sys/class/infiniband/mlx5_1").string();
  std::filesystem::remove_all(std::filesystem::path(dir / "sys/class/infiniband") / pci);
  NodeSnapshot second = pass->Collect();
  ASSERT_EQ(second.devices.size(), 3u);
  EXPECT_EQ(second.devices[1].name, "mlx5_2");
  EXPECT_EQ(StatusOf(second, "rdma").vanished_total, 1);
  EXPECT_TRUE(StatusOf(second, "rdma").success);
  // The next pass walks the tree again; the dangling device is skipped with a reason.
  NodeSnapshot third = pass->Collect();
  EXPECT_EQ(pass->stats().discoveries_total, 2);
  EXPECT_EQ(third.devices.size(), 3u);
  EXPECT_EQ(pass->inventory().errors.size(), 1u);
}

// A device that leaves the class directory (unplugged, its driver unbound) and one that joins
// it are in the very scrape that first lists them: the listing is looked at while the sources
// run, and a pass over the inventory it made stale is run again over the new one.
TEST(PassRunner, DeviceThatLeavesOrJoinsTheListingIsInThatScrape) {
  TestDir dir;
  testing::CopyFixture("mlx5-roce", dir.path());
  auto pass = MakeFixturePass(dir.path());
  ASSERT_EQ(pass->Collect().devices.size(), 4u);
  const std::filesystem::path link = dir / "sys/class/infiniband/mlx5_1";
  const std::filesystem::path target = std::filesystem::read_symlink(link);
  std::filesystem::remove(link);

  NodeSnapshot without = pass->Collect();
  EXPECT_EQ(pass->stats().discoveries_total, 2);
  ASSERT_EQ(without.devices.size(), 3u);
  EXPECT_EQ(without.devices[1].name, "mlx5_2");
  EXPECT_EQ(StatusOf(without, "rdma").vanished_total, 0);
  EXPECT_TRUE(StatusOf(without, "rdma").errors.empty());

  std::filesystem::create_directory_symlink(target, link);
  NodeSnapshot with = pass->Collect();
  EXPECT_EQ(pass->stats().discoveries_total, 3);
  ASSERT_EQ(with.devices.size(), 4u);
  EXPECT_EQ(with.devices[1].name, "mlx5_1");
  EXPECT_EQ(pass->Collect().devices.size(), 4u);
  EXPECT_EQ(pass->stats().discoveries_total, 3);  // nothing changed: no walk again
}

TEST(PassRunner, RejectsBadOptionValues) {
  PassConfig c = testing::FixtureCollectorConfig(FixtureDir("mlx5-roce"));
  c.collector_options["rdma"]["gid-interval"] = "soon";
  auto collector = PassRunner::Create(c);
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().message,
            "--collector.rdma.gid-interval: invalid duration \"soon\" (expected e.g. 500ms, 30s, 5m, 1h)");
}

// A source that hangs (a firmware command that never returns) is cut off at the
// pass's deadline: its series are left out, the other sources are served, and
// while it is still stuck it is reported busy instead of being asked again.
TEST(PassRunner, HangingSourceIsBoundedByTheDeadline) {
  std::mutex mu;
  std::condition_variable released_cv;
  bool released = false;
  std::atomic<int> blocked{0};
  PassConfig c = testing::FixtureCollectorConfig(FixtureDir("mlx5-roce"));
  c.enabled_collectors = {"rdma", "netdev", "pcie"};
  c.source_timeout_seconds = 0.3;
  c.sysfs_transform = [&](std::string_view rel, std::string&) {
    if (rel.find("hw_counters/np_cnp_sent") == std::string_view::npos) return;
    std::unique_lock<std::mutex> lock(mu);
    ++blocked;
    released_cv.wait_for(lock, std::chrono::seconds(30), [&] { return released; });
  };
  auto collector = PassRunner::Create(c);
  ASSERT_TRUE(collector.ok());

  auto t0 = std::chrono::steady_clock::now();
  NodeSnapshot first = (*collector)->Collect();
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(took, 5.0);  // bounded by the 0.3 s deadline, not by the hang
  EXPECT_FALSE(StatusOf(first, "rdma").success);
  EXPECT_NE(StatusOf(first, "rdma").errors.at(0).find("timed out"), std::string::npos);
  EXPECT_TRUE(first.devices.empty());
  // What `roce_exporter capture` reports as incomplete.
  EXPECT_EQ((*collector)->timed_out(), std::vector<std::string>{"rdma"});
  EXPECT_TRUE(StatusOf(first, "netdev").success);
  EXPECT_EQ(first.netdevs.size(), 4u);
  EXPECT_EQ(first.pcie.size(), 4u);

  NodeSnapshot second = (*collector)->Collect();
  EXPECT_FALSE(StatusOf(second, "rdma").success);
  EXPECT_EQ(StatusOf(second, "rdma").errors.at(0),
            "still busy with an earlier pass that ran past its deadline");
  EXPECT_EQ(second.netdevs.size(), 4u);

  {
    std::lock_guard<std::mutex> lock(mu);
    released = true;
  }
  released_cv.notify_all();
  // Once the stuck read returns, the source is served again.
  NodeSnapshot third;
  for (int i = 0; i < 50; ++i) {
    third = (*collector)->Collect();
    if (StatusOf(third, "rdma").success) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(StatusOf(third, "rdma").success);
  EXPECT_EQ(third.devices.size(), 4u);
  EXPECT_TRUE((*collector)->timed_out().empty());
}

}  // namespace
}  // namespace rocewatch
