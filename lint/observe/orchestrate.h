#pragma once

// Which source roce-lint observes the nodes through, and observing them: saved /metrics files
// (--metrics-dir, --previous-metrics-dir), a Prometheus-compatible API (--prometheus and its
// --prometheus.* options), or direct scrapes of the exporters the plan names (the default).
// `check`, `fix --only-findings` and `serve` all go through here; lint/cli/observe_flags.h
// declares the flags, this file decides what they mean.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/i18n/catalogue.h"
#include "lint/observe/observe.h"
#include "lint/plan/model.h"
#include "rocewatch/flags.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::observe {

struct ObserveSettings {
  enum class Mode { kScrape, kMetricsDir, kPrometheus } mode = Mode::kScrape;
  std::string metrics_dir, previous_metrics_dir, prometheus_url;
  PrometheusOptions prometheus;  // with --prometheus: batches, headers, retries
  bool print_stats = false;      // --prometheus.stats
  double window_seconds = 0;     // counter window (0: no counter checks)
  ScrapeOptions scrape;
};
// The settings the observe flags (by their names in lint/cli/observe_flags.h) ask for: one
// source, its options checked; an Error naming the flag and the value otherwise.
Result<ObserveSettings> SettingsFromFlags(const ParsedFlags& flags);
// A byte count with an optional IEC suffix ("1048576", "512KiB", "64MiB", "1GiB").
std::optional<std::uint64_t> ParseByteSize(std::string_view text);

struct ObservedInput {
  std::string input;      // what was observed, for reports, in English
  // The same as a catalogue message (lint/i18n/), for reports in another language; empty ID:
  // `input` is a path or URL, the same in every language.
  std::string input_id;
  i18n::StoredArgs input_args;
  bool counters = false;  // the views carry counter increases
  std::string stats;      // --prometheus: what the queries cost (QueryStats::Describe)
};
// Observes every node once (twice, `window` apart, for direct scrapes with a
// counter window), handing each node's view to `sink` as soon as it is ready.
// An Error only when the source itself is unusable (a missing directory, a
// Prometheus API that does not answer); unreachable nodes are views with errors.
Result<ObservedInput> ObserveEach(const plan::Plan& plan, const ObserveSettings& settings,
                                  const NodeSink& sink);

struct Observed : ObservedInput {
  std::vector<NodeView> views;  // one per plan node
};
// The same, every view kept (serve compares consecutive observations).
Result<Observed> Observe(const plan::Plan& plan, const ObserveSettings& settings);

}  // namespace rocewatch::lint::observe
