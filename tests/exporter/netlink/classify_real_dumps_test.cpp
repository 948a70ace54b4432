// The corpus of real `ethtool -S` dumps (tests/fixtures/real/ethtool-S, README.md there says
// where each was published): each dump goes through the converter (`roce_exporter convert
// ethtool-S`: text -> GSSET_INFO/GSTRINGS/GSTATS answers of a capture), then through the real
// replay kernel, inventory, ethtool source and metric renderer, and every value is checked
// against the dump text:
//   - every statistic its answer key (<dump>.expected, typed from the kernel sources, not from
//     the exporter's tables) gives a catalogue family must be served as exactly that series,
//     with the dump's value times the key's factor;
//   - no other statistic may become a catalogue series; with metrics-include=".*" each is
//     served raw as roce_ethtool_stat_total{stat=NAME} with the dump's value;
//   - no series is fed by two statistics (the first would silently win).
// Every *.txt of the corpus must have its answer key, so a dump cannot be added untested. A
// dump's driver is what its author's `ethtool -i` said (PROVENANCE.md), given to the capture's
// GDRVINFO by the file name's prefix (DriverOf), as `roce_exporter convert --driver` does. The
// test prints each dump's coverage (names, classified, unclassified).

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/test_dir.h"
#include "exporter/capture/convert/capture_answers.h"
#include "exporter/capture/convert/ethtool_stats_text.h"
#include "exporter/collectors/ethtool/collector.h"
#include "exporter/collectors/registry.h"
#include "exporter/inventory/inventory.h"
#include "exporter/kernel/answers.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/pass/runner.h"

namespace rocewatch {
namespace {

namespace stdfs = std::filesystem;
using rocewatch::testing::TestDir;

const stdfs::path kCorpus = stdfs::path(ROCEWATCH_TEST_DATA) / "fixtures/real/ethtool-S";
constexpr const char* kNetdev = "eth0";

std::string ReadText(const stdfs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Expected {
  std::string series;
  double factor = 1;
};

// NAME \t SERIES \t FACTOR lines; '#' comments.
std::map<std::string, Expected> ReadKey(const stdfs::path& p) {
  std::map<std::string, Expected> out;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('\t'), b = line.rfind('\t');
    EXPECT_TRUE(a != std::string::npos && b != a) << p << ": " << line;
    if (a == std::string::npos || b == a) continue;
    out[line.substr(0, a)] = Expected{line.substr(a + 1, b - a - 1), std::stod(line.substr(b + 1))};
  }
  return out;
}

// A sink that keeps every sample as "family{label="v",...}" (labels sorted, netdev dropped).
class RecordingSink final : public metrics::MetricSink {
 public:
  void Add(const metrics::MetricSpec& spec, std::initializer_list<std::string_view> values,
           double value) override {
    std::map<std::string, std::string> labels;
    std::size_t i = 0;
    for (std::string_view v : values) {
      if (i < spec.labels.size() && spec.labels[i] != "netdev") {
        labels[std::string(spec.labels[i])] = std::string(v);
      }
      ++i;
    }
    std::string key(spec.name);
    if (!labels.empty()) {
      key += '{';
      bool first = true;
      for (const auto& [k, v] : labels) {
        if (!first) key += ',';
        first = false;
        key += k + "=\"" + v + "\"";
      }
      key += '}';
    }
    EXPECT_EQ(samples.count(key), 0u) << "series served twice: " << key;
    samples[key] = value;
  }
  std::map<std::string, double> samples;
};

bool Near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

struct Served {
  std::map<std::string, double> samples;
  std::size_t netdevs = 0;
};

// The driver `ethtool -i` named for the dump (README.md, PROVENANCE.md), by its file's prefix.
std::string DriverOf(const std::string& file) {
  for (const auto& [prefix, driver] : {std::pair{"mlx5-", "mlx5_core"}, std::pair{"ice-", "ice"},
                                       std::pair{"bnxt-", "bnxt_en"}, std::pair{"ionic-", "ionic"}}) {
    if (file.starts_with(prefix)) return driver;
  }
  ADD_FAILURE() << file << ": no driver for this file name's prefix";
  return "";
}

// Converts the dump into a capture and serves it through the real ethtool source.
Served ConvertAndReplay(const std::string& text, const std::string& dir, const std::string& driver) {
  Served out;
  auto stats = convert::ParseEthtoolStatsText(text);
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().message);
  if (!stats) return out;
  EXPECT_TRUE(convert::PrepareCapture(dir, kNetdev, "corpus test").ok());
  const Status written =
      convert::WriteEthtoolStats(dir, kNetdev, *stats, convert::DriverIdentity{driver, ""});
  EXPECT_TRUE(written.ok()) << (written.ok() ? "" : written.error().message);

