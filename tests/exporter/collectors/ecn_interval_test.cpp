// --collector.ecn.interval: a clean read of the ECN/DCQCN settings is served again until the
// interval has passed, on a copy of the mlx5-roce fixture whose files the test rewrites in
// place (the source holds them open and preads them, as it does on a live node).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/fixture_paths.h"
#include "common/test_dir.h"
#include "exporter/collectors/ecn/source.h"
#include "exporter/fs/tree.h"
#include "exporter/inventory/inventory.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {
namespace {

namespace stdfs = std::filesystem;
using rocewatch::testing::FixtureDir;
using rocewatch::testing::TestDir;

constexpr const char* kEnable3 =
    "sys/devices/pci0000:16/0000:16:01.0/0000:17:00.0/net/ens1f0np0/ecn/roce_np/enable/3";
constexpr const char* kAiRate =
    "sys/devices/pci0000:16/0000:16:01.0/0000:17:00.0/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate";

class EcnInterval : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::CopyFixture("mlx5-roce", dir_.path());
    sysfs_ = std::make_unique<fs::Tree>("sysfs", dir_ / "sys");
    debugfs_ = std::make_unique<fs::Tree>("debugfs", dir_ / "debugfs");
    inventory_ = Discover(*sysfs_, {}, 1);
  }

  std::unique_ptr<collectors::Source> Make(const std::string& interval) {
    collectors::SourceEnv env;
    env.sysfs = sysfs_.get();
    env.configfs = sysfs_.get();
    env.debugfs = debugfs_.get();
    env.options = {{"interval", interval}, {"all-priorities", "false"}, {"all-sources", "false"}};
    collectors::SourceClock clock{[] { return 1.7e9; }, [this] { return now_; }};
    auto made = collectors::MakeEcnSource(env, clock);
    EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.error().message);
    if (!made.ok()) return nullptr;
    (*made)->Prepare(inventory_);
    return std::move(*made);
  }

  struct Seen {
    std::optional<bool> np_enabled_3;
    double ai_rate = -1;
    SourceStatus status;
  };
  Seen Collect(collectors::Source& source) {
    NodeSnapshot snap;
    Seen seen;
    source.Collect(inventory_, snap, seen.status);
    EXPECT_EQ(snap.ecn.size(), 4u);
    for (const auto& e : snap.ecn) {
      if (e.netdev != "ens1f0np0") continue;
      seen.np_enabled_3 = e.np_enabled[3];
      for (const auto& p : e.parameters)
        if (p.point == "rp" && p.name == "rpg_ai_rate" && p.source == "sysfs") seen.ai_rate = p.value;
    }
    return seen;
  }

  void Rewrite(const char* rel, const std::string& content) {
    std::ofstream(dir_ / rel, std::ios::in | std::ios::out | std::ios::trunc) << content;
  }

  TestDir dir_;
  std::unique_ptr<fs::Tree> sysfs_, debugfs_;
  Inventory inventory_;
  double now_ = 1000;
};

TEST_F(EcnInterval, ACleanReadIsServedUntilTheIntervalHasPassed) {
  auto source = Make("30s");
  ASSERT_NE(source, nullptr);
  Seen first = Collect(*source);
  ASSERT_EQ(first.np_enabled_3, true);
  ASSERT_GT(first.ai_rate, 0);
  Rewrite(kEnable3, "0\n");
  Rewrite(kAiRate, "7\n");
  now_ += 29;
  Seen cached = Collect(*source);
  EXPECT_EQ(cached.np_enabled_3, true);
  EXPECT_EQ(cached.ai_rate, first.ai_rate);
  EXPECT_TRUE(cached.status.success);
  EXPECT_EQ(cached.status.unavailable_values, first.status.unavailable_values);
  now_ += 1;
  Seen again = Collect(*source);
  EXPECT_EQ(again.np_enabled_3, false);
  EXPECT_EQ(again.ai_rate, 7);
}

TEST_F(EcnInterval, ZeroReadsOnEveryCollection) {
  auto source = Make("0s");
  ASSERT_NE(source, nullptr);
  ASSERT_EQ(Collect(*source).np_enabled_3, true);
  Rewrite(kEnable3, "0\n");
  EXPECT_EQ(Collect(*source).np_enabled_3, false);
}

TEST_F(EcnInterval, ANewInventoryIsReadAtOnce) {
  auto source = Make("30s");
  ASSERT_NE(source, nullptr);
  ASSERT_EQ(Collect(*source).np_enabled_3, true);
  Rewrite(kEnable3, "0\n");
  source->Prepare(inventory_);
  EXPECT_EQ(Collect(*source).np_enabled_3, false);
}

// A read that went wrong is not kept: the next collection reads again.
TEST_F(EcnInterval, AReadWithAParseErrorIsNotKept) {
  auto source = Make("30s");
  ASSERT_NE(source, nullptr);
  Rewrite(kAiRate, "fast\n");
  Seen bad = Collect(*source);
  EXPECT_EQ(bad.ai_rate, -1);
  EXPECT_EQ(bad.status.parse_errors_total, 1);
  Rewrite(kAiRate, "9\n");
  now_ += 1;
  EXPECT_EQ(Collect(*source).ai_rate, 9);
}

TEST_F(EcnInterval, ABadIntervalIsRefusedNamingTheFlag) {
  collectors::SourceEnv env;
  env.sysfs = sysfs_.get();
  env.debugfs = debugfs_.get();
  env.options = {{"interval", "often"}};
  auto made = collectors::MakeEcnSource(env);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().message.rfind("--collector.ecn.interval: ", 0), 0u) << made.error().message;
}

}  // namespace
}  // namespace rocewatch
