// The pcie collector over the fixtures: link speed and width, current and maximum, NUMA node.

#include <gtest/gtest.h>

#include "common/fixture_pass.h"
#include "common/fixture_paths.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {
namespace {

using testing::FixtureDir;
using testing::MakeFixturePass;

TEST(PcieCollector, LinkSpeedWidthAndNumaNode) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-roce"));
  NodeSnapshot s = pass->Collect();
  ASSERT_EQ(s.pcie.size(), 4u);
  EXPECT_EQ(s.pcie[1].device, "mlx5_1");
  EXPECT_EQ(s.pcie[1].current_width, 8u);
  EXPECT_EQ(s.pcie[1].max_width, 16u);
  EXPECT_EQ(s.pcie[1].current_speed_transfers, 32e9);
  EXPECT_EQ(s.pcie[2].numa_node, 1);
}

}  // namespace
}  // namespace rocewatch
