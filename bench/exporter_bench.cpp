// In-process benchmarks of roce_exporter: one collection pass, rendering and
// serialization, EEPROM decoding and ethtool stat classification, per node
// size N (bench/run_all.sh generates the nodes with tools/gen/bench_node.py
// into $ROCEWATCH_BENCH_DATA/n<N>).
//
//   exporter_bench [google benchmark flags]
//   exporter_bench --list-reads=FILE --tree=DIR|/sys [--sysfs-only]
//       writes the sysfs files one steady-state pass reads (for the floors)

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>

#include "exporter/capture/files/capture_files.h"
#include "exporter/collectors/registry.h"
#include "exporter/drivers/driver.h"
#include "exporter/ethtool/classify.h"
#include "exporter/ethtool/string_set.h"
#include "exporter/fs/beneath.h"
#include "exporter/fs/fd_budget.h"
#include "exporter/kernel/answers.h"
#include "exporter/log.h"
#include "exporter/metrics/text_renderer.h"
#include "exporter/optics/decode.h"
#include "exporter/pass/render_cache.h"
#include "exporter/pass/runner.h"
#include "exporter/pass/scrape_coalescer.h"
#include "exporter/optics/images.h"

namespace rocewatch {
namespace {

std::string DataDir() {
  const char* d = std::getenv("ROCEWATCH_BENCH_DATA");
  return d != nullptr ? d : "/tmp/rocewatch-bench";
}

std::vector<std::string> AllCollectors() {
  std::vector<std::string> names;
  for (const auto& s : collectors::AllCollectors()) names.emplace_back(s.name);
  return names;
}

// The trees of `dir` (or the live /sys) and its kernel answers; no collector chosen yet.
PassConfig TreesOf(const std::string& dir) {
  PassConfig c;
  if (dir == "/sys") {
    c.sysfs_root = "/sys";
    c.discover.extra_netdevs = std::regex(".*");
  } else {
    c.sysfs_root = dir + "/sys";
    c.configfs_root = dir + "/configfs";
    c.debugfs_root = dir + "/debugfs";
    c.kernel = kernel::MakeReplayKernel(dir);
  }
  return c;
}

// Answers from `inner` (ENODEV without one: the live kernel is never asked) and counts the calls.
class CountingKernel final : public kernel::KernelAnswers {
 public:
  explicit CountingKernel(std::shared_ptr<kernel::KernelAnswers> inner) : inner_(std::move(inner)) {}
  kernel::Answer Ask(const kernel::Request& request) override {
    ++asked;
    return inner_ != nullptr ? inner_->Ask(request) : kernel::Answer{{}, ENODEV};
  }
  std::atomic<int> asked{0};

