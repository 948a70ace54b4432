#include "exporter/capture/replay/motion.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>

#include "common/test_dir.h"
#include "exporter/fs/attribute.h"
#include "exporter/netlink/ethtool_fec.h"
#include "exporter/netlink/rdma_stat.h"
#include "exporter/netlink/fec_reply.h"
#include "exporter/netlink/rdma_reply.h"

namespace rocewatch::replay {
namespace {

using rocewatch::testing::TestDir;

class MotionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("sys/devices/pci0000:16/0000:17:00.0/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "1000\n");
    dir_.Symlink("../../devices/pci0000:16/0000:17:00.0/infiniband/mlx5_0", "sys/class/infiniband/mlx5_0");
  }
  // `text` parsed against the fixture's tree, its clock reading `*now`; null (and a failure)
  // when it does not parse.
  std::shared_ptr<Motion> Parsed(const std::string& text, const double* now) {
    auto m = Motion::Parse(text, "motion.json", sysfs_);
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
    if (!m.ok()) return nullptr;
    (*m)->set_clock([now] { return *now; });
    return *m;
  }
  TestDir dir_;
  fs::Tree sysfs_{"sysfs", dir_ / "sys"};
};

// FEC counters move in a FEC_GET answer built as the kernel builds it: total and lane 0 of the
// counters motion names, nothing else; the answer still decodes.
TEST_F(MotionTest, FecCountersGrowInTheFecAnswer) {
  double now = 0;
  auto m = Parsed(R"({"version": 1, "fec": {"ens1f0np0": {"uncorrectable": 0.5, "corrected": 400}}})", &now);
  ASSERT_NE(m, nullptr);
  rocewatch::testing::FecReplySpec spec;
  spec.modes = {ETHTOOL_LINK_MODE_FEC_RS_BIT};
  spec.active = ETHTOOL_LINK_MODE_FEC_RS_BIT;
  spec.corrected = {4000, 1000, 1000, 1000, 1000};
  spec.uncorrectable = {2, 1, 0, 1, 0};
  spec.corrected_bits = {16000, 4000, 4000, 4000, 4000};
  const std::vector<std::uint8_t> captured = rocewatch::testing::BuildFecReply(spec);
  std::vector<std::uint8_t> answer = captured;
  m->ApplyToFec("ens1f0np0", answer);
  EXPECT_EQ(answer, captured);  // no time has passed
  now = 60;                     // 30 uncorrectable and 24,000 corrected blocks more
  m->ApplyToFec("ens1f0np0", answer);
  auto fec = ethtool_nl::DecodeFecReply(answer);
  ASSERT_TRUE(fec.ok()) << fec.error().message;
  EXPECT_EQ(fec->uncorrectable_blocks->total, 32u);
  EXPECT_EQ(fec->uncorrectable_blocks->lanes, (std::vector<std::uint64_t>{31, 0, 1, 0}));
  EXPECT_EQ(fec->corrected_blocks->total, 28000u);
  EXPECT_EQ(fec->corrected_blocks->lanes, (std::vector<std::uint64_t>{25000, 1000, 1000, 1000}));
  EXPECT_EQ(fec->corrected_bits->total, 16000u);
  // Another netdev, and answers of another shape, are left as they are.
  std::vector<std::uint8_t> other = captured;
  m->ApplyToFec("ens2f0np0", other);
  EXPECT_EQ(other, captured);
  for (std::size_t cut : {std::size_t{0}, std::size_t{10}, std::size_t{21}, captured.size() / 2}) {
    std::vector<std::uint8_t> truncated(captured.begin(), captured.begin() + cut);
    const auto kept = truncated;
    m->ApplyToFec("ens1f0np0", truncated);
    EXPECT_EQ(truncated, kept) << cut;
  }
}

// A hw counter's sysfs motion moves the same counter in the port's RDMA netlink STAT_GET
// answer (built as nldev.c builds it, with and without the 64-bit pad), nothing else.
TEST_F(MotionTest, HwCounterMotionMovesTheStatGetAnswer) {
  double now = 0;
  auto m = Parsed(R"({"version": 1, "sysfs": {"class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent": 250.5}})", &now);
  ASSERT_NE(m, nullptr);
  for (bool pad : {false, true}) {
    const auto captured = rocewatch::testing::BuildStatReply(
        1, "mlx5_0", 1, {{"np_cnp_sent", 1000}, {"rp_cnp_handled", 7}}, pad);
    auto answer = captured;
    now = 10;
    m->ApplyToRdmaStat("mlx5_0", 1, answer);
    auto stat = rdma_nl::DecodeStatReply(answer);
    ASSERT_TRUE(stat.ok()) << stat.error().message;
    ASSERT_EQ(stat->counters.size(), 2u);
    EXPECT_EQ(stat->counters[0].value, 3505u) << pad;
    EXPECT_EQ(stat->counters[1].value, 7u) << pad;
    auto other_port = captured;
    m->ApplyToRdmaStat("mlx5_0", 2, other_port);
    EXPECT_EQ(other_port, captured);
    std::vector<std::uint8_t> truncated(captured.begin(), captured.begin() + captured.size() / 2);
    const auto kept = truncated;
    m->ApplyToRdmaStat("mlx5_0", 1, truncated);
    EXPECT_EQ(truncated, kept);
  }
}

TEST_F(MotionTest, AFecCounterMotionDoesNotKnowIsAnError) {
  fs::Tree sysfs("sysfs", dir_ / "sys");
  auto m = Motion::Parse(R"({"version": 1, "fec": {"ens1f0np0": {"uncorrected": 1}}})", "motion.json", sysfs);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message,
            "motion.json: fec/ens1f0np0/uncorrected: not a FEC counter (corrected, uncorrectable, "
            "corrected_bits)");
  auto negative = Motion::Parse(R"({"version": 1, "fec": {"ens1f0np0": {"corrected": -1}}})", "motion.json", sysfs);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().message, "motion.json: fec/ens1f0np0/corrected: rate must be a non-negative number");
}

