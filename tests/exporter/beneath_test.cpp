// fs::OpenBeneath and the Tree on top of it, on a tree that holds the links a hostile capture
// carries (issue 13 item 2): every test runs twice, once with openat2 (where the kernel has
// it) and once with the O_NOFOLLOW walk forced, so that both ways stay tested.

#include "exporter/fs/beneath.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "common/test_dir.h"
#include "exporter/fs/attribute.h"
#include "exporter/fs/tree.h"

namespace rocewatch::fs {
namespace {

using rocewatch::testing::TestDir;

constexpr const char* kSecret = "SECRET-OUTSIDE-THE-CAPTURE\n";

class BeneathTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ForceBeneathWalkForTesting(GetParam());
    // Outside the tree root (cap/sys): what an escaping link points at.
    dir_.Write("secret", kSecret);
    dir_.Write("outside/board_id", kSecret);
    // Inside: a sysfs-shaped device with its relative links.
    dir_.Write("cap/sys/devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0/fw_ver", "28.39.2048\n");
    dir_.Write("cap/sys/devices/pci0000:00/0000:17:00.0/vendor", "0x15b3\n");
    dir_.Symlink("../../devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0",
                 "cap/sys/class/infiniband/mlx5_0");
    dir_.Symlink("../../../0000:17:00.0",
                 "cap/sys/devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0/device");
    const std::string dev = "cap/sys/devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0/";
    // Escapes: relative ../../.., absolute, via a directory link, /proc magic links.
    dir_.Symlink("../../../../../../../secret", dev + "node_guid");
    dir_.Symlink(dir_ / "secret", dev + "hca_type");
    dir_.Symlink("../../../../../../../outside", dev + "dirlink");
    dir_.Symlink("/proc/self/environ", dev + "environ");
    dir_.Symlink("/proc/self/root/etc/passwd", dev + "passwd");
    // Climbs to the host's / by relative links alone, then into /proc.
    dir_.Symlink("../../../../../../../../../../../../../../../../proc/self/environ", dev + "deep");
    // A link that climbs out and comes back in is still refused: beneath means every step.
    dir_.Symlink("../../../../../../../sys/devices/pci0000:00/0000:17:00.0/vendor", dev + "outandin");
    dir_.Symlink("loop", dev + "loop");
    root_ = dir_ / "cap/sys";
    root_fd_ = ::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(root_fd_, 0);
  }
  void TearDown() override {
    ::close(root_fd_);
    ForceBeneathWalkForTesting(false);
  }

  // errno of OpenBeneath(rel), 0 when it opened.
  int OpenErr(const std::string& rel, int flags = O_RDONLY) {
    int fd = OpenBeneath(root_fd_, rel, flags);
    if (fd < 0) return errno;
    ::close(fd);
    return 0;
  }

  TestDir dir_;
  std::string root_;
  int root_fd_ = -1;
  const std::string dev_ = "class/infiniband/mlx5_0/";
};

TEST_P(BeneathTest, InTreeRelativeLinksWork) {
  EXPECT_EQ(BeneathUsesOpenat2(), !GetParam());
  EXPECT_EQ(OpenErr(dev_ + "fw_ver"), 0);
  EXPECT_EQ(OpenErr(dev_ + "device/vendor"), 0);
  EXPECT_EQ(OpenErr("class/infiniband/mlx5_0/device/../0000:17:00.0/vendor"), 0);
  EXPECT_EQ(OpenErr("", O_PATH | O_DIRECTORY), 0);
  EXPECT_EQ(OpenErr(dev_ + "absent"), ENOENT);
  EXPECT_EQ(OpenErr(dev_ + "fw_ver/x"), ENOTDIR);
}

