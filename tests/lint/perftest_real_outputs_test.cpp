// ParsePerftestOutput on real outputs: what users published of perftest runs (GitHub issues,
// vendor documentation, blog posts kept in repositories) and what Debian's perftest printed here
// without an RDMA device, each under tests/fixtures/real/perftest/ with its provenance in that
// directory's README.md. Every fixture NAME.txt has an answer key NAME.expected typed by hand
// from the text (row values in the units the table printed), checked field by field:
//   test= kind= device= link_type= mtu= gid_index= queue_pairs= bidirectional= unit=
//   local_ipv4= remote_ipv4= errors=N error=TEXT... warnings=N
//   row=BYTES ITERATIONS PEAK AVERAGE MSGRATE_MPPS        (bandwidth, in `unit`)
//   lat=BYTES ITERATIONS MIN MAX TYPICAL AVG STDEV P99 P99.9  (microseconds)
// "none" is an absent optional value; an empty kind= is not checked.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lint/verify/perftest/perftest_output.h"

namespace rocewatch::lint::verify {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(ROCEWATCH_TEST_DATA) / "fixtures/real/perftest";

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<double> Numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<double> out;
  double v = 0;
  while (in >> v) out.push_back(v);
  return out;
}

std::string Optional(const std::optional<std::uint32_t>& v) {
  return v ? std::to_string(*v) : "none";
}

// Printed values have 2 or 6 decimals; a parsed value may differ from the key's by rounding
// of the product only.
void ExpectNear(double parsed, double expected, const std::string& what) {
  EXPECT_NEAR(parsed, expected, 1e-9 * std::max(1.0, std::abs(expected))) << what;
}

