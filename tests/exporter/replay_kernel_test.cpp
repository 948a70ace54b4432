// The replay kernel keeps what the capture holds after the first read
// (capture/replay/replay_kernel.cpp): the same answers on every pass without reading the
// files again; a failed read (a refused answer) is never kept; GSTRINGS is not kept; motion
// moves a copy, never the kept answer.

#include "exporter/capture/replay/replay_kernel.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/test_dir.h"
#include "exporter/capture/files/capture_files.h"
#include "exporter/capture/replay/motion.h"

namespace rocewatch::kernel {
namespace {

using rocewatch::testing::TestDir;
namespace stdfs = std::filesystem;

std::vector<std::uint8_t> Bytes(const std::string& s) { return {s.begin(), s.end()}; }

TEST(ReplayKernel, KeepsWhatTheCaptureHoldsAfterTheFirstRead) {
  TestDir dir;
  dir.Write("kernel/" + call::DriverInfo{.netdev = "eth0"}.Key(), "drvinfo-1");
  dir.Write("kernel/" + call::DcbIeee{.netdev = "eth0"}.Key() + ".errno", "95 EOPNOTSUPP\n");
  dir.Write("kernel/" + call::Strings{.netdev = "eth0", .set = 1}.Key(), "strings-1");
  auto replay = MakeReplayKernel(dir.path());
  EXPECT_EQ(replay->Ask(call::DriverInfo{.netdev = "eth0"}).bytes, Bytes("drvinfo-1"));
  EXPECT_EQ(replay->Ask(call::DcbIeee{.netdev = "eth0"}).error, EOPNOTSUPP);
  EXPECT_EQ(replay->Ask(call::DcbDcbx{.netdev = "eth0"}).error, ENODATA);  // neither file
  EXPECT_EQ(replay->Ask(call::Strings{.netdev = "eth0", .set = 1, .count = 1}).bytes, Bytes("strings-1"));

  // The files change under the replay: the kept answers are served, not re-read.
  dir.Write("kernel/" + call::DriverInfo{.netdev = "eth0"}.Key(), "drvinfo-2");
  stdfs::remove(dir / ("kernel/" + call::DcbIeee{.netdev = "eth0"}.Key() + ".errno"));
  dir.Write("kernel/" + call::DcbDcbx{.netdev = "eth0"}.Key(), "dcbx");
  dir.Write("kernel/" + call::Strings{.netdev = "eth0", .set = 1}.Key(), "strings-2");
  EXPECT_EQ(replay->Ask(call::DriverInfo{.netdev = "eth0"}).bytes, Bytes("drvinfo-1"));
  EXPECT_EQ(replay->Ask(call::DcbIeee{.netdev = "eth0"}).error, EOPNOTSUPP);
  EXPECT_EQ(replay->Ask(call::DcbDcbx{.netdev = "eth0"}).error, ENODATA);
  // GSTRINGS is read from its file every time it is asked for (only on classification).
  EXPECT_EQ(replay->Ask(call::Strings{.netdev = "eth0", .set = 1, .count = 1}).bytes, Bytes("strings-2"));

  // A new replay reads the capture as it is now.
  auto fresh = MakeReplayKernel(dir.path());
  EXPECT_EQ(fresh->Ask(call::DriverInfo{.netdev = "eth0"}).bytes, Bytes("drvinfo-2"));
  EXPECT_EQ(fresh->Ask(call::DcbIeee{.netdev = "eth0"}).error, ENODATA);
  EXPECT_EQ(fresh->Ask(call::DcbDcbx{.netdev = "eth0"}).bytes, Bytes("dcbx"));
}

TEST(ReplayKernel, RefusedAnswersAreRefusedAndCountedEveryTimeNeverKept) {
  TestDir outside, dir;
  outside.Write("secret", "host bytes");
  dir.Write("kernel/ethtool/eth0/.keep", "");
  stdfs::create_symlink(outside / "secret", dir / ("kernel/" + call::DriverInfo{.netdev = "eth0"}.Key()));
  auto replay = MakeReplayKernel(dir.path());
  const std::uint64_t before = RefusedAnswers();
  Answer a = replay->Ask(call::DriverInfo{.netdev = "eth0"});
  EXPECT_FALSE(a.ok());
  EXPECT_TRUE(a.bytes.empty());
  EXPECT_FALSE(replay->Ask(call::DriverInfo{.netdev = "eth0"}).ok());
  EXPECT_EQ(RefusedAnswers(), before + 2);
  EXPECT_EQ(replay->refused_answers(), before + 2);  // what the pass reports as tree="kernel"
  // Once the capture holds a plain file there, it is served: the refusal was not kept.
  stdfs::remove(dir / ("kernel/" + call::DriverInfo{.netdev = "eth0"}.Key()));
  dir.Write("kernel/" + call::DriverInfo{.netdev = "eth0"}.Key(), "drvinfo");
  EXPECT_EQ(replay->Ask(call::DriverInfo{.netdev = "eth0"}).bytes, Bytes("drvinfo"));
}

TEST(ReplayKernel, MotionMovesEachServedCopyNotTheKeptAnswer) {
  TestDir dir;
  // GSTRINGS: cmd, string_set, len=2, two 32-byte names; GSTATS: cmd, n_stats=2, two u64.
  std::vector<std::uint8_t> strings(12 + 64, 0), stats(8 + 16, 0);
  std::uint32_t len = 2;
  std::memcpy(strings.data() + 8, &len, 4);
  std::strcpy(reinterpret_cast<char*>(strings.data() + 12), "rx_bytes");
  std::strcpy(reinterpret_cast<char*>(strings.data() + 44), "rx_prio3_pause");
  std::memcpy(stats.data() + 4, &len, 4);
  std::uint64_t values[2] = {5000, 7};
  std::memcpy(stats.data() + 8, values, 16);
  ASSERT_TRUE(WriteAnswer(dir.path(), call::Strings{.netdev = "eth0", .set = 1}.Key(), Answer{strings, 0}).ok());
  ASSERT_TRUE(WriteAnswer(dir.path(), call::Stats{.netdev = "eth0"}.Key(), Answer{stats, 0}).ok());
  dir.Write("sys/.keep", "");
  fs::Tree sysfs("sysfs", dir / "sys");
  auto m = replay::Motion::Parse(R"({"version": 1, "ethtool": {"eth0": {"rx_prio3_pause": 100}}})",
                                 "motion.json", sysfs);
  ASSERT_TRUE(m.ok()) << m.error().message;
  double now = 1;
  (*m)->set_clock([&] { return now; });
  auto replay = MakeReplayKernel(dir.path(), *m);
  auto served = [&] {
    Answer a = replay->Ask(call::Stats{.netdev = "eth0", .count = 2});
    EXPECT_TRUE(a.ok());
    std::uint64_t v[2] = {0, 0};
    if (a.bytes.size() == stats.size()) std::memcpy(v, a.bytes.data() + 8, 16);
    return std::pair<std::uint64_t, std::uint64_t>(v[0], v[1]);
  };
  EXPECT_EQ(served(), std::make_pair(std::uint64_t{5000}, std::uint64_t{107}));
  now = 2;
  EXPECT_EQ(served(), std::make_pair(std::uint64_t{5000}, std::uint64_t{207}));  // not 307
  now = 2;
  EXPECT_EQ(served(), std::make_pair(std::uint64_t{5000}, std::uint64_t{207}));
}

}  // namespace
}  // namespace rocewatch::kernel
