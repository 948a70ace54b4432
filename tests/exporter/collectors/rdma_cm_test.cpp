// The rdma_cm collector over the fixtures: each device's configfs RoCE mode and ToS.

#include <gtest/gtest.h>

#include "common/fixture_pass.h"
#include "common/fixture_paths.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {
namespace {

using testing::FixtureDir;
using testing::MakeFixturePass;

TEST(RdmaCmCollector, RoceModeAndTosOfEachConfiguredDevice) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-roce"));
  NodeSnapshot s = pass->Collect();
  ASSERT_EQ(s.rdma_cm.size(), 2u);
  EXPECT_EQ(s.rdma_cm[0].device, "mlx5_0");
  EXPECT_EQ(s.rdma_cm[0].roce_mode, "RoCE v2");
  EXPECT_EQ(s.rdma_cm[0].tos, 106);
  EXPECT_EQ(s.rdma_cm[1].device, "mlx5_1");
}

}  // namespace
}  // namespace rocewatch