 private:
  std::shared_ptr<kernel::KernelAnswers> inner_;
};

// The collectors that read only the trees (sysfs, configfs, debugfs): each collector, alone,
// runs one pass over `dir`, and those that asked the kernel nothing are the ones. Derived
// from what the collectors do, not listed, so a new collector is measured where it belongs.
const std::vector<std::string>& TreeOnlyCollectors(const std::string& dir) {
  static std::mutex mu;
  static std::map<std::string, std::vector<std::string>> known;
  std::lock_guard<std::mutex> lock(mu);
  auto [it, added] = known.try_emplace(dir);
  if (!added) return it->second;
  for (const auto& info : collectors::AllCollectors()) {
    PassConfig c = TreesOf(dir);
    auto counting = std::make_shared<CountingKernel>(c.kernel);
    c.kernel = counting;
    c.enabled_collectors = {std::string(info.name)};
    auto pass = PassRunner::Create(std::move(c));
    if (!pass) {
      std::fprintf(stderr, "collector %s: %s\n", std::string(info.name).c_str(),
                   pass.error().message.c_str());
      std::exit(1);
    }
    (*pass)->Collect();
    if (counting->asked == 0) it->second.emplace_back(info.name);
  }
  return it->second;
}

PassConfig ConfigFor(const std::string& dir, bool sysfs_only) {
  PassConfig c = TreesOf(dir);
  c.enabled_collectors = sysfs_only ? TreeOnlyCollectors(dir) : AllCollectors();
  return c;
}

std::unique_ptr<PassRunner> MakeCollector(benchmark::State& state, const std::string& dir,
                                         bool sysfs_only) {
  auto c = PassRunner::Create(ConfigFor(dir, sysfs_only));
  if (!c) {
    state.SkipWithError(c.error().message.c_str());
    return nullptr;
  }
  return std::move(*c);
}

std::string NodeDir(benchmark::State& state) {
  std::string dir = DataDir() + "/n" + std::to_string(state.range(0));
  std::ifstream probe(dir + "/capture.json");
  if (!probe) {
    state.SkipWithError(("no benchmark node at " + dir + " (run bench/run_all.sh)").c_str());
    return "";
  }
  return dir;
}

// One collection pass over the sysfs sources only (what the floors read).
void BM_CollectSysfs(benchmark::State& state) {
  std::string dir = NodeDir(state);
  if (dir.empty()) return;
  auto c = MakeCollector(state, dir, true);
  if (!c) return;
  c->Collect();  // discovery and opening the held descriptors
  for (auto _ : state) benchmark::DoNotOptimize(c->Collect());
  state.counters["devices"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_CollectSysfs)->Arg(1)->Arg(8)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The same sysfs sources over this machine's real /sys: no RDMA device here, so what they
// read is every netdev's attributes (extra_netdevs = .*), the files floor_* read on /sys.
void BM_CollectRealSysfs(benchmark::State& state) {
  auto c = MakeCollector(state, "/sys", true);
  if (!c) return;
  c->Collect();
  for (auto _ : state) benchmark::DoNotOptimize(c->Collect());
}
BENCHMARK(BM_CollectRealSysfs)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Opening one real sysfs attribute through a class/ link, read, closed: plain open(2) of the
// absolute path (what the exporter did before issue 13), Tree::ReadText with openat2
// RESOLVE_BENEATH (now), and Tree::ReadText with the fallback walk forced (old kernels).
void BM_OpenBeneathSysfs(benchmark::State& state) {
  const char* rel = "class/net/lo/mtu";
  fs::Tree tree("sysfs", "/sys");
  fs::ForceBeneathWalkForTesting(state.range(0) == 2);
  for (auto _ : state) {
    if (state.range(0) == 0) {
      int fd = ::open("/sys/class/net/lo/mtu", O_RDONLY | O_CLOEXEC);
      char buf[64];
      benchmark::DoNotOptimize(::read(fd, buf, sizeof buf));
      ::close(fd);
    } else {
      benchmark::DoNotOptimize(tree.ReadText(rel));
    }
  }
  fs::ForceBeneathWalkForTesting(false);
  state.SetLabel(state.range(0) == 0 ? "open(2)" : state.range(0) == 1 ? "openat2" : "walk");
}
BENCHMARK(BM_OpenBeneathSysfs)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

// One collection pass with every collector (kernel answers replayed from files).
void BM_CollectAll(benchmark::State& state) {
  std::string dir = NodeDir(state);
  if (dir.empty()) return;
  auto c = MakeCollector(state, dir, false);
  if (!c) return;
  c->Collect();
  for (auto _ : state) benchmark::DoNotOptimize(c->Collect());
}
BENCHMARK(BM_CollectAll)->Arg(1)->Arg(8)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Rendering a snapshot straight into the exposition text: what /metrics serves.
void BM_RenderText(benchmark::State& state) {
  std::string dir = NodeDir(state);
  if (dir.empty()) return;
  auto c = MakeCollector(state, dir, false);
  if (!c) return;
  NodeSnapshot snap = c->Collect();
  std::size_t bytes = 0;
  for (auto _ : state) {
    metrics::TextRenderer renderer;
    RenderSnapshot(snap, c->enabled_collectors(), c->stats(), renderer);
    std::string text = std::move(renderer).Take();
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_RenderText)->Arg(1)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond);

// What a steady-state scrape renders: the counters' tables again, the rest from the render
// cache (exporter/pass/render_cache.h), into the buffer of the page before.
void BM_RenderPage(benchmark::State& state) {
  std::string dir = NodeDir(state);
  if (dir.empty()) return;
  auto c = MakeCollector(state, dir, false);
  if (!c) return;
  NodeSnapshot snap = c->Collect();
  RenderCache cache;
  std::string page;
  for (auto _ : state) {
    cache.Render(snap, c->enabled_collectors(), c->stats(), page);
    benchmark::DoNotOptimize(page.data());
  }
  state.counters["bytes"] = static_cast<double>(page.size());
  state.counters["tables_rendered"] = static_cast<double>(cache.rendered());
}
BENCHMARK(BM_RenderPage)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond);

// Decoding an 8-lane CMIS module (all pages) and a QSFP28.
void BM_DecodeCmis8Lane(benchmark::State& state) {
  optics::EepromImage image = optics::testing::QsfpDd8Lane();
  for (auto _ : state) benchmark::DoNotOptimize(optics::Decode(image));
}
BENCHMARK(BM_DecodeCmis8Lane)->Unit(benchmark::kMicrosecond);

void BM_DecodeQsfp28(benchmark::State& state) {
  optics::EepromImage image = optics::testing::Qsfp28();
  for (auto _ : state) benchmark::DoNotOptimize(optics::Decode(image));
}
BENCHMARK(BM_DecodeQsfp28)->Unit(benchmark::kMicrosecond);

// Classifying a 64-channel mlx5 string set (once per set) and applying one GSTATS answer.
struct StringSet {
  std::vector<std::string> names;
  std::vector<std::uint64_t> values;
};
std::optional<StringSet> LoadStringSet(benchmark::State& state) {
  std::string dir = NodeDir(state);
  if (dir.empty()) return std::nullopt;
  auto strings = kernel::ReadAnswer(dir, kernel::call::Strings{"ens1f0np0", 1}.Key());
  auto stats = kernel::ReadAnswer(dir, kernel::call::Stats{"ens1f0np0"}.Key());
  auto names = ethtool::DecodeStrings(strings.bytes);
  auto values = ethtool::DecodeStats(stats.bytes);
  if (!strings.ok() || !stats.ok() || !names || !values) {
    state.SkipWithError("cannot read the benchmark node's ethtool answers");
    return std::nullopt;
  }
  return StringSet{*names, *values};
}

void BM_ClassifyStrings(benchmark::State& state) {
  auto set = LoadStringSet(state);
  if (!set) return;
  for (auto _ : state) benchmark::DoNotOptimize(ethtool::ClassifyStrings(set->names, drivers::FindByNetdevDriver("mlx5_core")));
  state.counters["strings"] = static_cast<double>(set->names.size());
}
BENCHMARK(BM_ClassifyStrings)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_ApplyStats(benchmark::State& state) {
  auto set = LoadStringSet(state);
  if (!set) return;
  auto classification = ethtool::ClassifyStrings(set->names, drivers::FindByNetdevDriver("mlx5_core"));
  for (auto _ : state) benchmark::DoNotOptimize(ethtool::Apply(classification, set->values));
  state.counters["strings"] = static_cast<double>(set->names.size());
}
BENCHMARK(BM_ApplyStats)->Arg(1)->Unit(benchmark::kMicrosecond);

// The sysfs files a steady-state pass reads, for floor_naive / floor_held.
class ListRecorder final : public fs::Recorder {
 public:
  explicit ListRecorder(std::string root) : root_(std::move(root)) {}
  void OnRead(std::string_view tree, std::string_view rel) override {
    if (tree != "sysfs") return;
    std::lock_guard<std::mutex> lock(mu_);
    files_.insert(root_ + "/" + std::string(rel));
  }
  void OnList(std::string_view, std::string_view) override {}
  void OnLink(std::string_view, std::string_view) override {}
  std::set<std::string> files_;