// Issue 38: a refused capture's keys reached stderr raw (a window title, a screen clear, a forged
// log line, a 4 MiB key twice). They are quoted now, and cut; a repeated key is an error.
TEST_F(MotionTest, HostileKeysInARefusalAreQuotedAndCut) {
  fs::Tree sysfs("sysfs", dir_ / "sys");
  const std::string title = "\x1b]0;owned\x07", clear = "\x1b[2J", forged = "x\nlevel=info msg=ok";
  for (const std::string section : {"ethtool", "fec"}) {
    nlohmann::json doc = {{"version", 1}, {section, {{title, {{clear + std::string(4u << 20, 'k'), -1}}}}}};
    auto m = Motion::Parse(doc.dump(), "motion.json", sysfs);
    ASSERT_FALSE(m.ok());
    const std::string& e = m.error().message;
    EXPECT_EQ(e.find('\x1b'), std::string::npos) << section;
    EXPECT_EQ(e.find('\x07'), std::string::npos);
    EXPECT_LT(e.size(), 600u);
    EXPECT_EQ(e.substr(0, 19 + std::string(section).size()), "motion.json: " + std::string(section) + "/\"\\x1b");
  }
  nlohmann::json bad_nd = {{"version", 1}, {"ethtool", {{forged, 1}}}};
  auto m = Motion::Parse(bad_nd.dump(), "motion.json", sysfs);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message, "motion.json: ethtool/\"x\\nlevel=info msg=ok\" must be an object");
  nlohmann::json bad_sysfs = {{"version", 1}, {"sysfs", {{"class/" + clear, -1}}}};
  auto s = Motion::Parse(bad_sysfs.dump(), "motion.json", sysfs);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "motion.json: sysfs/\"class/\\x1b[2J\": rate must be a non-negative number");
}

TEST_F(MotionTest, ARepeatedKeyIsAnError) {
  fs::Tree sysfs("sysfs", dir_ / "sys");
  auto m = Motion::Parse(R"({"version": 1, "ethtool": {"eth0": {"rx": 1, "rx": 2}}})", "motion.json", sysfs);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message,
            "motion.json: /ethtool/eth0: key \"rx\" appears twice in one object (first at 1:37, again at 1:46); only the "
            "last one counts");
}

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

// Found by tests/fuzz/motion_fuzz.cpp (corpus/motion/regression-version-is-an-object.json): a
// "version" that is not a number made nlohmann's value() throw type_error out of the replay.
TEST_F(MotionTest, VersionOfAnotherTypeIsAnErrorNotAnException) {
  fs::Tree sysfs("sysfs", dir_ / "sys");
  for (const char* text : {R"({"version": {"ens1f0np0": {}}})", R"({"version": "1"})",
                           R"({"version": [1]})", R"({"version": null})", R"({"version": 1.5})",
                           R"({"sysfs": {}})"}) {
    auto m = Motion::Parse(text, "m.json", sysfs);
    ASSERT_FALSE(m.ok()) << text;
    EXPECT_EQ(m.error().message, "m.json: \"version\" must be 1");
  }
  EXPECT_TRUE(Motion::Parse(R"({"version": 1.0})", "m.json", sysfs).ok());
}

// Found by review of what tests/fuzz/motion_fuzz.cpp exercises; the target reproduces it with
// corpus/motion/regression-huge-rate.json: a rate whose delta does not fit in uint64 was
// converted anyway (undefined behaviour, UBSan's float-cast-overflow). The delta now saturates
// and the counter wraps like a 64-bit one.
TEST_F(MotionTest, HugeRatesSaturateInsteadOfOverflowing) {
  fs::Tree sysfs("sysfs", dir_ / "sys");
  auto m = Motion::Parse(
      R"({"version": 1, "sysfs": {"class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent": 1e300},
          "ethtool": {"ens1f0np0": {"rx_prio3_pause": 1.7e308}}})",
      "motion.json", sysfs);
  ASSERT_TRUE(m.ok()) << m.error().message;
  (*m)->set_clock([] { return 86400.0; });
  sysfs.set_transform((*m)->SysfsTransform());
  fs::Attribute attr(&sysfs, "devices/pci0000:16/0000:17:00.0/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent");
  std::string text;
  ASSERT_TRUE(attr.Read(text).ok());
  EXPECT_EQ(text, "999\n");  // 1000 + (2^64 - 1), modulo 2^64

  std::vector<std::uint8_t> strings(12 + 32, 0);
  std::uint32_t len = 1;
  std::memcpy(strings.data() + 8, &len, 4);
  std::strcpy(reinterpret_cast<char*>(strings.data() + 12), "rx_prio3_pause");
  std::vector<std::uint8_t> stats(8 + 8, 0);
  std::memcpy(stats.data() + 4, &len, 4);
  (*m)->ApplyToStats("ens1f0np0", strings, stats);
  std::uint64_t value = 0;
  std::memcpy(&value, stats.data() + 8, 8);
  EXPECT_EQ(value, UINT64_MAX);
}

}  // namespace
}  // namespace rocewatch::replay
