#pragma once

// The switch ports' pause counters over the counter window, read from a Prometheus-compatible
// API through the counter profiles (lint/switch/counter_profiles.h) for `roce-lint check
// --prometheus` (its --window, default 5m): per profile and metric, every series' growth between the
// window's ends (BothEndsQuery, lint/observe/counter_queries.h: the same meaning on PromQL and
// MetricsQL engines, never the store's increase()), and for the switches whose series went down
// (a reset) the raw samples, read as IncreaseOver does.

#include <vector>

#include "lint/observe/observe.h"
#include "lint/switch/counter_profiles.h"
#include "lint/switch/switch_pauses.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::observe {

struct SwitchQueryStats {
  std::size_t queries = 0, series = 0, skipped = 0;  // skipped: no port label or no priority 0-7
};

// `options.at` must be set (the time the nodes are read at). An Error naming the query when the
// store refuses one or answers what is not a vector.
Result<switch_config::SwitchPauses> QuerySwitchPauses(const std::vector<switch_config::CounterProfile>& profiles,
                                                      const PrometheusOptions& options,
                                                      const ScrapeOptions& transport, SwitchQueryStats* stats = nullptr);

}  // namespace rocewatch::lint::observe