TEST_P(BeneathTest, EveryEscapeIsRefused) {
  EXPECT_EQ(OpenErr(dev_ + "node_guid"), EXDEV);       // relative ../../..
  EXPECT_EQ(OpenErr(dev_ + "hca_type"), EXDEV);        // absolute, to the same file
  EXPECT_EQ(OpenErr(dev_ + "dirlink/board_id"), EXDEV);  // through a directory link
  EXPECT_EQ(OpenErr(dev_ + "environ"), EXDEV);         // absolute into /proc
  EXPECT_EQ(OpenErr(dev_ + "passwd"), EXDEV);
  EXPECT_EQ(OpenErr(dev_ + "deep"), EXDEV);
  EXPECT_EQ(OpenErr(dev_ + "outandin"), EXDEV);
  EXPECT_EQ(OpenErr("../secret"), EXDEV);              // the path itself climbing
  EXPECT_EQ(OpenErr("/etc/passwd"), EXDEV);
  EXPECT_EQ(OpenErr(dev_ + "loop"), ELOOP);
  // O_NOFOLLOW opens the escaping link itself (to read its text), never its target.
  int fd = OpenBeneath(root_fd_, dev_ + "hca_type", O_PATH | O_NOFOLLOW);
  ASSERT_GE(fd, 0);
  struct stat st;
  ASSERT_EQ(::fstat(fd, &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  ::close(fd);
}

// A magic link is followed by the kernel to whatever the process holds (a descriptor, its
// root): beneath a /proc directory, neither way follows one.
TEST_P(BeneathTest, ProcMagicLinksAreRefused) {
  int held = ::open((dir_ / "secret").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(held, 0);
  int proc = ::open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(proc, 0);
  for (const std::string& rel : {"fd/" + std::to_string(held), std::string("exe"),
                                std::string("root/etc/passwd"), std::string("cwd")}) {
    int fd = OpenBeneath(proc, rel, O_RDONLY);
    int err = errno;
    EXPECT_LT(fd, 0) << rel;
    if (fd >= 0) ::close(fd);
    EXPECT_TRUE(IsRefusedPath(err)) << rel << ": " << err;
  }
  // Plain files of /proc/self are no links, and open.
  int status = OpenBeneath(proc, "status", O_RDONLY);
  EXPECT_GE(status, 0);
  if (status >= 0) ::close(status);
  ::close(proc);
  ::close(held);
}

TEST_P(BeneathTest, WalkGivesTheCanonicalPath) {
  std::string canonical;
  int fd = WalkBeneath(root_fd_, dev_ + "device", O_PATH, &canonical);
  ASSERT_GE(fd, 0);
  ::close(fd);
  EXPECT_EQ(canonical, "devices/pci0000:00/0000:17:00.0");
}

TEST_P(BeneathTest, TreeServesNothingFromOutsideAndCountsIt) {
  Tree tree("sysfs", root_);
  EXPECT_EQ(*tree.ReadText(dev_ + "fw_ver"), "28.39.2048\n");
  EXPECT_EQ(tree.refused_paths(), 0u);
  for (const char* name : {"node_guid", "hca_type", "dirlink/board_id", "environ", "deep"}) {
    auto text = tree.ReadText(dev_ + name);
    ASSERT_FALSE(text.ok()) << name << " served: " << *text;
    EXPECT_EQ(text.error().code, EXDEV) << name;
    EXPECT_NE(text.error().message.find(dev_ + name), std::string::npos) << text.error().message;
    EXPECT_NE(text.error().message.find("leaves the tree"), std::string::npos);
  }
  EXPECT_EQ(tree.refused_paths(), 5u);
  Attribute attr(&tree, dev_ + "node_guid");
  std::string out;
  Status s = attr.Read(out);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(IsRefusedPath(s.error().code));
  EXPECT_FALSE(IsGone(s.error().code));  // refused is not vanished
  EXPECT_EQ(out, "");
  EXPECT_FALSE(tree.Exists(dev_ + "hca_type"));
  EXPECT_FALSE(tree.IsDirectory(dev_ + "dirlink"));
  EXPECT_FALSE(tree.List(dev_ + "dirlink").ok());
  auto resolved = tree.Resolve(dev_ + "dirlink");
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().code, EXDEV);
  EXPECT_EQ(*tree.ReadLink(dev_ + "hca_type"), dir_ / "secret");  // the text, not the file
  EXPECT_EQ(*tree.Resolve("class/infiniband/mlx5_0"), "devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0");
}

// A FIFO or a device node in a capture is never opened for reading: a FIFO's open() would
// block the collector, a device would be read.
TEST_P(BeneathTest, TreeRefusesFilesThatAreNotPlainFiles) {
  ASSERT_EQ(::mkfifo((root_ + "/" + "devices/pci0000:00/0000:17:00.0/infiniband/mlx5_0/fifo").c_str(), 0600), 0);
  Tree tree("sysfs", root_);
  auto text = tree.ReadText(dev_ + "fifo");  // would block forever if opened
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().code, EPERM);
  EXPECT_NE(text.error().message.find("not a regular file"), std::string::npos);
  EXPECT_EQ(tree.refused_paths(), 1u);
  auto dir = ReadFileBeneath(root_, dev_ + "fifo", 4096);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().code, EPERM);
}

TEST_P(BeneathTest, ReadFileBeneathRefusesEscapes) {
  auto ok = ReadFileBeneath(root_, dev_ + "fw_ver", 4096);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, "28.39.2048\n");
  auto bad = ReadFileBeneath(root_, dev_ + "node_guid", 4096);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, EXDEV);
  EXPECT_EQ(bad.error().message.find("SECRET"), std::string::npos);
  EXPECT_EQ(CheckDirectoryBeneath(root_, "devices"), 0);
  EXPECT_EQ(CheckDirectoryBeneath(root_, dev_ + "dirlink"), EXDEV);
  EXPECT_EQ(ReadFileBeneath(root_, "absent", 4096).error().code, ENOENT);
}

INSTANTIATE_TEST_SUITE_P(Openat2AndWalk, BeneathTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? "ForcedWalk" : "Openat2";
                         });

// The live node: /sys keeps its own symlinks working (class/net/X -> ../../devices/...).
TEST(BeneathLiveSysfs, ClassLinksStayBeneathSys) {
  for (bool walk : {false, true}) {
    ForceBeneathWalkForTesting(walk);
    Tree tree("sysfs", "/sys");
    auto mtu = tree.ReadText("class/net/lo/mtu");
    ASSERT_TRUE(mtu.ok()) << mtu.error().message;
    EXPECT_EQ(*mtu, "65536\n");
    EXPECT_EQ(*tree.Resolve("class/net/lo"), "devices/virtual/net/lo");
    EXPECT_TRUE(tree.IsDirectory("class/net/lo/queues"));
    EXPECT_EQ(tree.refused_paths(), 0u);
  }
  ForceBeneathWalkForTesting(false);
}

}  // namespace
}  // namespace rocewatch::fs