void Check(const fs::path& key_path) {
  SCOPED_TRACE(key_path.string());
  fs::path text_path = key_path;
  text_path.replace_extension(".txt");
  ASSERT_TRUE(fs::exists(text_path)) << text_path;
  auto out = ParsePerftestOutput(Slurp(text_path));
  ASSERT_TRUE(out.ok()) << out.error().message;

  std::ifstream key(key_path);
  std::string line;
  std::size_t rows = 0, lats = 0, errors = 0;
  double unit = 0;
  while (std::getline(key, line)) {
    auto eq = line.find('=');
    ASSERT_NE(eq, std::string::npos) << line;
    std::string name = line.substr(0, eq), value = line.substr(eq + 1);
    if (name == "test") {
      EXPECT_EQ(out->test, value);
    } else if (name == "kind") {
      if (!value.empty()) {
        EXPECT_EQ(out->kind, value == "latency" ? PerftestKind::kLatency : PerftestKind::kBandwidth);
      }
    } else if (name == "device") {
      EXPECT_EQ(out->device, value);
    } else if (name == "link_type") {
      EXPECT_EQ(out->link_type, value);
    } else if (name == "mtu") {
      EXPECT_EQ(Optional(out->mtu), value);
    } else if (name == "gid_index") {
      EXPECT_EQ(Optional(out->gid_index), value);
    } else if (name == "queue_pairs") {
      EXPECT_EQ(Optional(out->queue_pairs), value);
    } else if (name == "bidirectional") {
      EXPECT_EQ(out->bidirectional, value == "1");
    } else if (name == "unit") {
      // perftest's MB/sec is 2^20 bytes per second; Gb/sec 10^9 bits per second.
      unit = value == "Gb/sec" ? 1e9 : 1048576.0 * 8;
      EXPECT_EQ(out->bandwidth_unit, value == "Gb/sec"
                                         ? PerftestBandwidthUnit::kGigabitsPerSecond
                                         : PerftestBandwidthUnit::kMebibytesPerSecond);
    } else if (name == "local_ipv4") {
      ASSERT_FALSE(out->local.empty());
      EXPECT_EQ(out->local[0].ipv4, value);
    } else if (name == "remote_ipv4") {
      ASSERT_FALSE(out->remote.empty());
      EXPECT_EQ(out->remote[0].ipv4, value);
    } else if (name == "errors") {
      EXPECT_EQ(out->errors.size(), std::stoul(value));
    } else if (name == "error") {
      ASSERT_LT(errors, out->errors.size());
      EXPECT_EQ(out->errors[errors++], value);
    } else if (name == "warnings") {
      EXPECT_EQ(out->warnings.size(), std::stoul(value));
    } else if (name == "row") {
      auto v = Numbers(value);
      ASSERT_EQ(v.size(), 5u) << line;
      ASSERT_LT(rows, out->bandwidth.size()) << line;
      ASSERT_NE(unit, 0) << "unit= must come before row=";
      const auto& row = out->bandwidth[rows++];
      EXPECT_EQ(row.bytes, static_cast<std::uint64_t>(v[0])) << line;
      EXPECT_EQ(row.iterations, static_cast<std::uint64_t>(v[1])) << line;
      ExpectNear(row.peak_bits_per_second, v[2] * unit, line);
      ExpectNear(row.average_bits_per_second, v[3] * unit, line);
      ExpectNear(row.message_rate_pps, v[4] * 1e6, line);
    } else if (name == "lat") {
      auto v = Numbers(value);
      ASSERT_EQ(v.size(), 9u) << line;
      ASSERT_LT(lats, out->latency.size()) << line;
      const auto& row = out->latency[lats++];
      EXPECT_EQ(row.bytes, static_cast<std::uint64_t>(v[0])) << line;
      EXPECT_EQ(row.iterations, static_cast<std::uint64_t>(v[1])) << line;
      ExpectNear(row.min_us, v[2], line);
      ExpectNear(row.max_us, v[3], line);
      ExpectNear(row.typical_us, v[4], line);
      ExpectNear(row.average_us, v[5], line);
      ExpectNear(row.stdev_us, v[6], line);
      ASSERT_TRUE(row.p99_us && row.p99_9_us) << line;
      ExpectNear(*row.p99_us, v[7], line);
      ExpectNear(*row.p99_9_us, v[8], line);
    } else {
      ADD_FAILURE() << "unknown key " << name;
    }
  }
  EXPECT_EQ(out->bandwidth.size(), rows) << "rows parsed beyond the answer key";
  EXPECT_EQ(out->latency.size(), lats) << "latency rows parsed beyond the answer key";
}

TEST(PerftestRealOutputs, EveryFixtureMatchesItsAnswerKey) {
  std::size_t checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kDir)) {
    if (entry.path().extension() != ".expected") continue;
    Check(entry.path());
    ++checked;
  }
  // The README lists every fixture; a key that went missing would make this test vacuous.
  EXPECT_GE(checked, 10u);
}

TEST(PerftestRealOutputs, EveryFixtureHasAnAnswerKeyAndAReadmeEntry) {
  std::string readme = Slurp(kDir / "README.md");
  for (const auto& entry : fs::recursive_directory_iterator(kDir)) {
    if (entry.path().extension() != ".txt") continue;
    fs::path key = entry.path();
    key.replace_extension(".expected");
    EXPECT_TRUE(fs::exists(key)) << entry.path();
    EXPECT_NE(readme.find(entry.path().filename().string()), std::string::npos)
        << entry.path() << " has no entry in README.md";
  }
}

// Debian's perftest, run here with no RDMA device: the failure is an error the caller can show,
// not "not perftest output".
TEST(PerftestRealOutputs, NoDeviceIsAPerftestError) {
  auto out = ParsePerftestOutput(Slurp(kDir / "debian-4.5-0.17-no-device/ib_write_bw.txt"));
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->bandwidth.empty());
  EXPECT_TRUE(out->latency.empty());
  ASSERT_FALSE(out->errors.empty());
}

}  // namespace
}  // namespace rocewatch::lint::verify
