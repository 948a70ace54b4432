// In-process benchmarks of roce-lint: exposition-text parsing throughput, and
// the checks over M nodes of 8 NICs each, with how both grow with M.
// Inputs: $ROCEWATCH_BENCH_DATA/node8.prom, one 8-NIC node's /metrics
// (bench/run_all.sh writes it by scraping roce_exporter on a bench node).

#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "lint/checks/check.h"
#include "lint/observe/exposition.h"
#include "lint/plan/load.h"

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

// A plan of M nodes with the bench node's 8 NICs, and their observations.
struct Fleet {
  plan::Plan plan;
  std::vector<observe::NodeView> views;
};

Fleet MakeFleet(int m) {
  std::string nodes;
  for (int i = 0; i < m; ++i) {
    std::string nics;
    for (int n = 0; n < 8; ++n) {
      nics += std::string(n ? "," : "") + "{\"ib_dev\":\"mlx5_" + std::to_string(n) +
              "\",\"netdev\":\"ens" + std::to_string(n + 1) + "f0np0\",\"profile\":\"p\",\"roce_ip\":\"10." +
              std::to_string(10 + n) + ".0.1/16\"}";  // every node serves the same metrics
    }
    nodes += std::string(i ? "," : "") + "{\"name\":\"n" + std::to_string(i) +
             "\",\"management_ip\":\"192.168." + std::to_string(i / 250) + "." + std::to_string(i % 250 + 1) +
             "\",\"nics\":[" + nics + "]}";
  }
  std::string text = R"({"cluster":"bench","profiles":{"p":{"link_speed_gbps":400,"netdev_mtu":9000,
    "roce_mtu":4096,"trust":"dscp","pfc_priorities":[3],"roce_dscp":26,"roce_priority":3,
    "cnp_dscp":48,"cnp_priority":6,"ecn":{"np_priorities":[3],"rp_priorities":[3]},
    "pcie":{"speed_gts":32,"width":16}}},"nodes":[)" + nodes + "]}";
  auto loaded = plan::LoadPlanText(text, "bench-plan.json");
  Fleet f{std::move(loaded->plan), {}};
  for (int i = 0; i < m; ++i) {
    observe::NodeView v("n" + std::to_string(i), "bench");
    auto e = observe::Exposition::Parse(NodeText());
    if (e) v.SetMetrics(std::move(*e));
    f.views.push_back(std::move(v));
  }
  return f;
}

void BM_Checks(benchmark::State& state) {
  if (NodeText().empty()) {
    state.SkipWithError("no node8.prom (run bench/run_all.sh)");
    return;
  }
  Fleet fleet = MakeFleet(static_cast<int>(state.range(0)));
  std::size_t findings = 0;
  for (auto _ : state) {
    auto f = checks::RunChecks(fleet.plan, fleet.views);
    findings = f.size();
    benchmark::DoNotOptimize(f);
  }
  state.counters["nodes"] = static_cast<double>(state.range(0));
  state.counters["findings"] = static_cast<double>(findings);
}
BENCHMARK(BM_Checks)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace rocewatch::lint

BENCHMARK_MAIN();
