// The netdev collector over the fixtures: MTU, operstate, carrier and speed of each netdev.

#include <gtest/gtest.h>

#include "common/fixture_pass.h"
#include "common/fixture_paths.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {
namespace {

using testing::FixtureDir;
using testing::MakeFixturePass;

TEST(NetdevCollector, MtuStateAndSpeedOfEachNetdev) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-roce"));
  NodeSnapshot s = pass->Collect();
  ASSERT_EQ(s.netdevs.size(), 4u);
  EXPECT_EQ(s.netdevs[0].mtu_bytes, 9000);
  EXPECT_EQ(s.netdevs[0].operstate_id, 1u);
  EXPECT_EQ(s.netdevs[0].speed_bytes_per_second, 50e9);
  EXPECT_EQ(s.netdevs[2].operstate, "down");
  EXPECT_EQ(s.netdevs[2].carrier, false);
  EXPECT_FALSE(s.netdevs[2].speed_bytes_per_second.has_value());
}

TEST(NetdevCollector, InfinibandNetdev) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-ib"));
  NodeSnapshot s = pass->Collect();
  ASSERT_FALSE(s.netdevs.empty());
  EXPECT_EQ(s.netdevs[0].mtu_bytes, 4092);
}

}  // namespace
}  // namespace rocewatch
