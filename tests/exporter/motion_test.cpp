#include "replay/motion.h"

#include <gtest/gtest.h>

#include <cstring>

#include "common/test_dir.h"
#include "fs/attribute.h"

namespace rocewatch::replay {
namespace {

using rocewatch::testing::TestDir;

class MotionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("sys/devices/pci0000:16/0000:17:00.0/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "1000\n");
    dir_.Symlink("../../devices/pci0000:16/0000:17:00.0/infiniband/mlx5_0", "sys/class/infiniband/mlx5_0");
  }
  TestDir dir_;
};

TEST_F(MotionTest, SysfsCountersGrowWithTime) {
  fs::Tree sysfs("sysfs", dir_ / "sys");
  auto m = Motion::Parse(R"({"version": 1, "sysfs": {"class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent": 250.5}})",
                         "motion.json", sysfs);
  ASSERT_TRUE(m.ok()) << m.error().message;
  double now = 0;
  (*m)->set_clock([&] { return now; });
  sysfs.set_transform((*m)->SysfsTransform());
  fs::Attribute attr(&sysfs, "devices/pci0000:16/0000:17:00.0/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent");
  std::string text;
  ASSERT_TRUE(attr.Read(text).ok());
  EXPECT_EQ(text, "1000\n");
  now = 10;  // 2505 more
  ASSERT_TRUE(attr.Read(text).ok());
  EXPECT_EQ(text, "3505\n");
}

TEST_F(MotionTest, EthtoolStatsGrowByName) {
  fs::Tree sysfs("sysfs", dir_ / "sys");
  auto m = Motion::Parse(R"({"version": 1, "ethtool": {"ens1f0np0": {"rx_prio3_pause": 100}}})",
                         "motion.json", sysfs);
  ASSERT_TRUE(m.ok());
  (*m)->set_clock([] { return 3.0; });
  // GSTRINGS answer: cmd, string_set, len=2, then two 32-byte names.
  std::vector<std::uint8_t> strings(12 + 64, 0);
  std::uint32_t len = 2;
  std::memcpy(strings.data() + 8, &len, 4);
  std::strcpy(reinterpret_cast<char*>(strings.data() + 12), "rx_bytes");
  std::strcpy(reinterpret_cast<char*>(strings.data() + 44), "rx_prio3_pause");
  // GSTATS answer: cmd, n_stats=2, then two u64.
  std::vector<std::uint8_t> stats(8 + 16, 0);
  std::memcpy(stats.data() + 4, &len, 4);
  std::uint64_t values[2] = {5000, 7};
  std::memcpy(stats.data() + 8, values, 16);
  (*m)->ApplyToStats("ens1f0np0", strings, stats);
  std::memcpy(values, stats.data() + 8, 16);
  EXPECT_EQ(values[0], 5000u);
  EXPECT_EQ(values[1], 307u);
  (*m)->ApplyToStats("ens2f0np0", strings, stats);  // no motion for this netdev
  std::memcpy(values, stats.data() + 8, 16);
  EXPECT_EQ(values[1], 307u);
}

TEST_F(MotionTest, ErrorsNameTheKey) {
  fs::Tree sysfs("sysfs", dir_ / "sys");
  auto bad_version = Motion::Parse(R"({"version": 2})", "m.json", sysfs);
  ASSERT_FALSE(bad_version.ok());
  EXPECT_EQ(bad_version.error().message, "m.json: \"version\" must be 1");
  auto negative = Motion::Parse(R"({"version": 1, "ethtool": {"e": {"x": -1}}})", "m.json", sysfs);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().message, "m.json: ethtool/e/x: rate must be a non-negative number");
  auto missing = Motion::Parse(R"({"version": 1, "sysfs": {"class/infiniband/mlx5_9/ports/1/x": 1}})", "m.json", sysfs);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("sysfs/class/infiniband/mlx5_9/ports/1/x"), std::string::npos);
  EXPECT_FALSE(Motion::Parse("[1]", "m.json", sysfs).ok());
}

}  // namespace
}  // namespace rocewatch::replay