 private:
  std::mutex mu_;
  std::string root_;
};

int ListReads(const std::string& tree, const std::string& out_path, bool sysfs_only) {
  auto c = PassRunner::Create(ConfigFor(tree, sysfs_only));
  if (!c) {
    std::fprintf(stderr, "%s\n", c.error().message.c_str());
    return 2;
  }
  (*c)->Collect();  // discovery and static attributes: not part of a steady-state pass
  ListRecorder recorder(tree == "/sys" ? "/sys" : tree + "/sys");
  (*c)->SetRecorder(&recorder);
  (*c)->Collect();
  (*c)->SetRecorder(nullptr);
  std::ofstream out(out_path);
  for (const auto& f : recorder.files_) out << f << "\n";
  std::printf("%zu attribute files read per pass of %s\n", recorder.files_.size(), tree.c_str());
  return 0;
}

}  // namespace
}  // namespace rocewatch

int main(int argc, char** argv) {
  rocewatch::log::SetLevel(rocewatch::log::Level::kError);
  rocewatch::fs::FdBudget::RaiseLimitAndSize();
  std::string list, tree;
  bool sysfs_only = true;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--list-reads=", 13) == 0) list = argv[i] + 13;
    else if (std::strncmp(argv[i], "--tree=", 7) == 0) tree = argv[i] + 7;
    else if (std::strcmp(argv[i], "--all-collectors") == 0) sysfs_only = false;
    else rest.push_back(argv[i]);
  }
  if (!list.empty()) return rocewatch::ListReads(tree, list, sysfs_only);
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
