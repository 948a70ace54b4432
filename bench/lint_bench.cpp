// In-process benchmarks of roce-lint: exposition-text parsing throughput, and
// the checks over M nodes of 8 NICs each, with how both grow with M.
// Inputs: $ROCEWATCH_BENCH_DATA/node8.prom, one 8-NIC node's /metrics
// (bench/run_all.sh writes it by scraping roce_exporter on a bench node).

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <fstream>
#include <sstream>

#include "lint/checks/check.h"
#include "lint/observe/exposition.h"
#include "lint/observe/prometheus_answer.h"
#include "lint/plan/load.h"
#include "lint/switch/switch_config.h"
#include "rocewatch/json_duplicate_key.h"

namespace rocewatch::lint {
namespace {

std::string DataDir() {
  const char* d = std::getenv("ROCEWATCH_BENCH_DATA");
  return d != nullptr ? d : "/tmp/rocewatch-bench";
}

const std::string& NodeText() {
  static const std::string text = [] {
    std::ifstream in(DataDir() + "/node8.prom");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  return text;
}

void BM_ParseExposition(benchmark::State& state) {
  const std::string& text = NodeText();
  if (text.empty()) {
    state.SkipWithError("no node8.prom (run bench/run_all.sh)");
    return;
  }
  std::size_t samples = 0;
  for (auto _ : state) {
    auto e = observe::Exposition::Parse(text);
    samples = e ? e->samples().size() : 0;
    benchmark::DoNotOptimize(e);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["samples"] = static_cast<double>(samples);
}
BENCHMARK(BM_ParseExposition)->Unit(benchmark::kMillisecond);

// A plan of M nodes with the bench node's 8 NICs (every node serves the same metrics).
plan::Plan MakePlan(int m) {
  std::string nodes;
  for (int i = 0; i < m; ++i) {
    std::string nics;
    for (int n = 0; n < 8; ++n) {
      nics += std::string(n ? "," : "") + "{\"ib_dev\":\"mlx5_" + std::to_string(n) +
              "\",\"netdev\":\"ens" + std::to_string(n + 1) + "f0np0\",\"profile\":\"p\",\"roce_ip\":\"10." +
              std::to_string(10 + n) + ".0.1/16\"}";
    }
    nodes += std::string(i ? "," : "") + "{\"name\":\"n" + std::to_string(i) +
             "\",\"management_ip\":\"10." + std::to_string(i / 62500) + "." + std::to_string(i / 250 % 250) +
             "." + std::to_string(i % 250 + 1) + "\",\"nics\":[" + nics + "]}";
  }
  std::string text = R"({"cluster":"bench","profiles":{"p":{"link_speed_gbps":400,"netdev_mtu":9000,
    "roce_mtu":4096,"trust":"dscp","pfc_priorities":[3],"roce_dscp":26,"roce_priority":3,
    "cnp_dscp":48,"cnp_priority":6,"ecn":{"np_priorities":[3],"rp_priorities":[3]},
    "pcie":{"speed_gts":32,"width":16}}},"nodes":[)" + nodes + "]}";
  auto loaded = plan::LoadPlanText(text, "bench-plan.json");
  return std::move(loaded->plan);
}

double PeakRssMiB() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

// Check evaluation alone: M nodes through a CheckRunner (each node's checks,
// then drift across all), every node observing the same parsed metrics.
void BM_Checks(benchmark::State& state) {
  if (NodeText().empty()) {
    state.SkipWithError("no node8.prom (run bench/run_all.sh)");
    return;
  }
  const int m = static_cast<int>(state.range(0));
  plan::Plan plan = MakePlan(m);
  observe::NodeView view("n0", "bench");
  auto e = observe::Exposition::Parse(NodeText());
  if (e) view.SetMetrics(std::move(*e));
  std::size_t findings = 0;
  for (auto _ : state) {
    checks::CheckRunner runner(plan);
    for (int i = 0; i < m; ++i) runner.AddNode(static_cast<std::size_t>(i), view);
    auto f = runner.Finish();
    findings = f.size();
    benchmark::DoNotOptimize(f);
  }
  state.counters["nodes"] = m;
  state.counters["findings"] = static_cast<double>(findings);
  state.counters["us_per_node"] = benchmark::Counter(
      static_cast<double>(m), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}
BENCHMARK(BM_Checks)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->Iterations(3);

// What `roce-lint check --metrics-dir` does per node, streamed: parse the
// node's text, check it, drop it (one thread; the CLI parses on every core).
void BM_ParseAndCheck(benchmark::State& state) {
  if (NodeText().empty()) {
    state.SkipWithError("no node8.prom (run bench/run_all.sh)");
    return;
  }
  const int m = static_cast<int>(state.range(0));
  plan::Plan plan = MakePlan(m);
  for (auto _ : state) {
    checks::CheckRunner runner(plan);
    for (int i = 0; i < m; ++i) {
      observe::NodeView view(plan.nodes[static_cast<std::size_t>(i)].name, "bench");
      auto e = observe::Exposition::Parse(NodeText());
      if (e) view.SetMetrics(std::move(*e));
      runner.AddNode(static_cast<std::size_t>(i), view);
    }
    benchmark::DoNotOptimize(runner.Finish());
  }
  state.counters["nodes"] = m;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * m *
                          static_cast<std::int64_t>(NodeText().size()));
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}
BENCHMARK(BM_ParseAndCheck)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(1);

// Issue 38: the readers of hostile input, each on its worst shape at growing sizes. Linear means
// the same time per byte (bytes_per_second) at every size.
std::string SonicWorst(std::size_t bytes) {
  std::string ports;
  for (int i = 0; i < 8000; ++i) ports += (i ? "," : "") + std::string("Ethernet") + std::to_string(i * 4);
  std::string text = R"({"PORT_QOS_MAP": {")" + ports + R"(": {"pfc_enable": ")";
  while (text.size() < bytes) text += "3,";
  return text + R"(3"}}})";
}

void BM_ParseSonicPortQosMap(benchmark::State& state) {
  const std::string text = SonicWorst(static_cast<std::size_t>(state.range(0)) << 20);
  for (auto _ : state) benchmark::DoNotOptimize(switch_config::ParseSwitchConfig(text, "b.json"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseSonicPortQosMap)->Arg(1)->Arg(8)->Arg(32)->Unit(benchmark::kMillisecond);

void BM_ParseAnswerManyLabels(benchmark::State& state) {
  std::string labels = R"("__name__": "m", "instance": "n")";
  for (std::int64_t i = 0; i < state.range(0); ++i) labels += R"(, "l)" + std::to_string(i) + R"(": "v")";
  const std::string body = R"({"status": "success", "data": {"resultType": "vector", "result": [{"metric": {)" + labels +
                           R"(}, "value": [1, "1"]}]}})";
  for (auto _ : state) benchmark::DoNotOptimize(observe::ParseVectorAnswer(body, "b"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
}
BENCHMARK(BM_ParseAnswerManyLabels)->Arg(10000)->Arg(150000)->Arg(1000000)->Unit(benchmark::kMillisecond);

void BM_FindDuplicateJsonKey(benchmark::State& state) {
  std::string text = "{";
  for (std::int64_t i = 0; i < state.range(0); ++i) text += (i ? ",\"" : "\"") + std::to_string(i) + "\":{\"a\":1}";
  text += "}";
  for (auto _ : state) benchmark::DoNotOptimize(FindDuplicateJsonKey(text));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_FindDuplicateJsonKey)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rocewatch::lint

BENCHMARK_MAIN();
