#include "exporter/fs/tree.h"

#include <gtest/gtest.h>

#include "common/test_dir.h"

namespace rocewatch::fs {
namespace {

using rocewatch::testing::TestDir;

TEST(Normalize, CollapsesDotsAndSlashes) {
  EXPECT_EQ(*Normalize("a/b/../c/./d//e"), "a/c/d/e");
  EXPECT_EQ(*Normalize(""), "");
  EXPECT_FALSE(Normalize("a/../../b").ok());
}

TEST(PathHelpers, JoinBaseDir) {
  EXPECT_EQ(Join("class", "net"), "class/net");
  EXPECT_EQ(Join("", "net"), "net");
  EXPECT_EQ(Join("a/", "b", "c"), "a/b/c");
  EXPECT_EQ(BaseName("devices/pci0000:00/0000:17:00.0"), "0000:17:00.0");
  EXPECT_EQ(DirName("devices/pci0000:00/0000:17:00.0"), "devices/pci0000:00");
}

class TreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("sys/devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0/fw_ver", "28.39.2048\n");
    dir_.Write("sys/devices/pci0000:00/0000:17:00.0/vendor", "0x15b3\n");
    dir_.Symlink("../../devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0",
                 "sys/class/infiniband/mlx5_0");
    dir_.Symlink("../../../0000:17:00.0", "sys/devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0/device");
    dir_.Symlink("/etc", "sys/class/infiniband/escape");
    dir_.Symlink("loop", "sys/class/infiniband/loop");
  }
  TestDir dir_;
};

TEST_F(TreeTest, ResolvesRelativeLinksInsideTheRoot) {
  Tree tree("sysfs", dir_ / "sys");
  EXPECT_FALSE(tree.kernel_fs());
  auto dev = tree.Resolve("class/infiniband/mlx5_0");
  ASSERT_TRUE(dev.ok()) << dev.error().message;
  EXPECT_EQ(*dev, "devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0");
  auto pci = tree.Resolve("class/infiniband/mlx5_0/device");
  ASSERT_TRUE(pci.ok());
  EXPECT_EQ(*pci, "devices/pci0000:00/0000:17:00.0");
  EXPECT_EQ(*tree.ReadText("class/infiniband/mlx5_0/fw_ver"), "28.39.2048\n");
}

TEST_F(TreeTest, RejectsLinksThatLeaveTheTreeAndLoops) {
  Tree tree("sysfs", dir_ / "sys");
  auto escape = tree.Resolve("class/infiniband/escape");
  ASSERT_FALSE(escape.ok());
  EXPECT_NE(escape.error().message.find("leaves the tree"), std::string::npos);
  auto loop = tree.Resolve("class/infiniband/loop");
  ASSERT_FALSE(loop.ok());
  EXPECT_EQ(loop.error().code, ELOOP);
}

TEST_F(TreeTest, ListsSortedAndNamesErrors) {
  Tree tree("sysfs", dir_ / "sys");
  auto names = tree.List("class/infiniband");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"escape", "loop", "mlx5_0"}));
  auto missing = tree.ReadText("class/net/eth9/mtu");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ENOENT);
  EXPECT_EQ(missing.error().message,
            "sysfs " + (dir_ / "sys") + "/class/net/eth9/mtu: No such file or directory");
}

TEST(TreeKernel, RecognizesRealSysfs) {
  Tree tree("sysfs", "/sys");
  EXPECT_TRUE(tree.kernel_fs());
  auto lo = tree.Resolve("class/net/lo");
  ASSERT_TRUE(lo.ok());
  EXPECT_EQ(*lo, "devices/virtual/net/lo");
}

}  // namespace
}  // namespace rocewatch::fs
