#include "exporter/fs/attribute.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/test_dir.h"
#include "exporter/fs/fd_budget.h"

namespace rocewatch::fs {
namespace {

using rocewatch::testing::TestDir;

TEST(Attribute, HeldDescriptorSeesRewrites) {
  TestDir dir;
  dir.Write("mtu", "9000\n");
  Tree tree("sysfs", dir.path());
  Attribute attr(&tree, "mtu");
  std::string text;
  ASSERT_TRUE(attr.Read(text).ok());
  EXPECT_EQ(text, "9000\n");
  EXPECT_TRUE(attr.held());
  dir.Write("mtu", "1500\n");  // rewritten in place, as a value changes in sysfs
  ASSERT_TRUE(attr.Read(text).ok());
  EXPECT_EQ(text, "1500\n");
}

TEST(Attribute, DeletedReplayFileReadsAsGone) {
  TestDir dir;
  dir.Write("ports/1/state", "4: ACTIVE\n");
  Tree tree("sysfs", dir.path());
  Attribute attr(&tree, "ports/1/state");
  attr.set_vanish_sentinel(true);
  std::string text;
  ASSERT_TRUE(attr.Read(text).ok());
  std::filesystem::remove_all(dir / "ports");
  Status s = attr.Read(text);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(IsGone(s.error().code));
  EXPECT_FALSE(attr.held());
}

TEST(Attribute, FallsBackToOpenPerReadWhenBudgetIsSpent) {
  TestDir dir;
  dir.Write("speed", "400000\n");
  Tree tree("sysfs", dir.path());
  std::size_t old = FdBudget::limit();
  FdBudget::SetLimit(FdBudget::held());  // nothing left
  Attribute attr(&tree, "speed");
  std::string text;
  ASSERT_TRUE(attr.Read(text).ok());
  EXPECT_EQ(text, "400000\n");
  EXPECT_FALSE(attr.held());
  FdBudget::SetLimit(old);
}

TEST(Attribute, MissingFileNamesPathAndErrno) {
  TestDir dir;
  Tree tree("sysfs", dir.path());
  Attribute attr(&tree, "class/net/eth0/mtu");
  std::string text;
  Status s = attr.Read(text);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENOENT);
  EXPECT_NE(s.error().message.find("class/net/eth0/mtu"), std::string::npos);
}

// An attribute absent at its first open is not looked for again (no system call) until it is
// rebuilt, which the sources do when the inventory changes; the same error is answered.
TEST(Attribute, AbsentFileIsRememberedUntilRebuilt) {
  TestDir dir;
  dir.Write("ports/1/state", "4: ACTIVE\n");
  Tree tree("sysfs", dir.path());
  Attribute lid(&tree, "ports/1/lid");
  std::string text;
  Status first = lid.Read(text);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().code, ENOENT);
  EXPECT_TRUE(lid.absent());
  dir.Write("ports/1/lid", "0x1a\n");  // appears without the inventory changing
  Status again = lid.Read(text);
  ASSERT_FALSE(again.ok());  // not looked for: the remembered answer
  EXPECT_EQ(again.error().code, ENOENT);
  EXPECT_EQ(again.error().message, first.error().message);
  Attribute moved = std::move(lid);  // the memory moves with the attribute
  EXPECT_TRUE(moved.absent());
  Attribute rebuilt(&tree, "ports/1/lid");  // a new inventory: looked for again
  ASSERT_TRUE(rebuilt.Read(text).ok());
  EXPECT_EQ(text, "0x1a\n");
  EXPECT_FALSE(rebuilt.absent());
}

// A file that was read and then went away is gone, not absent: it is looked for again, so
// that the reader can tell its object left.
TEST(Attribute, AFileThatWasReadIsNotRememberedAbsent) {
  TestDir dir;
  dir.Write("ports/1/rate", "100 Gb/sec\n");
  Tree tree("sysfs", dir.path());
  std::size_t old = FdBudget::limit();
  FdBudget::SetLimit(FdBudget::held());  // open per read, so the deletion shows at open
  Attribute rate(&tree, "ports/1/rate");
  std::string text;
  ASSERT_TRUE(rate.Read(text).ok());
  std::filesystem::remove(dir / "ports/1/rate");
  Status s = rate.Read(text);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENOENT);
  EXPECT_FALSE(rate.absent());
  dir.Write("ports/1/rate", "200 Gb/sec\n");
  ASSERT_TRUE(rate.Read(text).ok());
  EXPECT_EQ(text, "200 Gb/sec\n");
  FdBudget::SetLimit(old);
}

TEST(Attribute, TransformRewritesValues) {
  TestDir dir;
  dir.Write("np_cnp_sent", "100\n");
  Tree tree("sysfs", dir.path());
  tree.set_transform([](std::string_view rel, std::string& text) {
    if (rel == "np_cnp_sent") text = "150\n";
  });
  Attribute attr(&tree, "np_cnp_sent");
  std::string text;
  ASSERT_TRUE(attr.Read(text).ok());
  EXPECT_EQ(text, "150\n");
}

TEST(Attribute, RealSysfsRereadsFreshValues) {
  Tree tree("sysfs", "/sys");
  Attribute attr(&tree, "class/net/lo/mtu");
  std::string a, b;
  ASSERT_TRUE(attr.Read(a).ok());
  ASSERT_TRUE(attr.Read(b).ok());
  EXPECT_EQ(a, "65536\n");
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace rocewatch::fs
