// The ecn collector over the fixtures: per-priority enables and DCQCN parameters from sysfs
// and debugfs, bnxt_re's one switch and CNP marking from its configfs cc group
// (--collector.ecn.interval: ecn_interval_test.cpp).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "common/fixture_pass.h"
#include "common/fixture_paths.h"
#include "common/test_dir.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {
namespace {

using testing::FixtureDir;
using testing::MakeFixturePass;
using testing::StatusOf;
using testing::TestDir;

TEST(EcnCollector, EnablesAndParametersFromSysfsAndDebugfs) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-roce"));
  NodeSnapshot s = pass->Collect();
  ASSERT_EQ(s.ecn.size(), 4u);
  for (int p = 0; p < 8; ++p) {
    EXPECT_EQ(s.ecn[0].np_enabled[p], p == 3) << p;
    EXPECT_EQ(s.ecn[0].rp_enabled[p], p == 3) << p;
  }
  int debugfs_params = 0;
  for (const auto& param : s.ecn[0].parameters) {
    if (param.source == "debugfs") ++debugfs_params;
    if (param.source == "sysfs" && param.name == "cnp_dscp") {
      EXPECT_EQ(param.value, 48);
    }
    if (param.source == "debugfs" && param.name == "rpg_ai_rate") {
      EXPECT_EQ(param.value, 5);
    }
  }
  EXPECT_GT(debugfs_params, 0);  // only mlx5_0 has cc_params in the fixture
  for (std::size_t i = 1; i < s.ecn.size(); ++i)
    for (const auto& param : s.ecn[i].parameters) EXPECT_EQ(param.source, "sysfs");
}

TEST(EcnCollector, InfinibandNodeHasNone) {
  auto pass = MakeFixturePass(FixtureDir("mlx5-ib"));
  NodeSnapshot s = pass->Collect();
  EXPECT_FALSE(s.devices.empty());
  EXPECT_TRUE(s.ecn.empty());
}

// Unprivileged, debugfs (mounted 0700) does not list: the DCQCN parameters there
// are counted unavailable, the sysfs ones are still served, the source succeeds.
TEST(EcnCollector, UnreadableDebugfsCountsUnavailable) {
  TestDir dir;
  testing::CopyFixture("mlx5-roce", dir.path());
  std::vector<std::filesystem::path> cc_params;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "debugfs"))
    if (e.is_directory() && e.path().filename() == "cc_params") cc_params.push_back(e.path());
  ASSERT_EQ(cc_params.size(), 1u);  // mlx5_0's function
  std::filesystem::remove_all(cc_params[0]);
  std::ofstream(cc_params[0].string() + ".errno") << "13 EACCES\n";

  auto pass = MakeFixturePass(dir.path());
  NodeSnapshot s = pass->Collect();
  const SourceStatus& ecn = StatusOf(s, "ecn");
  EXPECT_TRUE(ecn.success);
  EXPECT_EQ(ecn.unavailable_values, 1);
  ASSERT_EQ(s.ecn.size(), 4u);
  bool sysfs_cnp_dscp = false;
  for (const auto& param : s.ecn[0].parameters) {
    EXPECT_EQ(param.source, "sysfs") << param.name;
    sysfs_cnp_dscp = sysfs_cnp_dscp || (param.name == "cnp_dscp" && param.value == 48);
  }
  EXPECT_TRUE(sysfs_cnp_dscp);
}

// The demo's Broadcom node (examples/demo/nodes/gpu-13: bnxt_en, Broadcom's bnxt_re with its
// configfs cc group, each file as the driver's configfs.c prints it, "%#x\n"). Chosen by the
// driver the device reports, read without making anything, a value it cannot read is a parse
// error, a device without the group serves nothing from it.
TEST(EcnCollector, BnxtReConfigfsSwitchAndCnpMarking) {
  TestDir dir;
  std::filesystem::copy(std::string(ROCEWATCH_SOURCE_DIR) + "/examples/demo/nodes/gpu-13", dir.path(),
                        std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
  const std::filesystem::path cc0 = dir / "configfs/bnxt_re/bnxt_re0/ports/1/cc";
  ASSERT_TRUE(std::filesystem::exists(cc0 / "ecn_enable"));
  std::ofstream(cc0 / "ecn_enable") << "0\n";  // zero prints without 0x
  std::filesystem::remove_all(dir / "configfs/bnxt_re/bnxt_re1");  // no mkdir made it

  auto pass = MakeFixturePass(dir.path());
  NodeSnapshot s = pass->Collect();
  EXPECT_TRUE(StatusOf(s, "ecn").success);
  ASSERT_EQ(s.ecn.size(), 1u);  // bnxt_re1 has no group, and no sysfs ecn files either
  const EcnSnapshot& e = s.ecn[0];
  EXPECT_EQ(e.netdev, "ens1f0np0");
  EXPECT_EQ(e.all_enabled, false);
  for (int p = 0; p < 8; ++p) EXPECT_FALSE(e.np_enabled[p] || e.rp_enabled[p]) << p;
  std::vector<std::string> params;
  for (const auto& param : e.parameters)
    params.push_back(param.point + " " + param.name + "=" + std::to_string(static_cast<int>(param.value)) + " " +
                     param.source);
  EXPECT_EQ(params, (std::vector<std::string>{"np cnp_dscp=48 configfs", "np cnp_802p_prio=6 configfs"}));
  EXPECT_FALSE(std::filesystem::exists(dir / "configfs/bnxt_re/bnxt_re1"));

  std::ofstream(cc0 / "ecn_enable") << "on\n";
  auto again = MakeFixturePass(dir.path());
  NodeSnapshot bad = again->Collect();
  ASSERT_EQ(bad.ecn.size(), 1u);
  EXPECT_FALSE(bad.ecn[0].all_enabled.has_value());
  EXPECT_EQ(StatusOf(bad, "ecn").parse_errors_total, 1);
}

}  // namespace
}  // namespace rocewatch
