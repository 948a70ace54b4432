// fs::Directory (fs/directory.h) on a tree on disk: a held directory lists what Tree::List
// lists (replay `.errno` names included), sees entries come and go through the same
// descriptor, and a directory removed and made again is listed anew, not read dead. The
// live /sys/class/net: tests/netns/kernel_test.cpp.

#include "exporter/fs/directory.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/test_dir.h"

namespace rocewatch::fs {
namespace {

using rocewatch::testing::TestDir;

std::vector<std::string> Names(Directory& dir) {
  auto names = dir.List();
  EXPECT_TRUE(names.ok()) << names.error().message;
  return names.ok() ? *names : std::vector<std::string>{};
}

TEST(Directory, ListsWhatTheTreeListsAndSeesEntriesComeAndGo) {
  TestDir d;
  d.Write("sys/class/net/ens1f0np0/mtu", "4200\n");
  d.Write("sys/class/net/ens2f0np0.errno", "19 ENODEV\n");
  Tree tree("sysfs", d / "sys");
  Directory net(&tree, "class/net");
  EXPECT_FALSE(net.held());
  EXPECT_EQ(Names(net), (std::vector<std::string>{"ens1f0np0", "ens2f0np0"}));
  EXPECT_EQ(Names(net), *tree.List("class/net"));
  EXPECT_TRUE(net.held());

  d.Write("sys/class/net/ens0f0np0/mtu", "1500\n");
  std::filesystem::remove_all(d / "sys/class/net/ens1f0np0");
  EXPECT_EQ(Names(net), (std::vector<std::string>{"ens0f0np0", "ens2f0np0"}));
  EXPECT_TRUE(net.held());
}

TEST(Directory, ADirectoryRemovedAndMadeAgainIsListedAnew) {
  TestDir d;
  d.Write("sys/class/infiniband/mlx5_0/fw_ver", "28.39.2048\n");
  Tree tree("sysfs", d / "sys");
  Directory ib(&tree, "class/infiniband");
  EXPECT_EQ(Names(ib), (std::vector<std::string>{"mlx5_0"}));
  ASSERT_TRUE(ib.held());

  // The driver module unloaded: the class directory goes.
  std::filesystem::remove_all(d / "sys/class/infiniband");
  auto gone = ib.List();
  EXPECT_FALSE(gone.ok());
  EXPECT_FALSE(ib.held());
  // Loaded again: a new directory where the old one was.
  d.Write("sys/class/infiniband/mlx5_1/fw_ver", "28.39.2048\n");
  EXPECT_EQ(Names(ib), (std::vector<std::string>{"mlx5_1"}));
  EXPECT_TRUE(ib.held());
  d.Write("sys/class/infiniband/mlx5_2/fw_ver", "28.39.2048\n");
  EXPECT_EQ(Names(ib), (std::vector<std::string>{"mlx5_1", "mlx5_2"}));
}

}  // namespace
}  // namespace rocewatch::fs
