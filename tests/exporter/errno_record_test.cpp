#include "exporter/fs/errno_record.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "common/test_dir.h"
#include "exporter/capture/files/capture_files.h"
#include "exporter/fs/tree.h"

namespace rocewatch::fs {
namespace {

using rocewatch::testing::TestDir;

TEST(ErrnoRecord, ReadsTheNumberCaptureWrote) {
  EXPECT_EQ(ParseErrnoRecord("13 Permission denied\n"), EACCES);
  EXPECT_EQ(ParseErrnoRecord("95 EOPNOTSUPP"), EOPNOTSUPP);
  EXPECT_EQ(ParseErrnoRecord("  22\n"), EINVAL);
}

TEST(ErrnoRecord, AnythingElseIsEioNotAWrongErrno) {
  // Before: atoi() turned "99999999999" into undefined behaviour and "-5" into a negative errno.
  for (const char* text : {"", "\n", "0", "-5 bad", "abc", "4096 too big", "99999999999999999999",
                           "13x", "\xff\xfe"}) {
    EXPECT_EQ(ParseErrnoRecord(text), EIO) << text;
  }
}

TEST(ErrnoRecord, TreesAndKernelAnswersReplayTheSameRecord) {
  TestDir dir;
  dir.Write("sys/class/net/eth0/carrier.errno", "22 Invalid argument\n");
  dir.Write("sys/class/net/eth0/speed.errno", "garbage\n");
  dir.Write("kernel/dcbnl/eth0/ieee.errno", "95 EOPNOTSUPP\n");
  dir.Write("kernel/dcbnl/eth0/dcbx.errno", "-1\n");
  Tree sysfs("sysfs", dir / "sys");
  auto carrier = sysfs.ReadText("class/net/eth0/carrier");
  ASSERT_FALSE(carrier.ok());
  EXPECT_EQ(carrier.error().code, EINVAL);
  auto speed = sysfs.ReadText("class/net/eth0/speed");
  ASSERT_FALSE(speed.ok());
  EXPECT_EQ(speed.error().code, EIO);
  EXPECT_EQ(kernel::ReadAnswer(dir.path(), "dcbnl/eth0/ieee").error, EOPNOTSUPP);
  EXPECT_EQ(kernel::ReadAnswer(dir.path(), "dcbnl/eth0/dcbx").error, EIO);
  EXPECT_EQ(kernel::ReadAnswer(dir.path(), "dcbnl/eth0/app").error, ENODATA);  // not captured
}

}  // namespace
}  // namespace rocewatch::fs