  fs::Tree sysfs("sysfs", dir + "/sys");
  // A converted netdev has no RDMA device: it is served as --netdev-include selects it.
  DiscoverOptions options;
  options.extra_netdevs = std::regex(std::string("^") + kNetdev + "$");
  const Inventory inventory = Discover(sysfs, options, 1);
  out.netdevs = inventory.netdevs.size();
  auto kernel = kernel::MakeReplayKernel(dir);
  const collectors::CollectorInfo* info = collectors::FindCollector("ethtool");
  EXPECT_NE(info, nullptr);
  if (info == nullptr) return out;
  collectors::SourceEnv env;
  env.sysfs = &sysfs;
  env.configfs = &sysfs;
  env.debugfs = &sysfs;
  env.kernel = kernel.get();
  // Every classified statistic, the repeats and the detail kinds included
  // (--collector.ethtool.all-port-stats; docs/metrics.md "Default and opt-in series").
  env.options = WithDefaults(*info, {{"metrics-include", ".*"}, {"all-port-stats", "true"}});
  auto source = info->make(env);
  EXPECT_TRUE(source.ok());
  if (!source) return out;
  (*source)->Prepare(inventory);
  NodeSnapshot snap;
  SourceStatus status;
  status.name = "ethtool";
  (*source)->Collect(inventory, snap, status);
  RecordingSink sink;
  collectors::RenderEthtool(snap, sink);
  out.samples = std::move(sink.samples);
  return out;
}

TEST(EthtoolRealDumps, EveryDumpHasAnAnswerKey) {
  std::size_t dumps = 0;
  for (const auto& entry : stdfs::directory_iterator(kCorpus)) {
    if (entry.path().extension() != ".txt") continue;
    ++dumps;
    stdfs::path key = entry.path();
    key.replace_extension(".expected");
    EXPECT_TRUE(stdfs::exists(key)) << entry.path() << " has no answer key " << key;
  }
  EXPECT_GE(dumps, 5u);
}

TEST(EthtoolRealDumps, ConvertedAndReplayedValueForValue) {
  std::vector<stdfs::path> dumps;
  for (const auto& entry : stdfs::directory_iterator(kCorpus)) {
    if (entry.path().extension() == ".txt") dumps.push_back(entry.path());
  }
  std::sort(dumps.begin(), dumps.end());
  for (const stdfs::path& dump : dumps) {
    SCOPED_TRACE(dump.filename().string());
    stdfs::path key_path = dump;
    key_path.replace_extension(".expected");
    const std::map<std::string, Expected> key = ReadKey(key_path);
    const std::string text = ReadText(dump);
    auto stats = convert::ParseEthtoolStatsText(text);
    ASSERT_TRUE(stats.ok()) << stats.error().message;

    TestDir dir;
    const Served served = ConvertAndReplay(text, dir.path(), DriverOf(dump.filename().string()));
    ASSERT_EQ(served.netdevs, 1u) << "the converted capture must list its netdev";

    std::set<std::string> expected_series;
    std::size_t classified = 0, raw = 0;
    for (const auto& s : *stats) {
      auto it = key.find(s.name);
      if (it != key.end()) {
        ++classified;
        expected_series.insert(it->second.series);
        auto got = served.samples.find(it->second.series);
        if (got == served.samples.end()) {
          ADD_FAILURE() << s.name << " should be served as " << it->second.series;
          continue;
        }
        EXPECT_TRUE(Near(got->second, static_cast<double>(s.value) * it->second.factor))
            << s.name << " = " << s.value << " served as " << it->second.series << " = "
            << got->second;
      } else {
        ++raw;
        const std::string series = "roce_ethtool_stat_total{stat=\"" + s.name + "\"}";
        auto got = served.samples.find(series);
        if (got == served.samples.end()) {
          ADD_FAILURE() << s.name << " is not in the answer key, so it must be served raw as "
                        << series;
          continue;
        }
        EXPECT_EQ(got->second, static_cast<double>(s.value)) << s.name;
      }
    }
    EXPECT_EQ(expected_series.size(), classified) << "the answer key maps two names to one series";
    for (const auto& [name, e] : key) {
      bool in_dump = false;
      for (const auto& s : *stats) in_dump = in_dump || s.name == name;
      EXPECT_TRUE(in_dump) << "the answer key names " << name << ", which the dump lacks";
    }
    // Nothing else became a catalogue series: every sample is an expected one, a raw one, the
    // driver info, or the count of names the driver's table does not know.
    for (const auto& [series, value] : served.samples) {
      if (series.starts_with("roce_ethtool_stat_total{") || series.starts_with("roce_ethtool_driver_info{") ||
          series == "roce_exporter_unclassified_statistics")
        continue;
      EXPECT_TRUE(expected_series.count(series)) << "unexpected series " << series << " = " << value;
    }
    std::cout << "[ corpus ] " << dump.filename().string() << ": " << stats->size()
              << " statistics, " << classified << " classified into catalogue families (all "
              << key.size() << " of the answer key), " << raw << " served raw only, "
              << (served.samples.count("roce_exporter_unclassified_statistics")
                      ? served.samples.at("roce_exporter_unclassified_statistics")
                      : 0.0)
              << " of them unknown to the driver's table\n";
  }
}

TEST(EthtoolRealDumps, Kernel44NamesMeanTheNewerFamilies) {
  // The same hardware counters across kernels: a 4.4 ConnectX-4 Lx and its 4.15 successor on
  // the same host (isc-projects/ethq issue #8) give the same families, by different names.
  const auto old_key = ReadKey(kCorpus / "mlx5-cx4lx-ubuntu16.04-4.4.expected");
  const auto new_key = ReadKey(kCorpus / "mlx5-cx4lx-ubuntu18.04-4.15.expected");
  std::set<std::string> old_series, new_series;
  for (const auto& [n, e] : old_key) old_series.insert(e.series);
  for (const auto& [n, e] : new_key) new_series.insert(e.series);
  for (const std::string& s : old_series) EXPECT_TRUE(new_series.count(s)) << s;
  for (const char* family :
       {"roce_ethtool_rx_pause_control_frames_total", "roce_ethtool_rx_discarded_packets_total",
        "roce_ethtool_rx_symbol_errors_total", "roce_ethtool_rx_crc_error_frames_total"}) {
    EXPECT_TRUE(old_series.count(family)) << family;
  }
}

}  // namespace
}  // namespace rocewatch
