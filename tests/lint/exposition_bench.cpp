// Throughput of the exposition parser on exporter-style text (target: >= 200 MB/s on one core).
// Run: build-*/tests/lint/lint_exposition_bench

#include <benchmark/benchmark.h>

#include "exposition_corpus.h"
#include "lint/observe/exposition.h"

namespace {

void BM_ParseExporterText(benchmark::State& state) {
  const auto corpus = rocewatch::lint::testing::MakeExporterText(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::string copy = corpus.text;  // Parse takes ownership of its input
    auto parsed = rocewatch::lint::observe::Exposition::Parse(std::move(copy));
    if (!parsed.ok() || parsed->samples().size() != corpus.samples) {
      state.SkipWithError("parse failed");
      break;
    }
    benchmark::DoNotOptimize(parsed->samples().data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(corpus.text.size()));
  state.counters["samples"] = static_cast<double>(corpus.samples);
}
BENCHMARK(BM_ParseExporterText)->Arg(8)->Arg(64);

void BM_FindByLabel(benchmark::State& state) {
  const auto corpus = rocewatch::lint::testing::MakeExporterText(64);
  auto parsed = rocewatch::lint::observe::Exposition::Parse(corpus.text);
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        parsed->Find("roce_pfc_pause_frames_total", "netdev", "ens7f0np0").size());
  }
}
BENCHMARK(BM_FindByLabel);

}  // namespace

BENCHMARK_MAIN();
