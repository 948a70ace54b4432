#pragma once

// The flags that say where roce-lint gets the nodes' metrics, shared by
// `check`, `serve` and `fix --only-findings`:
//   --metrics-dir DIR [--previous-metrics-dir DIR --window 30s]   saved /metrics files
//   --prometheus URL [--window 5m] [--prometheus.* …]            a Prometheus-compatible API
//   (default) direct scrapes of the exporters the plan names [--counter-window 30s]
//   --timeout 5s, --concurrency 32, --max-bytes N, --scheme http|https,
//   --ca-file, --cert-file, --key-file, --username, --password-file

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/cli/args.h"
#include "lint/observe/observe.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::cli {

const std::vector<FlagSpec>& ObserveFlagSpecs();
extern const char* const kObserveFlagsHelp;

struct ObserveSettings {
  enum class Mode { kScrape, kMetricsDir, kPrometheus } mode = Mode::kScrape;
  std::string metrics_dir, previous_metrics_dir, prometheus_url;
  observe::PrometheusOptions prometheus;  // with --prometheus: batches, headers, retries
  bool print_stats = false;               // --prometheus.stats
  double window_seconds = 0;          // counter window (0: no counter checks)
  observe::ScrapeOptions scrape;
};
Result<ObserveSettings> ObserveSettingsFromArgs(const ParsedArgs& args);
// A byte count with an optional IEC suffix ("1048576", "512KiB", "64MiB", "1GiB").
std::optional<std::uint64_t> ParseByteSize(std::string_view text);

struct ObservedInput {
  std::string input;      // what was observed, for reports
  bool counters = false;  // the views carry counter increases
  std::string stats;      // --prometheus: what the queries cost (QueryStats::Describe)
};
// Observes every node once (twice, `window` apart, for direct scrapes with a
// counter window), handing each node's view to `sink` as soon as it is ready.
// An Error only when the source itself is unusable (a missing directory, a
// Prometheus API that does not answer); unreachable nodes are views with errors.
Result<ObservedInput> ObserveEach(const plan::Plan& plan, const ObserveSettings& settings,
                                  const observe::NodeSink& sink);

struct Observed : ObservedInput {
  std::vector<observe::NodeView> views;  // one per plan node
};
// The same, every view kept (serve compares consecutive observations).
Result<Observed> Observe(const plan::Plan& plan, const ObserveSettings& settings);

}  // namespace rocewatch::lint::cli
